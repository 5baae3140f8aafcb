"""MCP servers an agent, command or skill names in its tools that the target will not hold: a note.

An agent's ``tools: Read, mcp__postgres__query`` (a skill's or a command's ``allowed-tools``,
a ``mcp_servers`` list) gives it tools of the ``postgres`` MCP server; installed without
that server, Claude Code offers it none of them, and the agent cannot do what its text
asks. The server is no declared requirement (the index links them by USES, not
DEPENDS_ON: a server needs settings of its own, often a connection string or a token), so
nothing brings it, and the plan said nothing of it. Now it notes each server that neither
this install writes or keeps nor the target's ``.mcp.json`` holds, with what to type to
install it when the caller's view holds an MCP server of that name. A server set in
Claude Code's user settings (``~/.claude.json``) is not seen from here: the note says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.by_name import name_for
from skill_retriever.components.install.layout import MCP_FILE
from skill_retriever.components.install.plan import ComponentPlan
from skill_retriever.components.install.settings import read_json_object
from skill_retriever.components.view import CallerView
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.frontmatter_names import tool_entries
from skill_retriever.ingest.tool_servers import server_named
from skill_retriever.model import NodeKind

__all__ = ["note_missing_servers", "servers_named"]

_KINDS = (NodeKind.COMMAND.value, NodeKind.AGENT.value, NodeKind.SKILL.value)
_PRESENT = ("install", "unchanged")
_SHOWN = 3


def servers_named(data: bytes) -> list[str]:
    """The MCP servers a component file's frontmatter tool lists name (`tool_entries`, read
    as the index reads them), in order, each once; none when it has no readable frontmatter."""
    try:
        fields = parse_frontmatter(data.decode("utf-8", "replace")).fields
    except FrontmatterError:
        return []
    return list(dict.fromkeys(s for e in tool_entries(fields, []) if (s := server_named(e)) is not None))


def note_missing_servers(plans: Sequence[ComponentPlan], root: Path, view: CallerView) -> list[ComponentPlan]:
    """``plans`` with a note on each agent, command or skill that will be in the target
    and names MCP servers it will not have (see the module)."""
    uses = {
        i: names
        for i, c in enumerate(plans)
        if c.kind in _KINDS and c.status in _PRESENT and (names := [n for f in c.files[:1] for n in servers_named(f.content)])
    }
    if not uses:
        return list(plans)
    servers, _ = read_json_object(root, MCP_FILE, "mcpServers")
    have = set((servers or {}).get("mcpServers", {}) or {})
    have |= {
        f.path.partition("#")[2]
        for c in plans
        if c.kind == NodeKind.MCP_SERVER.value and c.status in _PRESENT
        for f in c.files
        if f.path.startswith(f"{MCP_FILE}#") and f.action != "remove"
    }
    out = list(plans)
    for i, names in uses.items():
        if missing := [n for n in names if n not in have]:
            c = out[i]
            note = _note(view, missing)
            out[i] = replace(c, reason=f"{c.reason}; {note}" if c.reason else note)
    return out


def _note(view: CallerView, missing: list[str]) -> str:
    shown = ", ".join(missing[:_SHOWN]) + (f" and {len(missing) - _SHOWN} more" if len(missing) > _SHOWN else "")
    said = (
        f"its tools name the MCP server(s) {shown}, which the target's {MCP_FILE} will not hold: "
        "Claude Code offers it none of their tools unless your user settings configure them"
    )
    found = [s[0] for n in missing if (s := [x for x in view.named(n) if x.kind is NodeKind.MCP_SERVER][:1])]
    if not found:
        return f"{said}; add them to {MCP_FILE}"
    return f"{said}; install them too ({' '.join(name_for(view, s) for s in found)})"
