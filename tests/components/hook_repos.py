"""A skills repository of hook files, one per name, indexed: the fixture the hook-install tests share."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def hooks_index(tmp_path: Path, groups: Mapping[str, tuple[str, dict[str, Any]]], files: Mapping[str, str] = {}) -> Index:
    """An index of ``tmp_path/repo/hooks/<name>.json``, each holding one group (``event``,
    ``group``) and the description "the <name> hook"; ``files``: more files in hooks/."""
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, (event, group) in groups.items():
        doc = {"description": f"the {name} hook", "hooks": {event: [group]}}
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
    for name, text in files.items():
        (repo / "hooks" / name).write_text(text)
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [repo], "skills")
    return idx


def post_edit(hooks: Mapping[str, dict[str, Any]]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each hook alone in a PostToolUse group matching Edit."""
    return {name: ("PostToolUse", {"matcher": "Edit", "hooks": [hook]}) for name, hook in hooks.items()}


def indexed_repo(repo: Path, ix: Path) -> Path:
    """``ix``, an index of the repository ``repo`` (read with no problem), closed again."""
    index = Index.open(ix, embedder=HashingEmbedder(), create=True)
    try:
        ran = index_sources(index, [repo], "skills", calibrate=False)
        assert not [p for s in ran.sources for p in s.problems]
    finally:
        index.close()
    return ix


def only_hook_id(ix: Path, index: Index | None = None) -> str:
    """The id of the one hook the index at ``ix`` (or ``index``, open already) holds."""
    opened = index or Index.open(ix)
    try:
        return next(n.id for n in opened.nodes.values() if n.kind == "hook")
    finally:
        if index is None:
            opened.close()
