"""Which reader made an item: a Markdown component file (`is_markdown_item`) or a
folder of documents (`is_document`), told from the attributes each writes.

Its own module, apart from `redact_fields` (which redacts such items and imports every
secret pattern): a query's and ``stats``' advice on undated items asks these questions
(`undated_advice`, through `filters`) and starts without compiling those patterns
(tests/test_cold_start.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from skill_retriever.ingest.provenance import SOURCE_FILE
from skill_retriever.model import Node, NodeKind

__all__ = ["is_document", "is_markdown_item"]

#: The kinds `skill_records.markdown_record` reads a file as.
_MARKDOWN_KINDS = frozenset(
    {NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.OTHER}
)


def is_markdown_item(node: Node) -> bool:
    """Whether ``node`` is what ingest builds from a Markdown component file: a skill,
    agent, command, hook or OTHER with the ``frontmatter`` attribute that only
    `skill_records.markdown_record` writes (a JSON hook or a JSON graph's node has none,
    or names its ``source_file``)."""
    return (
        node.kind in _MARKDOWN_KINDS
        and isinstance(node.attrs.get("frontmatter"), Mapping)
        and SOURCE_FILE not in node.attrs
    )


def is_document(node: Node) -> bool:
    """Whether ``node`` is a page (or a section of one) of a folder of documents
    (`documents` writes ``corpus`` and ``path``; a JSON graph's node names its
    ``source_file`` and is not redacted at ingest, so not by ``repair`` either)."""
    return (
        node.kind is NodeKind.DOCUMENT
        and isinstance(node.attrs.get("corpus"), str)
        and isinstance(node.attrs.get("path"), str)
        and SOURCE_FILE not in node.attrs
    )
