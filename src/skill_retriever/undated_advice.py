"""What to tell a caller whose time (a window in the query's words, or ``since`` /
``until``) met undated items: how each kind of them gets a date. A folder of runbooks
without frontmatter is undated throughout, and "no item carries a date" alone left an SRE
asking "since when?" with no way forward; a document's dates come from its frontmatter
(`ingest.documents`), read when it is indexed again. Skills, agents and commands read from
Markdown take theirs from their frontmatter's ``created:`` / ``updated:``
(`ingest.skill_records`), and the rest (a JSON graph's node, a tool set's line, a JSON hook
or MCP server definition, a plugin's manifest, a node written through the Python API) from
their ``created`` / ``updated`` fields: advice on documents alone told a caller whose
window left out skills nothing that would date them (found in a walkthrough)."""

from __future__ import annotations

from collections.abc import Iterable

from skill_retriever.ingest.item_origin import is_document, is_markdown_item
from skill_retriever.model import SCAFFOLD_KINDS, Node, NodeKind

__all__ = ["DOCUMENT_DATES", "dating_advice"]

#: How a document is dated: the first of the frontmatter keys `ingest.documents` reads.
DOCUMENT_DATES = "a document takes its date from its frontmatter, date: 2026-11-01 or updated: 2026-11-01, when it is indexed"
#: How a Markdown skill, agent, command or hook is dated (`skill_records.record_from_fields`).
_FRONTMATTER_DATES = "takes its date from its frontmatter, created: 2026-11-01 or updated: 2026-11-01, when it is indexed"
#: How any other item is dated: the fields a JSON graph node, a tool set line, a JSON
#: definition or `Node` has.
_FIELD_DATES = ('takes its date from its "created" or "updated" field (ISO 8601), as its JSON file, '
                "or Node(created=...) in the Python API, gives it")

#: Kinds no source dates: a passage corpus's records carry no time, and entities and
#: facts are its scaffolding (`ingest.passages`).
_NO_ADVICE = frozenset({NodeKind.PASSAGE, *SCAFFOLD_KINDS})


def dating_advice(nodes: Iterable[Node]) -> str:
    """`` (a document takes its date from ...; a skill takes ...)``: how each kind of
    ``nodes`` (the undated items the caller may see) gets a date, by where it was read
    from; "" when none of them is a kind that can be dated."""
    markdown: list[str] = []
    fields: list[str] = []
    documents = False
    for node in nodes:
        if node.kind in _NO_ADVICE:
            continue
        if is_document(node):
            documents = True
            continue
        found = markdown if is_markdown_item(node) else fields
        if node.kind.value not in found:
            found.append(node.kind.value)
    said = [DOCUMENT_DATES] if documents else []
    said += [f"{_kinds(found)} {how}" for found, how in ((markdown, _FRONTMATTER_DATES), (fields, _FIELD_DATES)) if found]
    return f" ({'; '.join(said)})" if said else ""


def _kinds(kinds: list[str]) -> str:
    """"a skill", "a skill or agent", "a skill, agent or incident" (in `NodeKind`'s order)."""
    order = [k.value for k in NodeKind]
    words = [k.replace("_", " ") if k != NodeKind.MCP_SERVER.value else "MCP server" for k in sorted(kinds, key=order.index)]
    named = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return f"{'an' if named[0] in 'aeiou' else 'a'} {named}"
