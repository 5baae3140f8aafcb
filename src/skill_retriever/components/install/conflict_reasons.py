"""Why an install's conflict is one, and what to type about it (`InstallPlan.conflict_lines`).

A conflict's own reason is what its declaring side wrote (``conflicts: [{name, reason}]``);
a bare ``conflicts: [sk-a]`` gives none, and the line read ``conflict: sk-c (...) vs sk-a
(...) (installed at ...)`` with nothing saying where that came from or how to get past
it. So each conflict also says which side declares it, in which file (the side's
source; both sides when each names the other), and, when the other side is already in
the target, the command that takes it out first: ``uninstall`` of its recorded id (a
copy no install recorded is the user's to delete: its path is said instead). ``--force``
is never offered: it overwrites files that differ and has nothing to do with conflicts;
``--allow-conflicts`` is the switch that installs both.

A conflict with a component the caller may not see (`UNSEEN`) already says all of this
in its reason (`unseen`), and names nothing of the hidden side: it gets nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from skill_retriever.advice import command
from skill_retriever.components.conflicts import UNSEEN
from skill_retriever.model import EdgeKind

# Types only: `plan` imports this module, and `uninstall` imports `plan`; the caller's view
# imports the index snapshot (NumPy), which an uninstall never needs (tests/test_cold_start.py).
if TYPE_CHECKING:
    from skill_retriever.components.conflicts import Conflict
    from skill_retriever.components.install.component_plan import Scope
    from skill_retriever.components.view import CallerView

__all__ = ["ConflictWhy", "conflict_whys"]


@dataclass(frozen=True)
class ConflictWhy:
    """What a conflict's line adds to its reason.

    Attributes:
        declared_by: The sides whose own ``conflicts`` name the other (ids).
        declared_in: Each of those sides' source file (its id where none is known).
        resolve: The command that takes the installed side out first ('' when neither
            side is installed, or the installed one is no recorded install).
        remove_by_hand: The installed side's path, when no install recorded it (the
            user's own copy: deleting it is theirs to do), else ''.
        install: The side a resolution lets in (the one not installed), '' when none.
    """

    declared_by: tuple[str, ...] = ()
    declared_in: tuple[str, ...] = ()
    resolve: str = ""
    remove_by_hand: str = ""
    install: str = ""

    def words(self, name: Mapping[str, str]) -> str:
        """``declared by sk-c in its conflicts (/src/sk-c/SKILL.md); to install sk-c here,
        run `...` first, or add --allow-conflicts to install both``; '' when there is
        nothing to say."""
        parts = []
        if self.declared_by:
            said = [f"{name.get(i, i)} in its conflicts ({src})" for i, src in zip(self.declared_by, self.declared_in, strict=True)]
            parts.append("declared by " + " and by ".join(said))
        if self.install:
            mine = name.get(self.install, self.install)
            if self.resolve:
                parts.append(f"to install {mine} here, run `{self.resolve}` first, or add --allow-conflicts to install both")
            elif self.remove_by_hand:
                parts.append(
                    f"to install {mine} here, delete {self.remove_by_hand} first (no install recorded it: "
                    "it is your own copy), or add --allow-conflicts to install both"
                )
        return "; ".join(parts)

    def to_dict(self) -> dict[str, object]:
        return {
            "declared_by": list(self.declared_by),
            "declared_in": list(self.declared_in),
            "resolve": self.resolve or None,
        }


def _declares(view: CallerView, side: str, other: str) -> bool:
    return any(e.target == other for e in view.out_edges(side, EdgeKind.CONFLICTS_WITH))


def conflict_whys(
    view: CallerView,
    conflicts: Sequence[Conflict],
    root: Path,
    scope: Scope,
    recorded: Mapping[str, object],
) -> tuple[ConflictWhy, ...]:
    """One `ConflictWhy` per conflict, in their order (see the module).

    Args:
        recorded: The install record's components by id (what ``uninstall`` can take back).
    """
    where = ["--user"] if scope == "user" else ["--target", str(root)]
    out = []
    for c in conflicts:
        if UNSEEN in c.sides:
            out.append(ConflictWhy())
            continue
        by = tuple(s for s in c.sides if _declares(view, s, c.other(s)))
        by = by or (c.source,)  # an edge read back from an older index: its source declared it
        files = tuple(view.get(i).source or i for i in by)
        there = c.installed_id
        if there is None or c.installed is None:
            out.append(ConflictWhy(by, files))
            continue
        mine = c.other(there)
        if there in recorded:
            out.append(ConflictWhy(by, files, command(["uninstall", there, *where]), install=mine))
        else:
            out.append(ConflictWhy(by, files, remove_by_hand=c.installed, install=mine))
    return tuple(out)
