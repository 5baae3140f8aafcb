"""A path in a hook command read as the shell reads it: quotes and escapes kept together.

A hook's script may have a space in its name, written so the shell keeps it one word:
``python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"``,
``bash '${CLAUDE_PLUGIN_ROOT}'...`` or ``scan\\ staged.py``. A pattern of path characters
alone stops at the space and reads ``.claude/hooks/scan``: the indexer then found no
script to ship and the installer asked for one that does not exist (or, forced, wrote a
hook whose script was never copied). `shell_path` reads on from where such a pattern
found a path's start, through double or single quotes and backslash escapes, to where the
shell's word ends; an unquoted blank still ends it, as the shell splits the word there.
Used by the hook reader (`hook_configs`) and by the installer (`components.install`).
"""

from __future__ import annotations

import re

__all__ = ["escaped", "quote_at", "shell_path"]

#: What an unquoted path is made of by default (a ``$`` or a glob would make it unknowable).
PATH_CHARS = r"[\w.+@/-]"
#: What a backslash escapes inside double quotes (elsewhere there it is a character).
_DOUBLE_ESCAPES = '"\\$`\n'


def quote_at(command: str, index: int) -> str:
    """The quote ``command[index]`` stands inside: ``'``, ``"``, or '' for none."""
    quote = ""
    i = 0
    while i < index:
        c = command[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\" and (not quote or command[i + 1 : i + 2] in tuple(_DOUBLE_ESCAPES)):
            i += 1  # the next character is taken as it is
        elif quote == '"':
            quote = "" if c == '"' else quote
        elif c in "'\"":
            quote = c
        i += 1
    return quote


def shell_path(command: str, start: int, plain: str = PATH_CHARS) -> tuple[str, int]:
    """The path that starts at ``command[start]``, quotes and escapes taken off, and the
    index its written text ends at (past a closing quote it crossed).

    Args:
        plain: The characters an unquoted part may hold (a regular expression's class);
            any other unquoted character, a blank included, ends the path. Inside quotes
            any character but the closing quote belongs to it, save that a ``$`` or a
            backquote in double quotes ends it (an expansion: what follows is unknown).
    """
    is_plain = re.compile(plain).fullmatch
    quote = quote_at(command, start)
    out: list[str] = []
    i, end = start, start
    while i < len(command):
        c = command[i]
        if quote == "'":
            if c == "'":
                quote = ""
            else:
                out.append(c)
        elif quote == '"':
            if c == '"':
                quote = ""
            elif c == "\\" and command[i + 1 : i + 2] and command[i + 1] in _DOUBLE_ESCAPES:
                i += 1
                out.append(command[i])
            elif c in "$`":
                break
            else:
                out.append(c)
        elif c in "'\"":
            quote = c
        elif c == "\\" and command[i + 1 : i + 2] not in ("", "\n"):
            i += 1
            out.append(command[i])
        elif is_plain(c):
            out.append(c)
        else:
            break
        i += 1
        end = i
    return "".join(out), end


def escaped(path: str, quote: str) -> str:
    """``path`` written to stand, whole, where ``quote`` is open ('' for none): in double
    quotes with ``"``, ``\\``, ``$`` and backquotes escaped; in single quotes with a ``'``
    closed, escaped and opened again; unquoted, each character the shell would read
    otherwise (a blank) after a backslash."""
    if quote == '"':
        return re.sub(r'(["\\$`])', r"\\\1", path)
    if quote == "'":
        return path.replace("'", "'\\''")
    return re.sub(r"([^\w.+@/,:=%^-])", r"\\\1", path)
