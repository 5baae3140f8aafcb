"""The scripts a hook command runs by a bare relative path (``bash linked.sh``, ``./x.py``),
read from the shell words that run something, not from any text that looks like a file.

A word counts only where the shell runs it: as a command (the first word of a command,
after environment assignments and words such as ``if``, ``then``, ``exec``), or as the
script an interpreter runs (``node x.js``, ``python3 tools/x.py``, ``bash a.sh``, the
command string of ``bash -c '...'`` read the same way). Words inside quotes given to
``echo`` or ``printf`` ("Moment.js usage detected"), patterns (``find -name "*.js"``) and
file names after a redirection are text, not scripts: a note that the project must hold
``Moment.js`` was false.
"""

from __future__ import annotations

import re
import shlex

from skill_retriever.ingest.hook_commands import SCRIPT_SUFFIX_PATTERN

__all__ = ["bare_scripts"]

#: A relative path to a script, not the installed place (``.claude/hooks/...``, said apart).
#: A word is read with its quotes taken off, so a blank in it was quoted or escaped
#: (``"scan staged.py"``, ``scan\\ staged.py``): it is part of the one path.
_SCRIPT_RE = re.compile(rf"(?:\./)?((?!\.claude/)[\w.+ -]+(?:/[\w.+ -]+)*\.(?:{SCRIPT_SUFFIX_PATTERN}))")
_ASSIGNMENT_RE = re.compile(r"[A-Za-z_]\w*=")
#: The characters of the shell's operators (a new line ends a command too).
_PUNCTUATION = ";&|()<>\n"
#: Words after which the next word is still in a command's place.
_PREFIXES = frozenset({
    "if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time", "exec",
    "nohup", "command", "builtin", "env", "sudo", "fi", "done", "esac",
})
#: Shells, whose ``-c`` argument is a command read as one.
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
#: Programs whose first argument that is not an option is the script they run.
_INTERPRETERS = frozenset({
    "node", "nodejs", "python", "python2", "python3", "bash", "sh", "zsh", "dash", "ksh",
    "ruby", "perl", "php", "tsx", "ts-node", "bun", "deno", "source", ".",
})
#: Options after which an interpreter runs the next word as code, not a file.
_INLINE = frozenset({"-c", "-e", "-m", "--eval", "--command", "-p", "--print"})
#: Subcommands that come before the script (``deno run x.ts``, ``bun run x.ts``).
_RUN = frozenset({"run"})


def _words(command: str) -> list[str] | None:
    """``command``'s shell words and operators, quotes taken off; None when it cannot be
    read (an unclosed quote)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return None


def _script(word: str) -> str | None:
    match = _SCRIPT_RE.fullmatch(word)
    return match.group(1) if match else None


def bare_scripts(command: str, depth: int = 0) -> set[str]:
    """The scripts ``command`` runs by a bare relative path (see the module docstring)."""
    words = _words(command)
    if words is None or depth > 3:  # a bash -c within a bash -c... is no hook's
        return set()
    found: set[str] = set()
    at_command = True
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if _operator(word):
            if set(word) & set("<>"):  # a redirection: the next word is a file
                i += 1
            else:  # ; && || | ( ) and new lines: a command comes next
                at_command = True
            continue
        if not at_command:
            continue
        if _ASSIGNMENT_RE.match(word) or word in _PREFIXES:
            continue
        at_command = False
        if (script := _script(word)) is not None:
            found.add(script)
        elif (program := word.rsplit("/", 1)[-1]) in _INTERPRETERS:
            i, more = _interpreted(program, words, i, depth)
            found |= more
    return found


def _operator(word: str) -> bool:
    return bool(word) and set(word) <= set(_PUNCTUATION)


def _interpreted(program: str, words: list[str], i: int, depth: int) -> tuple[int, set[str]]:
    """The script ``program`` runs, its arguments starting at ``words[i]``, and where to
    read on."""
    while i < len(words) and not _operator(words[i]):
        word = words[i]
        i += 1
        if word == "-c" and program in _SHELLS and i < len(words):  # bash -c '...': a command
            return i + 1, bare_scripts(words[i], depth + 1)
        if word in _INLINE:
            return i + 1, set()
        if word.startswith("-") or word in _RUN:
            continue
        script = _script(word)
        return i, {script} if script is not None else set()
    return i, set()
