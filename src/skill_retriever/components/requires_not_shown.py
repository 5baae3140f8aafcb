"""What a component requires that the caller's view has no component of, said by count
(`get_component`).

Its ``requires`` lists only what the caller sees: a requirement that resolves to an item
the caller may not see leads to the visible item of its name where there is one
(`stand_ins`: listed, and not counted here); where there is none it is no edge in their
view, and the full answer's frontmatter leaves its name out (`visible_attrs`), so the
component read as needing nothing more. The
install plan notes each such name as one "which the index does not show you"
(`missing.unknown_notes`); this says how many, in the plan's words, and no name: the
answer that leaves the name out of the frontmatter must not give it back here.

The count is of `missing.unknown_requires`, the names the plan notes: one the caller may
not see and one that no source has are counted alike (telling them apart would tell that
the hidden item exists), and a requirement no written name gives (an edge of a JSON
graph) is not counted, as the plan notes none.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.components.install.missing import unknown_requires
from skill_retriever.components.view import CallerView

__all__ = ["requires_not_shown"]


def requires_not_shown(view: CallerView, node_id: str) -> dict[str, Any]:
    """``{"requires_not_shown": {"count": n, "note": ...}}`` for a visible ``node_id`` that
    requires ``n`` components the view has none of; ``{}`` when there are none."""
    count = len(unknown_requires(view, [node_id]).get(node_id, ()))
    if not count:
        return {}
    what, it, that = ("component", "it", "that one is") if count == 1 else ("components", "them", "they are")
    if view.may_hide:  # as `missing`: it must not claim that no source has one
        lacks = f"that the index does not show you (no source has {it}, or only others may see {it})"
        todo = f"install {it} by hand, ask someone who may see {it} to install {it}, or index a source that has {it}"
    else:
        lacks = "that no source of the index has"
        todo = f"install {it} by hand or index a source that has {it}"
    note = (
        f"requires {count} {what} {lacks}, besides those listed: it may not work until {that} "
        f"there; {todo} (check_dependencies notes each by the name this component's file gives)"
    )
    return {"requires_not_shown": {"count": count, "note": note}}
