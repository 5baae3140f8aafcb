"""Several components of one name that are copies of one file (one skill indexed twice:
``repo`` and ``repo/skills/x`` under a ``--source-name``, as the nested-source rules
allow; a re-hosted agent). Installing either writes the same bytes, so install by name
takes the first by id and says so; components that would write anything differently
still need their id.

"The same" is what install writes, not `query`'s near-duplicate test (`dedup`, which
folds a lightly edited copy too): the rendered files (path, bytes, mode), hook entries
and server entry, as `render` makes them for a project.
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.components.install.plan import InstallError
from skill_retriever.components.install.render import render
from skill_retriever.components.install.rendered import Rendered
from skill_retriever.components.view import CallerView
from skill_retriever.model import Node

__all__ = ["copies_note", "same_copies"]


def _written(view: CallerView, node: Node) -> Rendered | None:
    """What installing ``node`` into a project writes; None when it cannot be placed
    (unsafe, skipped): such a node is nobody's copy."""
    try:
        return render(node, "project", None, view)
    except InstallError:
        return None


def same_copies(view: CallerView, nodes: Sequence[Node]) -> bool:
    """All of ``nodes`` (two or more) are of one kind and would write the same files,
    hooks and server entry, byte for byte."""
    if len(nodes) < 2 or len({n.kind for n in nodes}) != 1:
        return False
    outs = [_written(view, n) for n in nodes]
    first = outs[0]
    if first is None:
        return False
    return all(
        o is not None and (o.files, o.hooks, o.mcp_entry) == (first.files, first.hooks, first.mcp_entry)
        for o in outs[1:]
    )


def copies_note(ref: str, ids: Sequence[str]) -> str:
    """Which of the copies named ``ref`` install takes (the first of ``ids``)."""
    others = ", ".join(ids[1:])
    return (
        f"{ref!r:.200} names {len(ids)} byte-identical copies of one component: installing "
        f"{ids[0]} (the same files as {others}); give another's id to have that one recorded"
    )
