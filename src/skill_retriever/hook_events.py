"""The hook events Claude Code knows, and what is wrong with an event name it does not.

Claude Code checks ``settings.json`` against a strict schema whose ``hooks`` object is
keyed by event: one key it does not know (``PreToolCall``, ``postToolUse``) is "Invalid key
in record", and a file with an error is skipped whole ("Files with errors are skipped
entirely, not just the invalid settings": every hook, permission and env setting in it,
silently in ``claude -p``; anthropics/claude-code#75081). So an install writes a hook only
under an event of this list, the events of the hooks reference
(https://code.claude.com/docs/en/hooks) and of the settings reference.

Not every event runs every hook type (the hooks reference, "Prompt-based hooks"):
``SessionStart`` and ``Setup`` run command and mcp_tool hooks only; the events of
`_NO_MODEL` command, http and mcp_tool hooks, no prompt or agent one; the others all five.
A hook of a type its event does not run is one that never runs: `type_problem` says so,
and an install skips it rather than write it as if it would.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["HOOK_EVENTS", "event_problem", "events_problem", "matcher_note", "type_problem"]

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
_NO_SHELL_START = ("command", "mcp_tool")
_NO_MODEL_TYPES = ("command", "http", "mcp_tool")
#: Events whose hooks may be only of the types named (the others run every type).
_TYPES: dict[str, tuple[str, ...]] = {
    "SessionStart": _NO_SHELL_START,
    "Setup": _NO_SHELL_START,
    **dict.fromkeys(
        ("ConfigChange", "CwdChanged", "DirectoryAdded", "Elicitation", "ElicitationResult",
         "FileChanged", "InstructionsLoaded", "MessageDisplay", "Notification", "PostCompact",
         "PostModelSwitch", "PreCompact", "PreModelSwitch", "SessionEnd", "StopFailure",
         "SubagentStart", "WorktreeCreate", "WorktreeRemove"),
        _NO_MODEL_TYPES,
    ),
}


def type_problem(event: str, kind: str) -> str | None:
    """Why a hook of type ``kind`` under ``event`` never runs (None when it does), said
    as the end of "a <event> hook ..."."""
    allowed = _TYPES.get(event)
    if allowed is None or kind in allowed:
        return None
    names = " and ".join(allowed) if len(allowed) == 2 else f"{', '.join(allowed[:-1])} and {allowed[-1]}"
    return f"of type {kind!r} never runs: {event} runs only {names} hooks (Claude Code's hooks reference)"


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


#: Events that "don't support matchers and always fire on every occurrence": a matcher there
#: is "silently ignored" (https://code.claude.com/docs/en/hooks#matcher-patterns).
_NO_MATCHER = frozenset({
    "UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated", "TaskCompleted",
    "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged",
})


def matcher_note(event: str, matcher: object) -> str | None:
    """What to say of ``matcher`` on ``event`` when Claude Code ignores it (None when it
    does not, or the matcher matches everything anyway: absent, '' or '*')."""
    if event not in _NO_MATCHER or matcher in (None, "", "*"):
        return None
    return (f"its matcher {matcher!r:.60} is ignored on {event}, which has no matcher in Claude Code: "
            f"the hook runs on every {event}")
