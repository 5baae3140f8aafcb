"""Skills a command, agent or skill reaches by their installed path that the target will
not hold: a note.

Catalogue commands run a skill's scripts where an install puts them (davila7's
``/feature-pipeline`` runs ``python3 .claude/skills/task-execution-engine/scripts/task_manager.py``);
such a path is no declared requirement, so nothing brings the skill, and installed alone
the command fails at that step. The plan notes each ``.claude/skills/<name>/`` its text
names (bare, or below ``$CLAUDE_PROJECT_DIR``) that neither this install writes or keeps
nor the target's ``.claude/skills`` holds, with what to type to install it when the
caller's view holds a skill of that name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.by_name import name_for
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import fold
from skill_retriever.components.install.plan import ComponentPlan
from skill_retriever.components.view import CallerView
from skill_retriever.model import NodeKind

__all__ = ["note_missing_skill_paths"]

_FOLDER = LAYOUT[NodeKind.SKILL].folder  # .claude/skills
#: ``.claude/skills/<name>/`` as a project path: at the start of a word or below the
#: project folder's variable, not inside another path (``~/.claude/skills/x/`` is the
#: user's, which a project install does not write).
_PATH_RE = re.compile(
    r"(?:(?<![\w/.~-])|(?<=\$CLAUDE_PROJECT_DIR/)|(?<=\$\{CLAUDE_PROJECT_DIR\}/)|(?<=\$CLAUDE_PROJECT_DIR\"/))"
    + re.escape(_FOLDER) + r"/([A-Za-z0-9_.-]+)/"
)
_KINDS = (NodeKind.COMMAND.value, NodeKind.AGENT.value, NodeKind.SKILL.value)
_PRESENT = ("install", "unchanged")
_SHOWN = 3


def skill_folders_named(data: bytes) -> list[str]:
    """The skill folder names ``data`` reaches by ``.claude/skills/<name>/``, in order, each once."""
    found = _PATH_RE.findall(data.decode("utf-8", "replace"))
    return list(dict.fromkeys(n for n in found if n not in (".", "..")))


def note_missing_skill_paths(plans: Sequence[ComponentPlan], root: Path, view: CallerView) -> list[ComponentPlan]:
    """``plans`` with a note on each command, agent or skill that will be in the target
    and names skill folders it will not have (see the module)."""
    runs = {
        i: names
        for i, c in enumerate(plans)
        if c.kind in _KINDS and c.status in _PRESENT
        and (names := [n for f in c.files[:1] for n in skill_folders_named(f.content)])
    }  # fmt: skip
    if not runs:
        return list(plans)
    written = {
        fold(parts[2])
        for c in plans if c.status in _PRESENT
        for f in c.files if f.action != "remove"
        and len(parts := f.path.split("/")) > 3 and "/".join(parts[:2]) == _FOLDER
    }  # fmt: skip
    out = list(plans)
    for i, names in runs.items():
        missing = [n for n in names if fold(n) not in written and not (root / _FOLDER / n).is_dir()]
        if missing:
            out[i] = replace(out[i], reason="; ".join(r for r in (out[i].reason, _note(view, missing)) if r))
    return out


def _note(view: CallerView, missing: list[str]) -> str:
    shown = ", ".join(f"{_FOLDER}/{n}/" for n in missing[:_SHOWN])
    more = f" and {len(missing) - _SHOWN} more" if len(missing) > _SHOWN else ""
    skills = [s for n in missing for s in [x for x in view.named(n) if x.kind is NodeKind.SKILL][:1]]
    what = "the folder of a skill" if len(missing) == 1 else "the folders of skills"
    said = f"its text names {shown}{more}, {what} the target will not hold"
    if not skills:
        return f"{said}: add {'it' if len(missing) == 1 else 'them'} to {_FOLDER}, or edit that path"
    typed = " ".join(name_for(view, s) for s in skills)
    rest = "" if len(skills) == len(missing) else f"; add the others to {_FOLDER}, or edit those paths"
    return f"{said}: install {'it' if len(skills) == 1 else 'them'} too ({typed}){rest}"
