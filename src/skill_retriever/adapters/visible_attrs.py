"""An item's ``attrs`` as one caller may see them (the MCP tools' ``detail="full"``).

A Markdown component keeps its frontmatter as written (``attrs["frontmatter"]``) and the
names of its relations that resolved nowhere in its own source (``unresolved_requires``,
`item_attrs.UNRESOLVED_ATTR`). A public skill's ``requires: [vault-admin]`` or
``conflicts: [{name: vault-admin, reason: ...}]`` may name an item the caller may not see:
copied as they are, they named that item (and said the conflict's reason) where the
structured fields (``requires``, ``conflicts``) leave it out, and the README promises a
private item is never named.

Each entry of a list that names items (`_NAMING_KEYS`, and ``mcp__server__tool`` entries
of the tool lists) is kept only when it names an item the caller sees, judged by the
visible items alone: a hidden item and one that does not exist then read alike
(dropping only the hidden names would tell them apart). An entry that cannot be read as
a name is left out with them. ``access`` (principals the caller may not hold, left out
of every answer) and ``unresolved_requires`` (bookkeeping that holds ids) are left out
too. A caller who sees everything, or any caller of an index with no private item, gets
the attributes unchanged (a package name in ``dependencies`` stays).

Whoever the caller, a plugin's ``plugin_json`` shows its inline ``mcpServers`` and
``hooks`` by their names only (`skill_configs.plugin_meta`): an index built before
``45b8d4e`` kept them as written, commands, URLs and environment (API keys) included.
Of those servers, one with ``access`` of its own is named only to a caller who sees it;
so is a file of a skill's folder that is an item of its own (`folder_files`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.components.folder_files import hidden_folder_items
from skill_retriever.components.view import CallerView
from skill_retriever.ingest.frontmatter_names import (
    CONFLICTS_KEY,
    DEPENDENCIES_KEY,
    REQUIRES_KEYS,
    TOOL_KEYS,
)
from skill_retriever.ingest.item_attrs import UNRESOLVED_ATTR
from skill_retriever.ingest.mentions import name_key
from skill_retriever.ingest.skill_configs import plugin_meta
from skill_retriever.ingest.tool_servers import server_named

__all__ = ["visible_attrs"]

#: Frontmatter keys whose entries name items (`skill_records` reads them); of its tool
#: lists, ``mcp_servers`` names servers, the others items only as ``mcp__<server>__<tool>``
#: or ``<server>/*`` (`tool_servers.server_named`).
_NAMING_KEYS = (*REQUIRES_KEYS, DEPENDENCIES_KEY, CONFLICTS_KEY, "mcp_servers")
_TOOL_KEYS = tuple(k for k in TOOL_KEYS if k not in _NAMING_KEYS)
_VIEWS_KEPT = 16  # as `CallerView`: distinct principal sets a snapshot keeps a name set for


def visible_attrs(view: CallerView, attrs: Mapping[str, Any], item_id: str = "") -> dict[str, Any]:
    """``attrs`` of the item ``item_id`` with every name of an item ``view`` does not show
    left out (see the module docstring), a skill's folder files among them
    (`folder_files`)."""
    if isinstance(manifest := attrs.get("plugin_json"), dict):
        attrs = {**attrs, "plugin_json": plugin_meta(manifest)}
    if view.filters.is_trivial or not view.snapshot.has_access_labels:  # nothing is hidden from them
        return dict(attrs)
    names = _visible_names(view)
    out = {k: v for k, v in attrs.items() if k not in (UNRESOLVED_ATTR, "access")}
    if isinstance(manifest := out.get("plugin_json"), dict) and isinstance(manifest.get("mcpServers"), list):
        # its inline servers by name: one with access of its own is an item the caller may not see
        out["plugin_json"] = {**manifest, "mcpServers": _kept(manifest["mcpServers"], lambda n: name_key(n) in names)}
    if isinstance(files := out.get("files"), list) and item_id:  # a private template of a public skill
        hidden = hidden_folder_items(view, item_id, [f for f in files if isinstance(f, str)])
        out["files"] = [f for f in files if f not in hidden]
    if isinstance(plugin := out.get("plugin"), str) and name_key(plugin) not in names:
        del out["plugin"]
    front = out.get("frontmatter")
    if isinstance(front, Mapping):
        shown = {k: v for k, v in front.items() if k != "access"}
        for key in _NAMING_KEYS:
            if key in shown:
                shown[key] = _kept(shown[key], lambda n: name_key(n) in names)
        for key in _TOOL_KEYS:
            if key in shown:
                shown[key] = _kept(shown[key], lambda n: _tool_shown(n, names))
        out["frontmatter"] = shown
    return out


def _visible_names(view: CallerView) -> frozenset[str]:
    """The name keys (`mentions.name_key`, as relations are resolved) of the visible items."""

    def build() -> frozenset[str]:
        return frozenset(name_key(n.name) for n in view.nodes.values())

    return view.snapshot.memo("caller-name-keys", view.principals, build, _VIEWS_KEPT)


def _tool_shown(entry: str, names: frozenset[str]) -> bool:
    """A tool list's entry is shown unless it names a server not shown (``mcp__<server>__...``,
    ``<server>/*``: `tool_servers.server_named`)."""
    server = server_named(entry)
    if server is None:
        return True  # Bash, Read: tool names, no item's name
    return name_key(server) in names


def _kept(value: Any, shown: Any) -> Any:
    """``value`` (a list, a comma-separated string, a mapping or one name) with the entries
    whose name ``shown`` refuses, or that hold no readable name, left out."""
    if isinstance(value, str):
        return ", ".join(p.strip() for p in value.split(",") if p.strip() and shown(p.strip()))
    if isinstance(value, Mapping):  # {name: reason}
        return {k: v for k, v in value.items() if isinstance(k, str) and shown(k)}
    if isinstance(value, list):
        return [item for item in value if (n := _name_in(item)) is not None and shown(n)]
    name = _name_in(value)
    return value if name is not None and shown(name) else None


def _name_in(entry: Any) -> str | None:
    """The name an entry of a relation list gives, as `skill_records` reads it: text or a
    number, ``{name: ..., reason: ...}``, ``{name: reason}``; None for anything else."""
    if isinstance(entry, str):
        return entry.strip()
    if isinstance(entry, (int, float)) and not isinstance(entry, bool):
        return str(entry)
    if isinstance(entry, Mapping):
        if isinstance(entry.get("name"), str):
            return str(entry["name"]).strip()
        if len(entry) == 1:
            (key,) = entry
            return key.strip() if isinstance(key, str) else None
    return None
