"""The frontmatter keys that name other components, and how a list of names is read.

`skill_records` reads them when indexing; the install notes, the MCP answers and a
query's "requires" read the same keys of a stored item. They live apart from
`skill_records` (which imports the YAML reader) so that printing an answer does not
import what reading a file needs (about 30 ms of a cold ``query``: ``python -X importtime``).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.ingest.tool_servers import as_server_entry

__all__ = ["CONFLICTS_KEY", "DEPENDENCIES_KEY", "REQUIRES_KEYS", "TOOL_KEYS", "name_list", "tool_entries"]

#: Frontmatter keys read as what a component requires, conflicts with, and the tools it
#: uses (the install notes and the MCP answers read the same keys).
REQUIRES_KEYS = ("requires", "depends_on")
CONFLICTS_KEY = "conflicts"
TOOL_KEYS = ("tools", "allowed-tools", "mcp_servers")
#: Anthropic's skill format lists software packages under ``dependencies`` (``pandas>=1.5``,
#: ``railway-cli``); it names components only where every entry is one (see `skill_links`).
DEPENDENCIES_KEY = "dependencies"


def name_list(value: Any, key: str, warnings: list[str]) -> list[str]:
    """A list of names from a list, a comma-separated string, or {name: ...} items."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip()]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)]
    if not isinstance(value, list):
        warnings.append(f"'{key}' must be a list of names, got a {type(value).__name__}; ignored")
        return []
    out = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            item = item["name"]
        if isinstance(item, (str, int, float)) and not isinstance(item, bool) and str(item).strip():
            out.append(str(item).strip())
        else:
            warnings.append(f"'{key}' entry {item!r:.60} is not a name; ignored")
    return out


def tool_entries(fields: dict[str, Any], warnings: list[str]) -> list[str]:
    """The tool list entries of a component's frontmatter (`TOOL_KEYS`), in order; the bare
    server names of ``mcp_servers`` written as tool lists name them (``mcp__<server>``), so
    that `tool_servers.server_named` reads every entry alike (the index's links and
    install's notes read the same list)."""
    out: list[str] = []
    for key in TOOL_KEYS:
        names = name_list(fields.get(key), key, warnings)
        out += [as_server_entry(n) for n in names] if key == "mcp_servers" else names
    return out
