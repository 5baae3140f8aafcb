"""Scripts a hook's commands run that the hook does not ship, and whether the target holds them.

A hook whose script is missing fails each time it fires, and for several events a
failure is no mere warning: ``python3`` on a missing file exits 2, which Claude Code reads
as a blocking error (its hooks reference, "exit code 2 behavior per event"): a PreToolUse
hook then blocks every tool call it guards, a UserPromptSubmit hook every prompt, a Stop
hook keeps Claude from ever stopping. So install never writes such a hook unless asked to
(``force``): `render_hook` lists what its commands run and it does not ship
(`unshipped_scripts`), and the planner checks each against the target (`judge`). A script
the target holds already (the user put it there), or another component of the same install
writes, is fine; one nothing provides skips the hook, saying which script, where to put it,
and to install again.

Which words count as scripts is as `render_hook` read them for its notes: a
``.claude/hooks/...`` path (of a script's suffix, or none), a ``~/.claude/...`` script a
user install runs, and a bare relative path the shell runs (`bare_scripts`). Absolute paths
and other variables are left alone: where they lead cannot be told from here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from skill_retriever.components.install.bare_scripts import bare_scripts
from skill_retriever.components.install.claude_folder import home_folder, on_disk
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.ingest.hook_commands import SCRIPT_EXTENSIONS
from skill_retriever.ingest.shell_paths import shell_path

__all__ = ["BLOCKS_ON_EXIT_2", "Unshipped", "Verdict", "judge", "unshipped_scripts"]

#: What a command hook exiting 2 does, by event (Claude Code's hooks reference); the
#: other events only show its error.
BLOCKS_ON_EXIT_2 = {
    "PreToolUse": "blocks every tool call it guards",
    "PermissionRequest": "denies every permission it is asked about",
    "UserPromptSubmit": "blocks every prompt you submit",
    "Stop": "keeps Claude from stopping",
    "SubagentStop": "keeps subagents from stopping",
    "TeammateIdle": "keeps teammates from going idle",
    "TaskCreated": "stops tasks from being created",
    "TaskCompleted": "stops tasks from being marked completed",
    "ConfigChange": "blocks configuration changes",
    "PreCompact": "blocks compaction",
    "Elicitation": "denies elicitations",
    "ElicitationResult": "blocks elicitation responses",
    "WorktreeCreate": "makes worktree creation fail",
}
#: Where a ``.claude/hooks/...`` path a command names starts (the installed place of a
#: hook's scripts); `shell_path` reads the rest, through quotes (``"scan staged.py"``).
_HOOKS_PATH_RE = re.compile(r"\.claude/hooks/")
#: A script under the home folder's ``.claude`` (``$HOME/.claude/scripts/x.sh``).
_HOME_RE = re.compile(r"(?:\$HOME|\$\{HOME\}|~)\"?/(\.claude/)")
#: What `_HOOKS_PATH_RE` and `_HOME_RE` read as a path: a name after the folder.
_NAMED_RE = re.compile(r"\.claude/[^/]+(?:/[^/]+)*")
#: The characters of an unquoted path, as these paths were read before quotes were.
_PLAIN = r"[\w.+/-]"
_HOME_BEFORE_RE = re.compile(r'(?:\$HOME|\$\{HOME\}|~)"?/$')

Where = Literal["root", "home", "open project"]


@dataclass(frozen=True)
class Unshipped:
    """A script a hook's commands run that it does not ship.

    Attributes:
        rel: Its path as the command names it, relative to ``where``.
        where: What that path is relative to: the install's root (the project, or the
            home folder of a user install), the home folder (a ``$HOME/...`` path a
            project's hook or one in ``$CLAUDE_CONFIG_DIR`` names), or the project Claude
            Code has open (a bare path in a user-wide hook, which no install provides).
        events: The events whose commands run it.
    """

    rel: str
    where: Where
    events: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """What the planner does with a hook's unshipped scripts: ``skip`` (why it is not
    written; '' to write it) and ``notes`` for the plan."""

    skip: str = ""
    notes: tuple[str, ...] = ()


def _script_like(path: str) -> bool:
    """A script's suffix, or none (``.claude/hooks/guard``): not a log or data file."""
    suffix = posixpath.splitext(posixpath.basename(path))[1].lower()
    return suffix == "" or suffix in SCRIPT_EXTENSIONS


def unshipped_scripts(
    entries: Sequence[HookEntry], shipped: Collection[str], scope: str, config: bool = False
) -> list[Unshipped]:
    """The scripts ``entries``' commands run that are not among ``shipped`` (the layout
    paths the hook writes), in the order first named (see the module docstring).

    Args:
        config: A user install into ``$CLAUDE_CONFIG_DIR``: a ``$HOME/.claude/...`` path
            then lies outside the install's root.
    """
    home: Where = "home" if scope == "project" or config else "root"
    found: dict[tuple[str, Where], list[str]] = {}
    for entry in entries:
        command = str(entry.hook["command"])
        named: list[tuple[str, Where]] = [
            (path, home if _HOME_BEFORE_RE.search(command[: m.start()]) else "root")
            for m in _HOOKS_PATH_RE.finditer(command)
            if _NAMED_RE.fullmatch(path := shell_path(command, m.start(), _PLAIN)[0])
        ]
        named += [
            (path, home)
            for m in _HOME_RE.finditer(command)
            if _NAMED_RE.fullmatch(path := shell_path(command, m.start(1), _PLAIN)[0])
        ]
        bare: Where = "root" if scope == "project" else "open project"
        named += [(rel, bare) for rel in sorted(bare_scripts(command))]
        for rel, where in named:
            if rel not in shipped and _script_like(rel):
                events = found.setdefault((rel, where), [])
                events += [] if entry.event in events else [entry.event]
    return [Unshipped(rel, where, tuple(events)) for (rel, where), events in found.items()]


def _place(need: Unshipped, root: Path) -> Path | None:
    """Where the script must lie for the command to find it; None where no install can
    put it (the open project of a user-wide hook, an unknown home folder)."""
    if need.where == "open project":
        return None
    if need.where == "home":
        home = home_folder()
        return None if home is None else home.joinpath(*need.rel.split("/"))
    return on_disk(root, need.rel)


def _blocking(events: Iterable[str]) -> str:
    """`` (a PreToolUse hook that exits 2 ... blocks every tool call it guards)``, or ''."""
    said = [f"a {e} hook that exits 2" for e in events if e in BLOCKS_ON_EXIT_2]
    does = "; ".join(BLOCKS_ON_EXIT_2[e] for e in events if e in BLOCKS_ON_EXIT_2)
    return f" ({' or '.join(said)}, as python3 does on a missing file, {does})" if said else ""


def judge(
    needs: Sequence[Unshipped], root: Path, planned: Collection[str], force: bool, installed: bool
) -> Verdict:
    """Whether a hook whose commands run ``needs`` is written (see the module docstring).

    Args:
        root: The install's root.
        planned: The layout paths every component of this install writes.
        force: Write the hook all the same, with a note that says what it lacks.
        installed: ``settings.json`` holds every hook of it already (an earlier install):
            nothing is written either way, and a note says the script is missing.
    """
    notes: list[str] = []
    missing: list[tuple[str, str, str]] = []  # what is missing, what to do, what happens
    for need in needs:
        place = _place(need, root)
        if place is not None and place.is_file():
            notes.append(f"its commands run {need.rel}, which it does not ship; {place} holds it")
            continue
        if need.where == "root" and need.rel in planned:
            notes.append(f"its commands run {need.rel}, which another component of this install writes")
            continue
        runs = f"its {'/'.join(need.events)} commands run {need.rel}, which it does not ship"
        if place is None:
            runs += (
                ", relative to the folder Claude Code starts them in: the open project's, "
                "which a user-wide hook cannot count on"
            )
            fix = f"install it into a project that holds {need.rel} (--target) instead"
        else:
            runs += f" and is not at {place}"
            fix = "put that script there"
        missing.append((runs, fix, f"the hook fails each time it runs{_blocking(need.events)}"))
    if not missing:
        return Verdict(notes=tuple(notes))
    if installed:  # written by an earlier install: say so, write nothing
        said = [f"installed earlier, but {r}: {f}, or uninstall it; until then {x}" for r, f, x in missing]
        return Verdict(notes=(*notes, *said))
    if force:
        said = [f"written as forced, but {r}: {f}; until then {x}" for r, f, x in missing]
        return Verdict(notes=(*notes, *said))
    skip = "; ".join(
        f"{r}: {f}{', then install again' if f.startswith('put') else ''}. "
        f"Written without it, {x.replace('fails', 'would fail', 1)}"
        for r, f, x in missing
    )
    return Verdict(skip=f"{skip}; --force (force=True) writes it all the same", notes=tuple(notes))
