"""Subagents a command, agent or skill runs by name that the target will not hold: a note.

Catalogue commands orchestrate agents (wshobson's ``/full-review`` runs
``subagent_type: "comprehensive-review-code-reviewer"`` and two more); installed without
them, the command fails the moment it asks Claude Code for an agent it does not have.
The agents are no declared requirement (the index links them by MENTIONS, not
DEPENDS_ON), so nothing brings them: the plan notes each such name that neither this
install writes or keeps nor the target's ``.claude/agents`` holds (by frontmatter ``name``,
as Claude Code finds subagents), nor is one of Claude Code's own, with what to type to
install it when the caller's view holds an agent of that name (and the plugin, when they
all come from one). A name through its plugin (``plugin:agent``) is `claude_names`' note.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.by_name import name_for
from skill_retriever.components.install.claude_names import agent_name, target_agents
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import fold
from skill_retriever.components.install.plan import ComponentPlan
from skill_retriever.components.view import CallerView
from skill_retriever.model import EdgeKind, NodeKind

__all__ = ["note_missing_subagents", "subagents_named"]

#: ``subagent_type: "x"`` however Markdown writes the key (as `claude_names` reads it),
#: a plain name only: not ``plugin:agent``, nor a placeholder (``"<agent>"``), nor the
#: first word of prose (``subagent_type: the selected role``): the name ends at a quote,
#: a comma, a bracket, a table's bar or the line's end.
_SUBAGENT_RE = re.compile(
    r"subagent_type[`\"'*]*\s*[:=|]\s*[`\"'*]*([A-Za-z0-9_-]+)(?=[`\"'*]|\s*[,)|]|[ \t]*$)", re.MULTILINE
)
#: The subagents Claude Code has of its own (folded).
BUILT_IN = frozenset({"general-purpose", "explore", "plan", "statusline-setup", "output-style-setup", "claude-code-guide"})
_KINDS = (NodeKind.COMMAND.value, NodeKind.AGENT.value, NodeKind.SKILL.value)
_PRESENT = ("install", "unchanged")
_SHOWN = 3


def subagents_named(data: bytes) -> list[str]:
    """The subagent names ``data`` runs by ``subagent_type``, in order, each once."""
    return list(dict.fromkeys(_SUBAGENT_RE.findall(data.decode("utf-8", "replace"))))


def note_missing_subagents(plans: Sequence[ComponentPlan], root: Path, view: CallerView) -> list[ComponentPlan]:
    """``plans`` with a note on each command, agent or skill that will be in the target
    and runs subagents it will not have (see the module)."""
    runs = {
        i: names
        for i, c in enumerate(plans)
        if c.kind in _KINDS and c.status in _PRESENT
        and (names := [n for f in c.files[:1] for n in subagents_named(f.content) if n.casefold() not in BUILT_IN])
    }  # fmt: skip
    if not runs:
        return list(plans)
    head = f"{LAYOUT[NodeKind.AGENT].folder}/"
    mine = {
        fold(f.path): name
        for c in plans
        if c.kind == NodeKind.AGENT.value and c.status in _PRESENT
        for f in c.files[:1]
        if f.path.startswith(head) and (name := agent_name(f.content)) is not None
    }
    removed = {fold(f.path) for c in plans for f in c.files if f.action == "remove"}
    have = {n.casefold() for n in mine.values()} | {n.casefold() for n in target_agents(root, removed | set(mine))}
    out = list(plans)
    for i, names in runs.items():
        missing = [n for n in names if n.casefold() not in have]
        if missing:
            out[i] = _noted(out[i], _note(view, missing))
    return out


def _note(view: CallerView, missing: list[str]) -> str:
    shown = ", ".join(missing[:_SHOWN]) + (f" and {len(missing) - _SHOWN} more" if len(missing) > _SHOWN else "")
    agents = {n: [a for a in view.named(n) if a.kind is NodeKind.AGENT][:1] for n in missing}
    found = [a[0] for a in agents.values() if a]
    said = (
        f"its text runs the subagent(s) {shown} (subagent_type), which the target will not hold: "
        "Claude Code cannot run them"
    )
    if not found:
        return f"{said}; add them to .claude/agents, or edit those names"
    typed = " ".join(name_for(view, a) for a in found)
    plugins = {e.target for a in found for e in view.out_edges(a.id, EdgeKind.PART_OF)}
    one = view.get(next(iter(plugins))) if len(plugins) == 1 and len(found) == len(missing) else None
    plugin = f", or their plugin {name_for(view, one)}" if one is not None and one.kind is NodeKind.PLUGIN else ""
    return f"{said}; install them too ({typed}){plugin}"


def _noted(c: ComponentPlan, note: str) -> ComponentPlan:
    return replace(c, reason=f"{c.reason}; {note}" if c.reason else note)
