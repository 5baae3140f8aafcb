"""A hook or MCP server a plugin's marketplace entry holds inline: its entry, its plugin's folder.

Such an item (`ingest.inline_members`) records the entry's name in
``attrs["marketplace_entry"]``, and its source is the marketplace.json, which holds every
plugin's entry. It is installed as the author wrote it in that entry, as a plugin.json's
inline hook or server is from the plugin.json (`entry_of` narrows the parsed file to it),
and its commands' ``${CLAUDE_PLUGIN_ROOT}`` is the folder the entry's ``source`` names
(`entry_plugin_folder`), which need not hold a ``.claude-plugin/`` (with ``"strict":
false`` the entry is the plugin's whole definition:
https://code.claude.com/docs/en/plugin-marketplaces#strict-mode).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.components.install.paths import read_source, relative_parts
from skill_retriever.ingest.plugin_manifests import entry_folder
from skill_retriever.model import Node

__all__ = ["entry_of", "entry_plugin_folder"]


def entry_of(node: Node, data: Any) -> Any:
    """``data``, the parsed source file of ``node``, narrowed to the marketplace entry
    that holds ``node`` inline; ``data`` itself for any other node, and None when the
    file no longer holds that entry."""
    name = node.attrs.get("marketplace_entry")
    if not isinstance(name, str):
        return data
    plugins = data.get("plugins") if isinstance(data, dict) else None
    for entry in plugins if isinstance(plugins, list) else []:
        if isinstance(entry, dict) and str(entry.get("name", "")).strip() == name:
            return entry
    return None


def entry_plugin_folder(node: Node, root: Path | None) -> Path | None:
    """The folder of the plugin whose marketplace entry holds ``node`` (below ``root``,
    the source root); None for any other node, or when the entry or its folder cannot
    be told from the file any more.

    Raises:
        UnsafePathError: The source resolves outside the recorded source root.
    """
    path = node.attrs.get("path")
    if root is None or not isinstance(node.attrs.get("marketplace_entry"), str) or not isinstance(path, str):
        return None
    found = read_source(node, (".json",))
    if found is None:
        return None
    try:
        data = json.loads(found.data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return None
    entry = entry_of(node, data)
    if not isinstance(entry, dict) or not isinstance(data, dict):
        return None
    folder = entry_folder(data, path.split("#", 1)[0], entry)
    if folder is None:
        return None
    return root.joinpath(*relative_parts(folder, "a marketplace entry's source")) if folder else root
