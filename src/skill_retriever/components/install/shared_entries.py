"""What a component being uninstalled shares with one that stays.

Two components can stand behind one thing in a root: a file written once for both (copies
of one component that plugins re-host), a ``settings.json`` hook both ship, an
``.mcp.json`` server both configure alike. Each records it (`apply`); uninstalling one
leaves it in place for the other, which takes over what ``force`` replaced there, so that
uninstalling that one puts the user's version back.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.components.install.hook_keys import hook_path, record_keys
from skill_retriever.components.install.inventory import RecordEntry
from skill_retriever.components.install.layout import MCP_FILE

__all__ = ["leave_shared"]


def leave_shared(
    entry: RecordEntry, staying: list[RecordEntry], shared: dict[str, str], runs: dict[str, dict[str, Any]]
) -> None:
    """Hand what ``entry`` shares with a component in ``staying`` (one file written once for
    both, one hook or server both added) to that component: it stays in place, and what
    ``force`` replaced there is put back when that component goes. ``runs``: each hook
    left's key -> the hook, so its line says what it runs (`UninstallReport.runs`)."""
    for rel in list(entry.files):
        heir = next((s for s in staying if rel in s.files), None)
        if heir is not None:
            del entry.files[rel]
            entry.kept.pop(rel, None)
            if rel in entry.replaced_files:
                heir.replaced_files.setdefault(rel, entry.replaced_files.pop(rel))
            shared[rel] = heir.name
    for hook in list(entry.hooks):
        heir = next((s for s in staying if hook in s.hooks), None)
        if heir is not None:
            entry.hooks.remove(hook)
            for key in record_keys(hook):  # the key a record of before the rule holds too
                entry.kept.pop(key, None)
            key = hook_path(hook, [*entry.hooks, *heir.hooks])
            shared[key], runs[key] = heir.name, dict(hook.hook)
    for name in list(entry.mcp):
        heir = next((s for s in staying if name in s.mcp), None)
        if heir is not None:
            del entry.mcp[name]
            entry.kept.pop(f"{MCP_FILE}#{name}", None)
            if name in entry.replaced_servers:
                heir.replaced_servers.setdefault(name, entry.replaced_servers.pop(name))
            shared[f"{MCP_FILE}#{name}"] = heir.name
