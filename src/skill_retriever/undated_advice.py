"""What to tell a caller whose time (a window in the query's words, or ``since`` /
``until``) met only undated items: how a document gets a date. A folder of runbooks
without frontmatter is undated throughout, and "no item carries a date" alone left an SRE
asking "since when?" with no way forward; a document's dates come from its frontmatter
(`ingest.documents`), read when it is indexed again."""

from __future__ import annotations

from collections.abc import Iterable

from skill_retriever.model import Node, NodeKind

__all__ = ["DOCUMENT_DATES", "dating_advice"]

#: How a document is dated: the first of the frontmatter keys `ingest.documents` reads.
DOCUMENT_DATES = "a document takes its date from its frontmatter, date: 2026-11-01 or updated: 2026-11-01, when it is indexed"


def dating_advice(nodes: Iterable[Node]) -> str:
    """`` (a document takes its date from ...)`` when ``nodes`` (the undated items the caller may
    see) hold a document, else "": other kinds carry their times as their source gives
    them (a JSON node's ``created``), which the README describes."""
    return f" ({DOCUMENT_DATES})" if any(n.kind is NodeKind.DOCUMENT for n in nodes) else ""
