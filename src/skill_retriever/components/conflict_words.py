"""How a component search words a conflict: on a result's line (`conflict_line`) and for
a match ``drop_conflicts`` dropped (`conflict_note`).

The other side of a conflict with a component the target holds and the caller may not
see is `UNSEEN`: it is called `UNSEEN_NAME` (as the install plan calls it), never by an
id, and since that name says it is installed, no "(installed)" is added to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.components.conflicts import UNSEEN, UNSEEN_NAME, Conflict
from skill_retriever.components.view import CallerView

__all__ = ["answer_name", "conflict_line", "conflict_note"]


def answer_name(view: CallerView, node_id: str) -> str:
    """The name an answer gives ``node_id``: `UNSEEN_NAME` for the side of a conflict the
    caller may not see (its id, ``not shown``, is no name)."""
    return UNSEEN_NAME if node_id == UNSEEN else view.name_of(node_id)


def conflict_line(view: CallerView, node_id: str, c: Conflict) -> str:
    """``node_id``'s line on ``c``: the other side, where it is installed, why, what went."""
    other = c.other(node_id)
    where = f" (installed at {c.installed})" if other == c.installed_id else ""
    fate = f"; {answer_name(view, c.dropped)} dropped" if c.dropped else ""
    return f"Conflicts with {answer_name(view, other)}{where}{_because(c.reason)}{fate}."


def conflict_note(view: CallerView, component: str, c: Conflict, unit: Sequence[str]) -> str:
    """Why ``component`` (a match, with ``unit``: what it requires) was dropped for ``c``."""
    assert c.dropped is not None
    if c.source in unit and c.target in unit:  # it cannot be kept, whatever the ranks
        a, b = view.name_of(c.source), view.name_of(c.target)
        what = f"{view.name_of(c.other(component))}, which conflicts with it"
        if component not in c.sides:
            what = f"both {a} and {b}, which conflict"
        return f"requires {what}{_because(c.reason)}"
    winner = c.other(c.dropped)
    lead = (
        "conflicts"
        if component == c.dropped
        else f"requires {view.name_of(c.dropped)}, which conflicts"
    )
    if winner == UNSEEN:  # its name already says it is installed
        return f"{lead} with {UNSEEN_NAME}{_because(c.reason)}"
    where = " (installed)" if winner == c.installed_id else " (ranked higher)"
    return f"{lead} with {view.name_of(winner)}{where}{_because(c.reason)}"


def _because(reason: str) -> str:
    """``": reason"`` without its final full stop (the sentence adds its own), or ''."""
    reason = reason.strip().rstrip(".")
    return f": {reason}" if reason else ""
