"""What installing a hook writes: its ``settings.json`` entries and its scripts.

The entries come from the hook's source file when it may be read (inside the source
root that was indexed, like an MCP server's entry: `read_source`), parsed as the indexer
parsed it (`hook_configs.settings_hooks`, the flat form converted), so a secret the user
wrote in their own hook is installed exactly as written. The index keeps commands with
secrets redacted; when the file cannot be read (moved, deleted, indexed before roots
were recorded) the entries come from the index, and a hook with a redacted command is
skipped with the reason rather than installed with ``[redacted]`` in it.

Only hooks in Claude Code's schema are installed (a hook object's keys and values:
`hook_fields`, such as a command hook's `HOOK_KEYS` and a positive ``timeout``; a group's:
``matcher``, ``hooks``); a hook of another shape is skipped whole, since installing part
of it would change what it does, and so is one of a type its event does not run (a prompt
hook under ``SessionStart``: `hook_events.type_problem`). A prompt, agent, http or MCP tool
hook runs no script and goes in as written.
Its scripts (``attrs["scripts"]``, relative to the hook file's folder) are copied to
``.claude/hooks/<script>`` (or to the ``.claude/...`` destination its ``supportingFiles``
names), with the files each uses from beside it (`script_helpers`), executable when
its ``supportingFiles`` entry says so or a command runs it as the program (its first
word, after environment assignments, is the copy's path,
``.claude/hooks/x.sh`` or ``"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh``; not when an
interpreter runs it, ``python3 .claude/hooks/x.py``). A command is rewritten only where
it names a script by that same relative path (``python3 check.py``, ``./check.py``):
such a command would look for the script in whatever folder Claude Code runs it from,
so it is pointed at the copy (``"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py``;
``"$HOME"/...`` for a user install). So is one that names a shipped script's installed
place relative to the project (``python3 .claude/hooks/x.py``): Claude Code runs a hook in
its current folder, which is not the project's once a command ran ``cd``, and a
PreToolUse hook that then fails to start (exit 2) blocks every tool call. An absolute path,
a variable, or a script named inside single quotes is left exactly as written: rewriting
shell text any further would be guessing. A hook whose commands run scripts from the
user's home (``~/.claude/scripts/x.sh``; a log file written there is no script) installs
only for the user.
A plugin's hook that names its files by ``${CLAUDE_PLUGIN_ROOT}/...``, unset outside the
plugin, gets them copied and its commands pointed at the copies (`plugin_root`). What its
commands run and it does not ship goes with the rendering (`Rendered.needs`): the planner
writes the hook only where the target holds each such script (`unshipped_scripts`).

For the user (``~/.claude/settings.json``) a hook runs in whatever project is open, so a
command may not reach into that project for a script: one that names a shipped script's
installed place inside the project (``.claude/hooks/x.py``, ``./.claude/hooks/x.py``,
``$CLAUDE_PROJECT_DIR/.claude/hooks/x.py``) is pointed at the copy in the home folder
(``"$HOME"/.claude/hooks/x.py``, quoted as above; the project variable is swapped for
``$HOME`` in place, keeping its quotes). A hook whose commands still run a script from the
project's ``.claude/hooks/`` after that (one it does not ship, or named inside single
quotes) is skipped with the reason: it would run a different file, or none, in every
project. When Claude Code's user folder is ``$CLAUDE_CONFIG_DIR`` instead, the copies lie
there and commands name them by its absolute path (`user_hook_paths`).
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from skill_retriever.components.install.entry_members import entry_of, entry_plugin_folder
from skill_retriever.components.install.hook_fields import HOOK_KEYS, hook_problem, posix_shell
from skill_retriever.components.install.layout import HOOK_SCRIPTS_DIR
from skill_retriever.components.install.paths import (
    NO_ROOT_NOTE,
    read_inside,
    read_source,
    relative_parts,
    source_root_of,
)
from skill_retriever.components.install.plan import HookEntry, Scope
from skill_retriever.components.install.plugin_root import plugin_scripts
from skill_retriever.components.install.project_dir_quotes import quote_project_dir
from skill_retriever.components.install.rendered import FileOut, Rendered, SkipComponent
from skill_retriever.components.install.script_helpers import helper_files
from skill_retriever.components.install.unset_vars import unset_vars_note
from skill_retriever.components.install.unshipped_scripts import unshipped_scripts
from skill_retriever.components.install.user_hook_paths import (
    PROJECT_VAR,
    USER_VAR,
    point_at_copy,
    to_config_dir,
    to_home,
)
from skill_retriever.hook_events import (
    events_problem,
    matcher_note,
    type_problem,
)
from skill_retriever.ingest.hook_commands import SCRIPT_SUFFIX_PATTERN
from skill_retriever.ingest.hook_configs import settings_hooks
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.ingest.skill_configs import json_document
from skill_retriever.ingest.skill_records import RecordError
from skill_retriever.model import Node

__all__ = ["GROUP_KEYS", "HOOK_KEYS", "render_hook"]

GROUP_KEYS = frozenset({"matcher", "hooks"})
#: A script a command names in the home folder's ``.claude`` (not a log or data file).
_HOME_SCRIPT_RE = re.compile(rf"(?:\$HOME|\$\{{HOME\}}|~)\"?/\.claude/[\w./+-]*\.(?:{SCRIPT_SUFFIX_PATTERN})(?![\w.-])")
_ASSIGNMENT_RE = re.compile(r"[A-Za-z_]\w*=")
#: Where a program's path may start from: the project or home variable, ``~``, ``./``.
_PROGRAM_BASE_RE = re.compile(
    r"(?:\$(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR|\{HOME\}|HOME)/|~/)?(?:\./)?"
)


def _hook_mapping(node: Node) -> dict[str, Any]:
    """The hook's ``settings.json`` mapping: from its source file when that may be read,
    else as the index recorded it (see the module docstring).

    Raises:
        SkipComponent: It holds no hook command, or a command the index holds had a
            secret redacted and the source file cannot be read.
    """
    from_file = _source_hooks(node)
    if from_file is not None:
        return from_file
    indexed = _indexed_hooks(node)
    # a prompt, an http hook's URL or header value may have lost a secret too
    if REDACTED in json.dumps(indexed):
        raise SkipComponent(
            "a secret in its command was redacted in the index (as one in a prompt, URL or "
            "header is) and its source file "
            f"({node.source or 'not recorded'}) is not readable (or no longer holds the "
            "hook), so the real command is unknown: add the hook to settings.json by hand, "
            "or re-index it from its source"
        )
    return indexed


def _source_hooks(node: Node) -> dict[str, Any] | None:
    """The mapping of the hook's own file, read as the indexer read it; None when the
    file cannot be read (no root recorded, moved, deleted) or no longer holds a hook.

    Raises:
        UnsafePathError: The source resolves outside the recorded source root.
    """
    found = read_source(node, (".json",))
    if found is None:
        return None
    try:
        return dict(settings_hooks(entry_of(node, json_document(found.data.decode("utf-8-sig")))))
    except (UnicodeDecodeError, RecordError):
        return None  # changed since it was indexed: what the index recorded stands


def _indexed_hooks(node: Node) -> dict[str, Any]:
    """The mapping as the index recorded it, else made from the older ``runs``."""
    hooks = node.attrs.get("hooks")
    if isinstance(hooks, Mapping) and hooks:
        return dict(hooks)
    made: dict[str, list[dict[str, Any]]] = {}
    for run in node.attrs.get("runs") or []:
        if isinstance(run, Mapping) and isinstance(run.get("command"), str):
            group: dict[str, Any] = {}
            if run.get("matcher"):
                group["matcher"] = str(run["matcher"])
            group["hooks"] = [{"type": "command", "command": run["command"]}]
            made.setdefault(str(run.get("event") or "PreToolUse"), []).append(group)
    if not made:
        raise SkipComponent(
            "it holds no hook command (no settings.json 'hooks' mapping, no event and command); "
            "nothing to add to settings.json"
        )
    return made


def _entries(node: Node) -> list[HookEntry]:
    """Every hook of the mapping, checked against the schema of the module docstring."""
    entries = []
    mapping = _hook_mapping(node)
    if why := events_problem(str(event) for event in mapping):  # every unknown one, named at once
        raise SkipComponent(why)
    for event, groups in mapping.items():
        for group in groups if isinstance(groups, list) else [groups]:
            if not isinstance(group, Mapping) or not isinstance(group.get("hooks"), list):
                raise SkipComponent(f"hooks.{event} is not a list of matcher groups")
            extra = sorted(set(group) - GROUP_KEYS)
            matcher = group.get("matcher")
            if extra or not (matcher is None or isinstance(matcher, str)):
                raise SkipComponent(
                    f"a hooks.{event} group has keys Claude Code does not read: {extra}"
                )
            for hook in group["hooks"]:
                if why := hook_problem(hook):
                    raise SkipComponent(f"a {event} hook {why}; copy it into settings.json by hand if you want it")
                if why := type_problem(str(event), str(hook["type"])):
                    raise SkipComponent(f"a {event} hook {why}; installing it would add a hook that does "
                                        "nothing (write it as a hook of a type that event runs)")
                entries.append(HookEntry(str(event), matcher, dict(hook)))
    return entries


def render_hook(node: Node, scope: Scope, user_folder: Path | None = None) -> Rendered:
    """The ``settings.json`` entries of hook ``node``, and the scripts it ships.

    Args:
        user_folder: For a user install into ``$CLAUDE_CONFIG_DIR``: that folder, whose
            absolute path commands name the copies by (`to_config_dir`).

    Raises:
        UnsafePathError: A script or a declared destination is unsafe (refused).
        SkipComponent: Its hooks are of a shape not installed, or cannot run from
            this scope (skipped, with the reason).
    """
    every = _entries(node)
    # Only a command hook runs scripts: the others (prompt, agent, http, mcp_tool) go in
    # as written, in their places among the commands (`_in_order`).
    written = [e for e in every if e.hook.get("type") == "command"]
    entries = written
    out = Rendered()
    out.notes += list(dict.fromkeys(n for e in every if (n := matcher_note(e.event, e.matcher))))
    if any(e.hook.get("once") is True for e in every):
        out.notes.append(
            "a hook of it has once: true, which Claude Code honours only in a skill's "
            "frontmatter: from settings.json it runs every time its event fires"
        )
    scripts = [s for s in node.attrs.get("scripts") or [] if isinstance(s, str)]
    declared = _declared_destinations(node)
    executable = _executable(node)
    commands = " ".join(str(e.hook["command"]) for e in entries)
    args = [str(a) for e in entries if isinstance(e.hook.get("args"), list) for a in e.hook["args"]]
    if note := unset_vars_note([commands, *args]):  # (the exec form's args too)
        out.notes.append(note)
    # A script it installs into the home folder, or one its commands run from there (a
    # log file it writes there is no script: it works from a project too).
    from_home = any(d.startswith("~/") for d in declared.values()) or _HOME_SCRIPT_RE.search(commands)
    if scope == "project" and from_home:
        raise SkipComponent(
            "its commands run scripts from the home folder (~/.claude/...); install it for the "
            "user (CLI --user, Python user=True; the MCP tool installs into projects only)"
        )
    root = source_root_of(node)
    if scripts and root is None:
        out.notes.append(f"{len(scripts)} script(s) not copied: {NO_ROOT_NOTE}")
        out.complete = False
        scripts = []
    out.notes += _unused_supporting(node, scripts)
    folder = _hook_folder(node, root)
    var = PROJECT_VAR if scope == "project" else USER_VAR
    entries, out.files = plugin_scripts(entries, folder, root, var, entry_plugin_folder(node, root))
    # what a hook run without a POSIX shell may be written as: in exec form its
    # ${CLAUDE_PLUGIN_ROOT} paths are placeholders Claude Code substitutes (`plugin_root`)
    rooted, plugin_files = list(entries), {f.rel for f in out.files}
    helpers: list[FileOut] = []
    for script in scripts:
        norm = posixpath.normpath(script)
        dest = (
            declared.get(norm)
            or f"{HOOK_SCRIPTS_DIR}/{'/'.join(p for p in norm.split('/') if p != '..')}"
        )
        dest = dest.removeprefix("~/")
        assert root is not None and folder is not None
        got = read_inside(folder / norm, root, f"script {script} of hook {node.name!r}")
        if got is None:
            out.notes.append(f"script {script} not copied: not on disk")
            out.complete = False
            continue
        mode = 0o755 if norm in executable else got.mode
        if dest not in {f.rel for f in out.files}:  # not already copied for the plugin's root
            out.files.append(FileOut(dest, got.data, mode))
            helpers += helper_files(folder / norm, dest, root)
        entries = [point_at_copy(e, script, dest, var, out.notes) for e in entries]
    # after the scripts: a listed script's own copy (its mode) wins over one as a helper
    out.files += [h for h in helpers if h.rel not in {f.rel for f in out.files}]
    shipped = {f.rel for f in out.files}
    if scope == "user":
        entries = to_home(entries, shipped, out.notes)
    else:  # Claude Code runs a hook in its current folder, which a `cd` moves off the project
        for dest in sorted(shipped, key=len, reverse=True):  # longest first: no prefix clash
            entries = [e if _exec_form(e) else point_at_copy(e, dest, dest, PROJECT_VAR, out.notes) for e in entries]
    # shell text only: in exec form ${CLAUDE_PROJECT_DIR} is a placeholder Claude Code
    # substitutes into one argument, which no shell splits, and quotes would stay in the path
    entries = [e if _exec_form(e) else replace(e, hook={**e.hook, "command": quote_project_dir(str(e.hook["command"]))})
               for e in entries]
    # What its commands run and it does not ship: the planner checks the target for each
    # and leaves the hook out when one is missing (`unshipped_scripts`).
    out.needs = unshipped_scripts(entries, shipped, scope, config=user_folder is not None)
    programs = {_program(str(e.hook["command"])) for e in entries}
    out.files = [replace(f, mode=0o755) if f.rel in programs else f for f in out.files]
    # last: the notes and modes above read the commands in their $HOME form
    out.hooks = entries if user_folder is None else to_config_dir(entries, shipped, user_folder, out.notes)
    _as_written_unless_posix(rooted, out, plugin_files)
    out.hooks = _in_order(every, out.hooks)
    return out


def _exec_form(entry: HookEntry) -> bool:
    """Whether ``entry`` runs in exec form (``args``): spawned with no shell."""
    return "args" in entry.hook


def _in_order(every: list[HookEntry], commands: list[HookEntry]) -> list[HookEntry]:
    """``every`` with its command hooks replaced, in turn, by ``commands``."""
    rendered = iter(commands)
    return [next(rendered) if e.hook.get("type") == "command" else e for e in every]


def _as_written_unless_posix(written: list[HookEntry], out: Rendered, plugin_files: set[str]) -> None:
    """Refuse a rendering that changed a hook run without a POSIX shell (past its
    ``${CLAUDE_PLUGIN_ROOT}`` placeholders, ``written`` here), or that ships scripts, other
    than its plugin's (``plugin_files``), an exec-form hook's arguments would name relative
    to wherever it runs.

    The paths the installer writes (``"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py``) are POSIX
    shell text: PowerShell reads ``$CLAUDE_PROJECT_DIR`` as a variable of its own, and an
    exec-form hook (``args``) is spawned with no shell at all.

    Raises:
        SkipComponent: Such a hook would have to be rewritten to run the copies.
    """
    for before, after in zip(written, out.hooks, strict=True):
        if posix_shell(before.hook):
            continue
        if before.hook != after.hook or ("args" in before.hook and {f.rel for f in out.files} - plugin_files):
            form = "in exec form (args)" if "args" in before.hook else f"by {before.hook.get('shell')}"
            raise SkipComponent(
                f"a {before.event} hook runs {form}, without a POSIX shell, and its script "
                "paths would have to be rewritten to reach the copies under .claude/hooks/, "
                "which only shell text can say: copy its scripts and add it to settings.json "
                "by hand"
            )


def _program(command: str) -> str:
    """The path ``command`` runs as its program (its first word after environment
    assignments, quotes taken off), relative to where it starts from (see
    `_PROGRAM_BASE_RE`); '' when the shell text cannot be read that far."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        word = lexer.get_token()
        while word and _ASSIGNMENT_RE.match(word):
            word = lexer.get_token()
    except ValueError:  # an unclosed quote
        return ""
    return _PROGRAM_BASE_RE.sub("", word or "", count=1)


def _hook_folder(node: Node, root: Path | None) -> Path | None:
    """The folder of the hook's file, inside its source root."""
    if root is None:
        return None
    rel = node.attrs.get("path")
    if isinstance(rel, str) and rel:
        return root / posixpath.dirname(rel.split("#", 1)[0])
    return Path(node.source).parent if node.source else root


def _declared_destinations(node: Node) -> dict[str, str]:
    """Script (normalised, relative to the hook's folder) -> the ``.claude/...`` or
    ``~/.claude/...`` destination its ``supportingFiles`` entry names."""
    return {src: dest for src, (dest, _) in _supporting(node).items()}


def _executable(node: Node) -> set[str]:
    """Scripts its ``supportingFiles`` marks ``executable``."""
    return {src for src, (_, flag) in _supporting(node).items() if flag}


def _unused_supporting(node: Node, scripts: list[str]) -> list[str]:
    """A note for each ``supportingFiles`` entry installing it does not follow as written:
    a destination outside ``.claude/`` (the script goes to ``.claude/hooks/`` instead), a
    source the index did not list as the hook's (outside the repository, or missing)."""
    listed = {posixpath.normpath(s) for s in scripts}
    notes = []
    for item in node.attrs.get("supporting_files") or []:
        src, dest = (item.get("source"), item.get("destination")) if isinstance(item, Mapping) else (None, None)
        if not isinstance(src, str):
            continue
        if posixpath.normpath(src) not in listed:
            notes.append(f"supportingFiles source {src} not copied: it is not a file of the hook's "
                         "repository (outside it, or missing)")
        elif isinstance(dest, str) and not dest.removeprefix("~/").startswith(".claude/"):
            notes.append(f"supportingFiles destination {dest} of {src} is outside .claude/: "
                         f"the script goes to {HOOK_SCRIPTS_DIR}/ instead")
    return notes


def _supporting(node: Node) -> dict[str, tuple[str, bool]]:
    out: dict[str, tuple[str, bool]] = {}
    for item in node.attrs.get("supporting_files") or []:
        if not isinstance(item, Mapping):
            continue
        src, dest = item.get("source"), item.get("destination")
        if isinstance(src, str) and isinstance(dest, str):
            bare = dest.removeprefix("~/")
            if bare.startswith(".claude/"):
                relative_parts(bare, f"destination of {src}")  # refuses '..' and the like
                out[posixpath.normpath(src)] = (dest, item.get("executable") is True)
    return out
