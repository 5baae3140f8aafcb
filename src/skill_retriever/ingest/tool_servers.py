"""Which entries of a component's tool list name an MCP server (a USES link).

A ``tools`` list holds tool names, most of them no item's: Claude Code's own (``Read``,
``Bash``), and in davila7's catalogue the VS Code Copilot names its agents were written
for (``fetch``, ``search``, ``githubRepo``, ``edit/editFiles``). A bare name there that
happened to be an MCP server's of the catalogue (``fetch``, ``github``, ``filesystem``)
was linked as a use of that server: 73 false USES edges on that catalogue, shown as
dependencies in the graph and in explanations. A server is named only in a form that
refers to one: Claude Code's ``mcp__<server>`` and ``mcp__<server>__<tool>``, VS Code's
``<server>/*`` (all tools of that server), or any entry of ``mcp_servers``, a list of
servers by name (`skill_records` writes those as ``mcp__<server>``).
"""

from __future__ import annotations

__all__ = ["MCP_PREFIX", "as_server_entry", "server_named"]

MCP_PREFIX = "mcp__"


def server_named(entry: str) -> str | None:
    """The MCP server a tool list's ``entry`` refers to (``mcp__github__get_issue``,
    ``mcp__github``, ``github/*``: ``github``); None for a tool name (``Read``, ``fetch``,
    ``edit/editFiles``), which names no server whatever servers the catalogue holds."""
    entry = entry.strip()
    if entry.startswith(MCP_PREFIX):
        server = entry[len(MCP_PREFIX) :].split("__", 1)[0]
        return server or None
    if entry.endswith("/*") and "/" not in entry[:-2]:
        return entry[:-2] or None
    return None


def as_server_entry(name: str) -> str:
    """An ``mcp_servers`` entry (a server by its bare name) as `server_named` reads one."""
    return name if server_named(name) is not None else f"{MCP_PREFIX}{name}"
