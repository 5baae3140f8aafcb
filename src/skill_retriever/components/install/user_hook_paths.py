"""How an installed hook's commands name the scripts it ships (used by `render_hook`).

`point_at_copy` points a command that names a script by a path relative to where Claude
Code runs it at the installed copy, by a variable: ``"$CLAUDE_PROJECT_DIR"/.claude/...``
in a project, ``"$HOME"/.claude/...`` for the user. For a user install, `to_home` also
points a command naming a shipped script's place inside the project at the user's copy,
and skips a hook still running a script from the open project.

When Claude Code's user folder is ``$CLAUDE_CONFIG_DIR`` rather than ``~/.claude``, the
copies lie in that folder (``.claude/hooks/x.sh`` -> ``$CLAUDE_CONFIG_DIR/hooks/x.sh``),
and `to_config_dir` names them by its absolute path, quoted as above
(``"/home/u/.config/claude"/hooks/x.sh``). Not by ``$CLAUDE_CONFIG_DIR``: a hook's shell
inherits Claude Code's environment, so the variable would be set there as a rule, but
Claude Code documents ``$CLAUDE_PROJECT_DIR`` for hooks and not it, and an absolute path
runs the copy whatever environment the hook gets. A command naming a shipped copy's
home place itself (``~/.claude/hooks/x.sh``, a ``supportingFiles`` destination there) is
pointed at the same path.
"""

from __future__ import annotations

import re
from pathlib import Path

from skill_retriever.components.install.claude_folder import CLAUDE_DIR
from skill_retriever.components.install.layout import HOOK_SCRIPTS_DIR
from skill_retriever.components.install.plan import HookEntry
from skill_retriever.components.install.rendered import SkipComponent
from skill_retriever.ingest.shell_paths import escaped, quote_at, shell_path

__all__ = ["PROJECT_VAR", "USER_VAR", "point_at_copy", "to_config_dir", "to_home"]

PROJECT_VAR, USER_VAR = "CLAUDE_PROJECT_DIR", "HOME"
#: Where any ``.claude/...`` path a command names starts (`shell_path` reads the rest).
_CLAUDE_PATH_RE = re.compile(r"\.claude/(?=[\w.+'\"\\-])")
#: What a path named right after these is relative to: the home folder, or the project.
_HOME_BEFORE_RE = re.compile(r'(?:\$HOME|\$\{HOME\}|~)"?/$')
_PROJECT_BEFORE_RE = re.compile(r'(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})"?/$')
_PATH_CHAR_RE = re.compile(r"[\w/.$~}-]$")
#: The home folder before a path: the variable, or a ``~`` the shell expands (at a word's
#: start, unquoted); then the quote closing ``"$HOME"``, if any.
_HOME_PREFIX = r'(?:\$HOME|\$\{HOME\}|(?<![^\s;&|(=])~)("?)/'
#: A path's text, then the quotes opening the part where a match starts.
_MID_WORD_RE = re.compile(r"""[\w/.$~}-]["']+$""")
#: What an unquoted shell word may hold (a blank or an operator ends it).
_WORD_CHARS = r"[^\s;&|()<>$`]"
#: What the shell treats specially inside double quotes.
_DOUBLE_QUOTED_RE = re.compile(r'([\\"$`])')


def point_at_copy(
    entry: HookEntry, script: str, dest: str, var: str, notes: list[str]
) -> HookEntry:
    """Point a command that names ``script`` by its relative path at the installed copy:
    within double quotes as written there (``"scan staged.py"``), unquoted with its
    blanks escaped (``scan\\ staged.py``), as the shell reads either as the one path."""
    command = str(entry.hook["command"])
    pattern = re.compile(r"(?<![\w/.$~-])(?:\./)?" + _either(script) + r"(?![\w/.-])")
    pieces: list[str] = []
    last = 0
    for m in pattern.finditer(command):
        if _MID_WORD_RE.search(command, 0, m.start()):
            continue  # the tail of a longer path, quoted apart ("$CLAUDE_PROJECT_DIR"/'x.py')
        quote = quote_at(command, m.start())
        if quote == "'":  # inside single quotes: no variable expands there
            notes.append(f"a command names {script} inside single quotes; left as written")
            continue
        if not quote and shell_path(command, m.start(), _WORD_CHARS)[1] < m.end():
            continue  # unquoted blanks: the shell splits these words, this is another path
        target = f"${var}/{escaped(dest, quote)}" if quote else f'"${var}"/{escaped(dest, quote)}'
        pieces += [command[last : m.start()], target]
        last = m.end()
    if not pieces:
        return entry
    rewritten = "".join(pieces) + command[last:]
    return HookEntry(entry.event, entry.matcher, {**entry.hook, "command": rewritten})


def _either(path: str) -> str:
    """A pattern for ``path`` as written in double quotes or, escaped, unquoted."""
    forms = dict.fromkeys([path, escaped(path, ""), escaped(path, '"')])
    return "(?:" + "|".join(re.escape(f) for f in forms) + ")"


def to_home(entries: list[HookEntry], shipped: set[str], notes: list[str]) -> list[HookEntry]:
    """For a user install: point commands that name a shipped script's place inside the
    project at the home folder's copy; skip the hook when a command still runs a script
    from the open project (see `render_hook`'s module docstring).

    Raises:
        SkipComponent: A command runs a script from the project's ``.claude/hooks/``.
    """
    out = []
    for entry in entries:
        for dest in sorted(shipped, key=len, reverse=True):  # longest first: no prefix clash
            var_form = re.compile(
                r"(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})(?=\"?/"
                + _either(dest)
                + r"(?![\w/.-]))"
            )
            command = var_form.sub(lambda _: f"${USER_VAR}", str(entry.hook["command"]))
            entry = HookEntry(entry.event, entry.matcher, {**entry.hook, "command": command})
            entry = point_at_copy(entry, dest, dest, USER_VAR, notes)
        out.append(entry)
        left = _project_scripts(str(entry.hook["command"]), shipped)
        if left:
            raise SkipComponent(
                f"its commands run {', '.join(left)} from the open project's folder, which a "
                "user-wide hook would look for in every project; install it into a project "
                "(--target), or put the script under ~/.claude/hooks/ and add the hook by hand"
            )
    return out


def _project_scripts(command: str, shipped: set[str]) -> list[str]:
    """The ``.claude/hooks/...`` (or shipped ``.claude/...``) paths ``command`` names
    relative to the project: bare, after ``./``, or after ``$CLAUDE_PROJECT_DIR/``."""
    found: list[str] = []
    for m in _CLAUDE_PATH_RE.finditer(command):
        path = shell_path(command, m.start(), r"[\w.+/-]")[0]
        if not (path.startswith(f"{HOOK_SCRIPTS_DIR}/") or path in shipped):
            continue
        before = command[: m.start()]
        if _HOME_BEFORE_RE.search(before):
            continue
        if before.endswith("./") and not _PATH_CHAR_RE.search(before[:-2]):
            before = before[:-2]
        if _PROJECT_BEFORE_RE.search(before) or not _PATH_CHAR_RE.search(before):
            found.append(path)
    return list(dict.fromkeys(found))


def to_config_dir(
    entries: list[HookEntry], shipped: set[str], folder: Path, notes: list[str]
) -> list[HookEntry]:
    """For a user install into ``$CLAUDE_CONFIG_DIR`` = ``folder``: name each shipped
    copy that `to_home` (or the hook itself) names in the home folder's ``.claude`` by
    its absolute path in ``folder`` (see the module docstring). A command that still
    names a file in ``~/.claude`` that the hook does not ship gets a note: with the
    variable set, that folder is no longer Claude Code's, and the file may not be there.

    Raises:
        SkipComponent: A command names such a copy inside single quotes, where no quoting
            of the path can be relied on.
    """
    out = []
    for entry in entries:
        command = str(entry.hook["command"])
        for dest in sorted(shipped, key=len, reverse=True):  # longest first: no prefix clash
            pattern = re.compile(_HOME_PREFIX + re.escape(dest) + r"(?![\w/.-])")
            command = _swap(command, pattern, folder, dest.removeprefix(f"{CLAUDE_DIR}/"))
        for m in re.finditer(_HOME_PREFIX + r"\.claude/[\w.+/-]+", command):
            notes.append(
                f"its commands run {m.group(0).replace(m.group(1), '', 1)}, which it does not ship; "
                f"Claude Code's folder is {folder} ($CLAUDE_CONFIG_DIR), so check that the file is "
                "where the command looks"
            )
        out.append(HookEntry(entry.event, entry.matcher, {**entry.hook, "command": command}))
    return out


def _swap(command: str, pattern: re.Pattern[str], folder: Path, below: str) -> str:
    """``command`` with each home-folder path ``pattern`` finds replaced by
    ``folder``/``below``, quoted for where it stands.

    Raises:
        SkipComponent: A match stands inside single quotes.
    """
    pieces: list[str] = []
    last = 0
    escaped = _DOUBLE_QUOTED_RE.sub(r"\\\1", str(folder))
    for m in pattern.finditer(command):
        before = command[: m.start()]
        if before.count("'") % 2:
            raise SkipComponent(
                f"its commands name {m.group(0)} inside single quotes, which cannot be pointed "
                f"at the copy in $CLAUDE_CONFIG_DIR ({folder}); add the hook by hand, naming "
                f"{folder / below}"
            )
        if before.count('"') % 2:  # inside double quotes: "$HOME"/x, or "$HOME/x"
            target = f'{escaped}{m.group(1)}/{below}'
        elif m.group(1):  # a stray quote after an unquoted $HOME: not a path we read
            continue
        else:
            target = f'"{escaped}"/{below}'
        pieces += [command[last : m.start()], target]
        last = m.end()
    return "".join(pieces) + command[last:]
