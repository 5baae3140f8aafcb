"""A nested skill installed with the skill whose folder holds it is not written again.

A SKILL.md nested in another skill's folder (sickn33's ``game-development/2d-games/SKILL.md``)
is one of the outer skill's files: installing game-development writes it at
``.claude/skills/game-development/2d-games/SKILL.md``. Installed alone it becomes a skill
of its own, at ``.claude/skills/2d-games/SKILL.md`` (its line says "part of skill
game-development"). ``install game-development 2d-games`` planned both, with no word
that the second was a copy of a file the first writes; so did an install that brought
game-development as a requirement. Where the outer skill is written by the same install
(status install or unchanged), the nested one is skipped and says so, as `orphans` says
why it leaves a dependency out; it does not make the install "not ok" (`covered`), since
what was asked for is in the target. One an earlier install wrote on its own (recorded,
each file unchanged) is skipped too, its line saying where that copy is and that
``uninstall <name>`` removes it: left there without a word, the user had two copies.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from skill_retriever.components.install.component_plan import WRITTEN_STATUSES, ComponentPlan

__all__ = ["covered", "fold_into_outer"]


def covered(c: ComponentPlan, plans: Sequence[ComponentPlan]) -> bool:
    """``c`` is a nested skill whose outer skill ``plans`` write (or hold unchanged)."""
    if c.part_of is None:
        return False
    return any(o.id == c.part_of[0] and o.status in WRITTEN_STATUSES for o in plans)


def _where(c: ComponentPlan, plans: Sequence[ComponentPlan]) -> str:
    """The path the outer skill writes ``c``'s SKILL.md at (ids are source paths:
    ``.../game-development/SKILL.md`` holds ``.../game-development/2d-games/SKILL.md``), or
    '' when its files do not show it."""
    assert c.part_of is not None
    folder = c.part_of[0].rpartition("/")[0]
    if not c.id.startswith(folder + "/"):
        return ""
    inner = c.id[len(folder):]  # /2d-games/SKILL.md
    outer = next(o for o in plans if o.id == c.part_of[0])
    return next((f.path for f in outer.files if f.path.endswith(inner)), "")


def _why(c: ComponentPlan, plans: Sequence[ComponentPlan]) -> str:
    assert c.part_of is not None
    where = _where(c, plans)
    return f"written with skill {c.part_of[1]}" + (f", at {where}" if where else ", as a file in its folder")


def _earlier(c: ComponentPlan) -> str:
    """Where an earlier install wrote ``c`` on its own, and what removes that copy."""
    own = [f.path for f in c.files if f.path.rpartition("/")[2] == "SKILL.md"] or [f.path for f in c.files]
    folder = min(own, key=lambda p: (p.count("/"), p)).rpartition("/")[0] if own else ""
    where = f" at {folder}" if folder else ""
    return f"; an earlier install wrote it on its own{where}: uninstall {c.name} to remove that copy"


def fold_into_outer(plans: Sequence[ComponentPlan], recorded: Collection[str] = ()) -> list[ComponentPlan]:
    """``plans`` with each nested skill to install skipped where its outer skill is
    written by the same install: it reaches the target as that skill's file. Its files
    and notes go (nothing of its own is written; a component that requires it finds it
    in the outer skill's folder). One in ``recorded`` (ids the install record holds)
    whose files are all there unchanged is skipped too, its line naming that copy."""
    out: list[ComponentPlan] = []
    for c in plans:
        earlier = c.status == "unchanged" and c.id in recorded
        if (c.status == "install" or earlier) and c.part_of is not None and covered(c, plans):
            why = _why(c, plans) + (_earlier(c) if earlier else "")
            c = replace(c, status="skipped", files=(), missing=(), reason=why)
        out.append(c)
    return out
