"""What every test of ``repair`` on an index holding old, unredacted items checks: it
says what it redacted, no byte of a secret is left in the item store (free pages
included), and a second repair finds nothing to do."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.model import Node
from skill_retriever.stores.index import Index


def stored_bytes(index_dir: Path) -> bytes:
    """``items.sqlite`` and its journal files, byte for byte: a secret overwritten in a row
    but left in a free page would still be on disk (secure_delete, on by default in some
    SQLite builds, is set by the index for all)."""
    return b"".join(p.read_bytes() for p in index_dir.iterdir() if p.name.startswith("items.sqlite"))


def repaired(
    index_dir: Path, capsys: pytest.CaptureFixture[str], said: str, secrets: Iterable[str]
) -> dict[str, Node]:
    """Runs ``repair`` over ``index_dir`` twice and returns the items it held after the
    first: that run says ``said``; none of ``secrets`` is left in the item store; the
    second run redacts nothing."""
    assert main(["repair", "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert said in out, out
    with Index.open(index_dir) as index:
        held = dict(index.snapshot().nodes)
    raw = stored_bytes(index_dir)
    assert [s for s in secrets if s.encode() in raw] == []
    assert main(["repair", "--index-dir", str(index_dir)]) == 0
    assert "redacted" not in capsys.readouterr().out
    return held
