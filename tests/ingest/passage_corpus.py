"""Helpers the passage-corpus tests share: write a corpus file, and what a run removed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def corpus(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write ``records`` as the corpus file ``path`` (its folder made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def removed(done: Any) -> set[str]:
    """Every id an `IndexRun` removed, whatever its source."""
    return {node_id for ids in done.removed.values() for node_id in ids}
