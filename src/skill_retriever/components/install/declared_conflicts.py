"""The names a component itself declares in ``conflicts``, as its installer's view shows
them: what the install record keeps per component (`RecordEntry.conflicts`).

A skill, agent or command carries its ``conflicts`` in its installed file's frontmatter,
where anyone who reads the project finds them (`unseen`). A hook's entry in
``settings.json`` and a server's in ``.mcp.json`` keep none, so a hidden one's conflict
could not be found from the project; the record keeps it instead.

Only the component's own declarations count: the targets of its own CONFLICTS_WITH edges
that the installer's view shows, and the names written in its frontmatter or kept on its
node as resolving nowhere in its source (`item_attrs.UNRESOLVED_ATTR`), which may name
something the view does not show (then they are names the component's own file writes).
Never an edge another item declares against it: that item may be hidden from whoever
reads the record, and it is not installed.
"""

from __future__ import annotations

from collections.abc import Mapping

from skill_retriever.components.view import CallerView
from skill_retriever.components.written_names import written_conflicts
from skill_retriever.ingest.item_attrs import UNRESOLVED_ATTR
from skill_retriever.ingest.mentions import name_key
from skill_retriever.model import EdgeKind, Node

__all__ = ["declared_conflicts"]


def _unresolved(node: Node) -> list[str]:
    """The ``conflicts`` names its source resolved nowhere (``[[name, reason], ...]``);
    none when the attribute is not of that shape (attrs written through the API)."""
    raw = node.attrs.get(UNRESOLVED_ATTR)
    pairs = raw.get("conflicts") if isinstance(raw, Mapping) else None
    if not isinstance(pairs, list):
        return []
    return [p[0] for p in pairs if isinstance(p, list) and p and isinstance(p[0], str)]


def declared_conflicts(view: CallerView, node: Node) -> tuple[str, ...]:
    """The names ``node`` declares in its own ``conflicts`` (see the module), one per name
    key, first spelling kept, never its own name."""
    edges = [view.name_of(e.target) for e in view.out_edges(node.id, EdgeKind.CONFLICTS_WITH)]
    out: dict[str, str] = {}
    for name in (*edges, *written_conflicts(node), *_unresolved(node)):
        key = name_key(name)
        if key and key != name_key(node.name):
            out.setdefault(key, name.strip())
    return tuple(out.values())
