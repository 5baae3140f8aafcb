"""The hook events Claude Code knows, and what is wrong with an event name it does not.

Claude Code checks ``settings.json`` against a strict schema whose ``hooks`` object is
keyed by event: one key it does not know (``PreToolCall``, ``postToolUse``) is "Invalid key
in record", and a file with an error is skipped whole ("Files with errors are skipped
entirely, not just the invalid settings": every hook, permission and env setting in it,
silently in ``claude -p``; anthropics/claude-code#75081). So an install writes a hook only
under an event of this list, the events of the hooks reference
(https://code.claude.com/docs/en/hooks) and of the settings reference.
"""

from __future__ import annotations

__all__ = ["HOOK_EVENTS", "event_problem"]

HOOK_EVENTS = frozenset({
    "SessionStart", "Setup", "InstructionsLoaded", "UserPromptSubmit", "UserPromptExpansion",
    "PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse",
    "PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart", "SubagentStop",
    "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle", "ConfigChange",
    "CwdChanged", "FileChanged", "DirectoryAdded", "WorktreeCreate", "WorktreeRemove",
    "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "PreModelSwitch",
    "PostModelSwitch", "MessageDisplay", "SessionEnd",
})
_BY_FOLDED = {event.casefold(): event for event in HOOK_EVENTS}


def event_problem(event: str) -> str | None:
    """Why ``event`` cannot key a hook in ``settings.json`` (None when Claude Code knows it)."""
    if event in HOOK_EVENTS:
        return None
    meant = _BY_FOLDED.get(event.strip().casefold())
    hint = f" (event names are case-sensitive: {meant})" if meant else ""
    return (
        f"its event {event!r:.60} is not a hook event Claude Code knows{hint}, and Claude Code "
        "skips a settings.json holding an unknown event whole, every hook, permission and env "
        "setting in it; fix the event name in the hook's file and index it again, or add the "
        "hook to settings.json by hand if your Claude Code version documents that event"
    )
