"""A hook being installed that the project's ``.claude/settings.local.json`` holds already.

Claude Code reads the project's ``settings.local.json`` (the user's own, not shared) beside
its ``settings.json`` and merges their hooks. An install writes a hook into
``settings.json`` only; one the user has in the local file too (same event, matcher and
command) is still written there, since ``settings.json`` is what the project shares (left
out, the hook would be no one's but this user's, and gone from the install the moment
they tidied their local file). It does not run twice: Claude Code runs a handler that
more than one settings file defines once (hooks reference, "Hook handler fields";
anthropics/claude-code#76297: settings.json + settings.local.json, one execution). The
plan says where the copy is, so the user can drop it from the local file; install never
edits that file. An uninstall that takes the hook out of ``settings.json`` says that the
copy stays, and runs (`still_local`). A user install has no such file (``~/.claude/settings.json`` is the only
user file), so none is read for one.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.claude_folder import CLAUDE_DIR
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.hook_fields import what_it_runs
from skill_retriever.components.install.plan_lines import hook_words
from skill_retriever.components.install.settings import check_settings, read_json_object

__all__ = ["LOCAL_SETTINGS_FILE", "in_local", "local_note", "read_local_hooks", "still_local"]

LOCAL_SETTINGS_FILE = f"{CLAUDE_DIR}/settings.local.json"


def read_local_hooks(root: Path, scope: str) -> Mapping[str, Any]:
    """The project's ``settings.local.json`` as read (``{}`` for a user install, or when it
    is missing or cannot be read: an unreadable one is Claude Code's to report, and
    install writes nothing to it, so no install is refused over it)."""
    if scope != "project":
        return {}
    data, _ = read_json_object(root, LOCAL_SETTINGS_FILE, "hooks")
    return data if data is not None and not check_settings(data) else {}


def in_local(local: Mapping[str, Any], entry: HookEntry) -> bool:
    """Whether ``local`` holds a hook of ``entry``'s event and matcher (none: ``""``, as
    Claude Code reads it) that runs the same command (a prompt hook: the same prompt, and
    so on: `what_it_runs`)."""
    groups = (local.get("hooks") or {}).get(entry.event)
    mine, kind, command = entry.matcher or "", entry.hook.get("type"), what_it_runs(entry.hook)
    return any(
        isinstance(h, Mapping) and h.get("type") == kind and what_it_runs(h) == command
        for g in (groups if isinstance(groups, list) else ())
        if isinstance(g, Mapping) and (g.get("matcher") or "") == mine and isinstance(g.get("hooks"), list)
        for h in g["hooks"]
    )


def local_note(entry: HookEntry) -> str:
    """What a plan says of a hook that ``settings.local.json`` holds too."""
    return (
        f"the same hook is in {LOCAL_SETTINGS_FILE} already; Claude Code runs it once, and "
        f"{CLAUDE_DIR}/settings.json is the file the project shares, so it is added there too: "
        f"remove it from {LOCAL_SETTINGS_FILE} by hand if you want one copy (install never edits that file)"
    )


def still_local(root: Path, removed: list[HookEntry]) -> list[str]:
    """A note for each hook of ``removed`` (taken out of ``root``'s ``settings.json``) that
    the project's ``settings.local.json`` holds too: it still runs from there."""
    local = read_local_hooks(root, "project")
    return [
        f"{hook_words(h)} stays in {LOCAL_SETTINGS_FILE}, where you have it too, and still runs "
        "from there; remove it there by hand if you meant it gone (uninstall never edits that file)"
        for h in removed
        if in_local(local, h)
    ]
