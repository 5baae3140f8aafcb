"""Which copy names a folded entry: one whose file is on disk before one whose file is gone.

A folder renamed and indexed at its new path is a second source holding the old one's
items again, at the same paths with the same text (`moved_sources` says so at the index
run, naming the ``remove-source`` that takes the old copy out). Until then the two copies
fold into one entry (`dedup.collapse_ranked`), and, ranking alike, the one whose id sorts
first stood for it: renamed from ``a-books`` to ``z-books``, ``file:`` named a file gone
from disk, the real one only under "also at" (an install or ``get`` of that id read the
old folder too). The entry keeps its place in the ranking; among its copies of the same
text, one whose file is there now names it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skill_retriever.ingest.provenance import item_file
from skill_retriever.model import Node

__all__ = ["present_first"]


def present_first(lead: str, copies: Sequence[str], node: Callable[[str], Node]) -> tuple[str, tuple[str, ...]]:
    """``lead`` and its folded ``copies`` (in rank order), the lead replaced by the first
    copy of the same text whose file is there when ``lead``'s file is gone from disk; as
    given otherwise (no file recorded, or none of them there). ``node(id)`` is the item."""
    if not copies or not _gone(first := node(lead)):
        return lead, tuple(copies)
    for copy in copies:
        other = node(copy)
        if other.text == first.text and _there(other):
            return copy, (lead, *(c for c in copies if c != copy))
    return lead, tuple(copies)


def _gone(item: Node) -> bool:
    """Its file is recorded and no longer there (a source that names no file is not gone)."""
    file = item_file(item, _root(item))
    return file is not None and not file.exists()


def _there(item: Node) -> bool:
    file = item_file(item, _root(item))
    return file is not None and file.exists()


def _root(item: Node) -> str | None:
    root = item.attrs.get("source_root")
    return root if isinstance(root, str) else None
