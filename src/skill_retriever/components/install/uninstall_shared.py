"""The shared JSON files an uninstall reads before it changes anything (`read_shared`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skill_retriever.components.install.errors import InstallError
from skill_retriever.components.install.inventory import RecordEntry
from skill_retriever.components.install.layout import HOOK_SCRIPTS_DIR, MCP_FILE, SETTINGS_FILE
from skill_retriever.components.install.settings import read_json_object

__all__ = ["read_shared"]


def read_shared(root: Path, entries: list[RecordEntry]) -> dict[str, dict[str, Any]]:
    """The shared JSON files holding ``entries``' hooks or servers, by path, read once;
    refused before changing anything when one cannot be read: its files gone and its hook
    left, the hook would run a script no longer there (a PreToolUse hook failing that way
    blocks every tool call). ``settings.json`` is read for any file to take back, to see
    which a hook still runs; it must be readable when a file is a hook script."""
    shared: dict[str, dict[str, Any]] = {}
    scripts = any(rel.startswith(f"{HOOK_SCRIPTS_DIR}/") for e in entries for rel in e.files)
    for rel, key, needed, used in (
        (SETTINGS_FILE, "hooks", any(e.hooks for e in entries) or scripts, any(e.files for e in entries)),
        (MCP_FILE, "mcpServers", any(e.mcp for e in entries), False),
    ):
        if not (needed or used):
            continue
        data, why = read_json_object(root, rel, key)
        if data is not None:
            shared[rel] = data
        elif needed:
            raise InstallError(f"{why}, then run uninstall again; nothing removed")
    return shared
