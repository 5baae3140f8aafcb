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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["HOOK_KEYS", "SHELLS", "field_problem", "posix_shell"]

HOOK_KEYS = frozenset(
    {"type", "command", "timeout", "if", "async", "asyncRewake", "statusMessage", "once", "shell", "args"}
)
SHELLS = ("bash", "powershell")
_FLAGS = ("async", "asyncRewake", "once")
_TEXTS = ("if", "statusMessage")


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
    return f"{bad[0]} must be text" if bad else None


def posix_shell(hook: Mapping[str, Any]) -> bool:
    """Whether ``hook``'s command is run by a POSIX shell: not in exec form (``args``),
    not by PowerShell."""
    return "args" not in hook and hook.get("shell", "bash") == "bash"
