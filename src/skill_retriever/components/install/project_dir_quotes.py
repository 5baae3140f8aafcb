"""Quote a hook command's bare ``$CLAUDE_PROJECT_DIR`` (used by `render_hook`).

Claude Code runs a command hook through the shell with ``$CLAUDE_PROJECT_DIR`` set to the
project's absolute path, and its hooks reference writes the variable quoted
(``"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-style.sh``): unquoted, a project folder with
a space (``~/My Projects/app``) splits into two words, and ``bash $CLAUDE_PROJECT_DIR/x.sh``
runs ``bash ~/My`` instead, which fails on every event. So a bare reference, outside any
quotes, becomes ``"$CLAUDE_PROJECT_DIR"``; one inside double quotes is already whole, and
one inside single quotes is no reference (the shell does not expand it there).
"""

from __future__ import annotations

import re

__all__ = ["quote_project_dir"]

_VAR_RE = re.compile(r"\$(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR(?![A-Za-z0-9_]))")


def _unquoted_starts(command: str) -> set[int]:
    """The offsets in ``command`` that stand outside single and double quotes (a
    backslash outside single quotes escapes the next character)."""
    out: set[int] = set()
    quote = ""
    escaped = False
    for i, ch in enumerate(command):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        else:
            out.add(i)
    return out


def quote_project_dir(command: str) -> str:
    """``command`` with each bare ``$CLAUDE_PROJECT_DIR`` (or ``${CLAUDE_PROJECT_DIR}``)
    outside quotes written ``"$CLAUDE_PROJECT_DIR"``; the rest as written."""
    found = [m for m in _VAR_RE.finditer(command)]
    if not found:
        return command
    outside = _unquoted_starts(command)
    pieces: list[str] = []
    last = 0
    for m in found:
        if m.start() in outside:
            pieces += [command[last : m.start()], '"$CLAUDE_PROJECT_DIR"']
            last = m.end()
    return "".join(pieces) + command[last:]
