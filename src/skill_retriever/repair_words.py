"""The line ``repair`` ends on: what it did, and what it leaves to the user.

Repair mends what the index itself holds the means to mend (vectors embedded or copied
again, a manifest, a calibration); an index run that did not finish is not among them:
only indexing its source again completes it. Such a run makes repair exit 1, so its line
must not read as a plain success ("is repaired") above a warning: it says what repair did
and, in the same line, what is left and the command that finishes it.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores.run_marks import UNREADABLE, finish_command

__all__ = ["repair_line"]


def repair_line(status: dict[str, Any], mended: list[str], left: list[str]) -> str:
    """``index <dir> is ...: <counts>``, then, when ``left`` holds something (exit 1), what
    is left: each unfinished run with the command that finishes it, and how many other
    things the warnings below name.

    Args:
        status: `Index.status` after the repair (its ``unfinished_runs`` name the runs).
        mended: What repair did, one phrase each.
        left: What it could not mend (the warnings printed below it), one line each.
    """
    vectors = status["vectors"]
    counts = (f"{status['nodes']} nodes with {vectors['nodes']} vectors, "
              f"{status['edges']} edges ({vectors['edges']} with vectors)")
    if not left:
        state = f"repaired ({'; '.join(mended)})" if mended else "in step"
        return f"index {status['path']} is {state}: {counts}"
    state = f"repaired as far as repair goes ({'; '.join(mended)})" if mended else "as it was"
    marks = {s: m for s, m in (status.get("unfinished_runs") or {}).items() if s != UNREADABLE}
    todo = [f"the unfinished run of {source} is finished by running: `{finish_command(source, m, status['path'])}`"
            for source, m in sorted(marks.items())]
    others = len(left) - (1 if marks else 0)  # (the runs are one warning line together)
    if others:
        todo.append(f"{others} thing(s) repair cannot mend, named below")
    return f"index {status['path']} is {state}: {counts}; left for you, so exit 1: {'; '.join(todo)}"
