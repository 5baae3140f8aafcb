"""The fields of a command hook Claude Code reads, and what each may hold.

From Claude Code's hooks reference: every hook may have ``if`` (a permission rule),
``timeout`` (seconds, positive), ``statusMessage`` (shown while it runs) and ``once``
(honoured only in a skill's frontmatter: in ``settings.json`` the hook runs every time);
a command hook has ``command`` and may have ``async`` (run in the background),
``asyncRewake`` (in the background, waking the model when it exits 2), ``shell``
(``bash``, the default, or ``powershell``) and ``args`` (exec form: ``command`` is spawned
with these arguments, no shell).

The installer rewrites a command's script paths into POSIX shell text
(``"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py``): a hook that runs without that shell
(`posix_shell` false) installs only as written (`render_hook`).

The other types are installed as written, having nothing to copy or rewrite: ``prompt``
and ``agent`` (``prompt``, optional ``model``: a model judges the event), ``http``
(``url``, optional ``headers`` and ``allowedEnvVars``: the event is POSTed there) and
``mcp_tool`` (``server`` and ``tool``, optional ``input``: a tool of a configured MCP
server is called).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.ingest.hook_commands import command_line

__all__ = [
    "HOOK_KEYS",
    "SHELLS",
    "TYPE_KEYS",
    "field_problem",
    "hook_problem",
    "posix_shell",
    "shown_command",
    "shown_run",
    "what_it_runs",
]

_COMMON = frozenset({"type", "timeout", "if", "statusMessage", "once"})
#: Each hook type's keys (the common ones included), and what it cannot do without.
TYPE_KEYS: dict[str, frozenset[str]] = {
    "command": _COMMON | {"command", "async", "asyncRewake", "shell", "args"},
    "prompt": _COMMON | {"prompt", "model"},
    "agent": _COMMON | {"prompt", "model"},
    "http": _COMMON | {"url", "headers", "allowedEnvVars"},
    "mcp_tool": _COMMON | {"server", "tool", "input"},
}
_REQUIRED = {"command": ("command",), "prompt": ("prompt",), "agent": ("prompt",), "http": ("url",),
             "mcp_tool": ("server", "tool")}
HOOK_KEYS = TYPE_KEYS["command"]
SHELLS = ("bash", "powershell")
_FLAGS = ("async", "asyncRewake", "once")
_TEXTS = ("if", "statusMessage", "model", "prompt", "url", "server", "tool")


def hook_problem(hook: Any) -> str | None:
    """Why Claude Code would not run ``hook`` as written (None when it would): an unknown
    type, a field its type does not have, a required one missing, a value of another
    type. Said as the end of "a <Event> hook ..."."""
    kind = hook.get("type") if isinstance(hook, Mapping) else None
    if not isinstance(hook, Mapping) or kind not in TYPE_KEYS:
        shown = kind if isinstance(hook, Mapping) else type(hook).__name__
        return f"is of type {shown!r}, which Claude Code does not run (its types: {', '.join(TYPE_KEYS)})"
    if extra := sorted(set(hook) - TYPE_KEYS[kind]):
        return f"has fields Claude Code does not read on a {kind} hook: {extra}"
    if lacking := [k for k in _REQUIRED[kind] if not isinstance(hook.get(k), str) or not hook[k].strip()]:
        return f"has no {lacking[0]} (text) of its own, which a {kind} hook needs"
    if why := field_problem(hook):
        return f"has a bad field: {why}"
    return None


def field_problem(hook: Mapping[str, Any]) -> str | None:
    """What is wrong with a command hook's optional fields, as Claude Code reads them
    (None when nothing is): a timeout is a positive number of seconds, ``async``,
    ``asyncRewake`` and ``once`` true or false, ``shell`` one of `SHELLS`, ``args`` a list
    of strings, the others text."""
    timeout = hook.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf")
    ):
        return f"timeout must be a positive number of seconds, got {timeout!r:.40}"
    for flag in _FLAGS:
        if flag in hook and not isinstance(hook[flag], bool):
            return f"{flag} must be true or false, got {hook[flag]!r:.40}"
    if "shell" in hook and hook["shell"] not in SHELLS:
        return f"shell must be 'bash' or 'powershell', got {hook['shell']!r:.40}"
    args = hook.get("args")
    if "args" in hook and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        return f"args must be a list of strings, got {args!r:.40}"
    bad = [k for k in _TEXTS if k in hook and not isinstance(hook[k], str)]
    if bad:
        return f"{bad[0]} must be text"
    headers = hook.get("headers", {})
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        return "headers must be an object of text values"
    names = hook.get("allowedEnvVars", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return "allowedEnvVars must be a list of names"
    if not isinstance(hook.get("input", {}), Mapping):
        return "input must be an object"
    return None


def what_it_runs(hook: Mapping[str, Any]) -> str:
    """What tells ``hook`` from another of its group: a command hook's command line
    (`command_line`), a prompt or agent hook's prompt, an http hook's URL, an MCP tool
    hook's ``server/tool``; '' when it has none of them."""
    if (line := command_line(hook)) is not None:
        return line
    for key in ("prompt", "url"):
        if isinstance(hook.get(key), str):
            return str(hook[key])
    if isinstance(hook.get("server"), str) and isinstance(hook.get("tool"), str):
        return f"{hook['server']}/{hook['tool']}"
    return ""


def shown_run(hook: Mapping[str, Any]) -> str:
    """`what_it_runs` as a plan's or a report's line shows it, its secrets redacted as the
    index redacts a hook's (a command by `shown_command`, a prompt or a URL by the prose
    rules). Install and uninstall read hooks from the source and from ``settings.json``,
    where a command holds what its author or the user wrote in (``GH_TOKEN=ghp_...``):
    printed, it would reach a terminal's scrollback, a CI log or, through the MCP tools,
    an agent's context."""
    text = what_it_runs(hook)
    if not text or command_line(hook) is not None:
        return shown_command(text) if text else text
    # Imported here: a plan without hooks does not pay for the secret rules (tests/test_cold_start.py).
    from skill_retriever.ingest.prose_secrets import redact_prose

    return redact_prose(text)


def shown_command(command: str) -> str:
    """A hook's command line with its secrets redacted (`ingest.secrets.redact_command`)."""
    from skill_retriever.ingest.secrets import redact_command  # imported here, as in `shown_run`

    return redact_command(command)


def posix_shell(hook: Mapping[str, Any]) -> bool:
    """Whether ``hook``'s command is run by a POSIX shell: not in exec form (``args``),
    not by PowerShell."""
    return "args" not in hook and hook.get("shell", "bash") == "bash"
