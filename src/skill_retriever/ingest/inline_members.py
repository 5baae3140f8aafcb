"""The hooks and MCP servers a plugin's manifest holds inline -> records, members of the plugin.

A ``plugin.json``, and a plugin's entry in a marketplace.json, may hold its hooks and MCP
servers as objects instead of paths to files (``"hooks": {event: [...]}``,
``"mcpServers": {name: {...}}``: the plugins reference's component path fields,
https://code.claude.com/docs/en/plugins-reference#component-path-fields; an entry may carry
any of plugin.json's fields, https://code.claude.com/docs/en/plugin-marketplaces#plugin-entries).
Both are read here, the same way: ``"hooks"`` is one HOOK record (``<rel>#hooks``, its
commands redacted as a hooks.json's are), each server one MCP_SERVER record
(``<rel>#<name>``). ``rel`` is the manifest's path for a plugin.json, and
``<marketplace.json>#<plugin>`` for an entry (the file holds many plugins' entries).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from skill_retriever.ingest import skill_configs as cfg
from skill_retriever.ingest.hook_configs import hook_record
from skill_retriever.ingest.skill_records import Record, RecordError

__all__ = ["inline_members"]


def inline_members(fields: Mapping[str, object], rel: str, hooks_name: str, files: Collection[str]) -> list[Record]:
    """The records of the hooks and servers ``fields`` holds inline (module docstring).

    Args:
        fields: The manifest, or the marketplace entry, as parsed.
        rel: What the records' ids are made of (module docstring).
        hooks_name: The name of the hook (the plugin's hooks file's: ``<plugin>-hooks``).
        files: Every file of the source root, to find the scripts the hooks run.

    Raises:
        RecordError: The servers cannot be read, or the hooks cannot and no server was
            read (with servers read, the hooks' problem is a warning of the first one).
    """
    made: list[Record] = []
    servers = fields.get("mcpServers")
    if isinstance(servers, dict) and servers:
        made += cfg.mcp_records({"mcpServers": servers}, rel, "")
    hooks = fields.get("hooks")
    if not isinstance(hooks, dict):
        return made
    try:  # its own object, not the manifest: the plugin's name and description are not the hook's
        record = hook_record({"hooks": hooks}, rel, hooks_name, files)
    except RecordError as exc:
        if not made:
            raise
        made[0].warnings.append(f"inline hooks ignored: {exc}")  # reported against this file
        return made
    taken = {r.rel for r in made}
    # a server may be named "hooks" itself: the hook then takes the next free id
    record.rel = next(i for n in range(len(made) + 1)
                      if (i := f"{rel}#hooks" + (f"-{n}" if n else "")) not in taken)
    made.append(record)
    return made
