"""Merging into the shared JSON files Claude Code reads, and taking entries back out.

- ``.claude/settings.json``: hooks under ``"hooks"``, in Claude Code's schema
  ``{"hooks": {"<Event>": [{"matcher": "<pattern>", "hooks": [{"type": "command",
  "command": "...", "timeout": N}]}]}}``. A hook is merged into the group of its event
  with the same matcher (a group without a matcher matches a hook without one), appended
  unless an equal hook is already there: installing twice changes nothing. Every other
  key, group and hook of the file is kept as it was.
- ``.mcp.json``: servers under ``"mcpServers"`` by name; other servers are kept.

Removing takes out only an entry equal to the one recorded at install time: one a user
changed since is theirs and stays.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import HookEntry, UnsafePathError
from skill_retriever.fsutil import write_atomic

__all__ = [
    "MCP_ENTRY_KEYS",
    "check_settings",
    "has_hook",
    "merge_hooks",
    "read_json_object",
    "remove_hooks",
    "write_json",
]

#: The keys of an ``mcpServers`` entry Claude Code reads: a local server's ``command``,
#: ``args`` and ``env``, a remote one's ``type``, ``url`` and ``headers`` (``type`` may
#: also say ``stdio``). Catalogue metadata (description, tags, dates) is left out.
MCP_ENTRY_KEYS = ("type", "command", "args", "env", "url", "headers")


def read_json_object(root: Path, rel: str, key: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object at ``root/rel`` (``{}`` when missing), or None and why it cannot be
    merged into (unreadable, not an object, ``key`` not an object, an unsafe path)."""
    try:
        path = safe_destination(root, rel)
    except UnsafePathError as exc:
        return None, str(exc)
    if not path.exists():
        return {}, ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"the existing {rel} is unreadable ({exc}); fix or move it first"
    if not isinstance(data, dict):  # a list, a string: Claude Code reads neither
        shape = {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
        what = shape.get(type(data), "a number")
        return None, f"the existing {rel} is {what}, not a JSON object; fix or move it first"
    if not isinstance(data.get(key, {}), dict):
        return None, f"the existing {rel} has no {key!r} object; fix or move it first"
    return data, ""


def write_json(root: Path, rel: str, data: Mapping[str, Any], mode: int | None = None) -> None:
    """Write ``data`` to ``root/rel`` atomically (2-space indent, a final newline), with
    ``mode``, or else the permissions of the file it replaces (0644 for a new one)."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    dest = safe_destination(root, rel)
    if mode is None:
        mode = dest.stat().st_mode & 0o777 if dest.is_file() else 0o644
    write_atomic(dest, text.encode("utf-8"), mode)


def _groups(settings: Mapping[str, Any], event: str) -> list[Any]:
    hooks = settings.get("hooks")
    if not isinstance(hooks, Mapping):
        return []
    groups = hooks.get(event)
    return groups if isinstance(groups, list) else []


def _same_group(group: Any, matcher: str | None) -> bool:
    """Claude Code reads a group without ``matcher`` as one whose matcher is ``""``."""
    if not isinstance(group, Mapping):
        return False
    theirs = group.get("matcher")
    return (theirs if theirs is not None else "") == (matcher if matcher is not None else "")


def has_hook(settings: Mapping[str, Any], entry: HookEntry) -> bool:
    """Whether an equal hook sits in the group of its event and matcher."""
    for group in _groups(settings, entry.event):
        hooks = group.get("hooks") if _same_group(group, entry.matcher) else None
        if isinstance(hooks, list) and any(h == entry.hook for h in hooks):
            return True
    return False


def merge_hooks(settings: Mapping[str, Any], entries: Iterable[HookEntry]) -> dict[str, Any]:
    """``settings`` with ``entries`` merged in (see the module docstring); the input is
    not changed.

    Raises:
        TypeError: ``settings["hooks"]`` or an event's value has another shape (the
            caller checked the file with `check_settings` first).
    """
    out = copy.deepcopy(dict(settings))
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TypeError("settings 'hooks' is not an object")
    for entry in entries:
        if has_hook(out, entry):
            continue
        groups = hooks.setdefault(entry.event, [])
        if not isinstance(groups, list):
            raise TypeError(f"settings hooks.{entry.event} is not a list")
        group = next((g for g in groups if _same_group(g, entry.matcher)), None)
        if group is None or not isinstance(group.get("hooks"), list):
            group = {"matcher": entry.matcher} if entry.matcher is not None else {}
            group["hooks"] = []
            groups.append(group)
        group["hooks"].append(copy.deepcopy(dict(entry.hook)))
    return out


def check_settings(settings: Mapping[str, Any]) -> str:
    """Why ``settings`` cannot take hooks ('' when it can)."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, Mapping):
        return "its 'hooks' is not an object"
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return f"its hooks.{event} is not a list"
    return ""


def remove_hooks(
    settings: Mapping[str, Any], entries: Iterable[HookEntry]
) -> tuple[dict[str, Any], list[HookEntry], list[HookEntry]]:
    """``settings`` without ``entries``. A group this leaves empty goes, and so does an
    event this leaves without groups; the ``"hooks"`` object itself is kept.

    Returns:
        The new settings, the entries removed, the entries not found unchanged.
    """
    out = copy.deepcopy(dict(settings))
    removed: list[HookEntry] = []
    missing: list[HookEntry] = []
    for entry in entries:
        groups = _groups(out, entry.event)
        group = next(
            (
                g
                for g in groups
                if _same_group(g, entry.matcher)
                and isinstance(g.get("hooks"), list)
                and entry.hook in g["hooks"]
            ),
            None,
        )
        if group is None:
            missing.append(entry)
            continue
        group["hooks"].remove(entry.hook)
        removed.append(entry)
        if not group["hooks"]:
            groups.remove(group)
            if not groups:
                del out["hooks"][entry.event]
    return out, removed, missing
