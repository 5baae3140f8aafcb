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

from collections.abc import Iterable

__all__ = ["HOOK_EVENTS", "event_problem", "events_problem"]

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
    return events_problem([event])


def events_problem(events: Iterable[str]) -> str | None:
    """Why a hook under ``events`` cannot be written, naming every event Claude Code does
    not know (None when it knows each): fixing one only to be refused over the next, in a
    file that has two, is a second round trip through the index for nothing."""
    unknown = list(dict.fromkeys(e for e in events if e not in HOOK_EVENTS))
    if not unknown:
        return None
    named = [f"{e!r:.60}" for e in unknown]
    hints = [f"{e.strip()!r:.60} -> {_BY_FOLDED[e.strip().casefold()]}" for e in unknown
             if e.strip().casefold() in _BY_FOLDED]
    if len(unknown) == 1:
        hint = f" (event names are case-sensitive: {_BY_FOLDED[unknown[0].strip().casefold()]})" if hints else ""
        what = f"its event {named[0]} is not a hook event Claude Code knows{hint}"
        fix, it = "fix the event name", "that event"
    else:
        hint = f" (event names are case-sensitive: {', '.join(hints)})" if hints else ""
        what = f"its events {', '.join(named[:-1])} and {named[-1]} are not hook events Claude Code knows{hint}"
        fix, it = "fix each event name", "those events"
    return (
        f"{what}, and Claude Code skips a settings.json holding an unknown event whole, every "
        f"hook, permission and env setting in it; {fix} in the hook's file and index it again, "
        f"or add the hook to settings.json by hand if your Claude Code version documents {it}"
    )
