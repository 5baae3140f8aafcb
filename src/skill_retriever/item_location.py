"""Where an item was read: its ``source`` and, for a document's section, the line it
starts on (what ``query``, the MCP search tool, the LangChain documents and ``install``'s
refusal point at).

Apart from `ingest.document_sections`, which splits documents into those sections, so
that printing an answer does not import the section splitter and its secret scanners
(about 40 ms of a cold ``query``: ``python -X importtime``).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.model import Node, NodeKind

__all__ = ["file_location", "read_from", "section_line"]


def section_line(node: Node) -> int | None:
    """The line of its file a document's section starts on (its ``line`` attr), or None
    for any other item."""
    line = node.attrs.get("line")
    return line if node.kind is NodeKind.DOCUMENT and isinstance(line, int) else None


def read_from(node: Node) -> dict[str, Any]:
    """Where ``node`` was read: ``source`` ('' when none) and, for a section, ``line`` (the
    fields ``query --json``, the MCP tools and the LangChain documents give)."""
    line = section_line(node)
    return {"source": node.source, **({"line": line} if line is not None else {})}


def file_location(node: Node) -> str:
    """Where to open ``node``: its ``source``, with ``:line`` for a section."""
    line = section_line(node)
    return node.source if line is None else f"{node.source}:{line}"
