"""What Claude Code will not read well in a skill's or agent's frontmatter: plan notes.

Claude Code documents the frontmatter it reads:

- a skill's ``SKILL.md``: ``name`` (lowercase letters, digits and hyphens, at most 64
  characters) and ``description`` (what it does and when to use it, at most 1024
  characters), both required: Claude Code picks a skill by its description;
- an agent's ``.md``: ``name`` (lowercase letters and hyphens; digits are accepted too)
  and ``description``, both required.

A file is installed as its author wrote it (the file is theirs to fix); the plan says what
Claude Code expects instead, so a skill that will never be picked is not a surprise. A
skill whose name Claude Code does not take goes into a folder of a name it does (its
source folder's, else a slug of its name: `skill_folder`), and the note on its name says
which, and so what Claude Code calls it (``/pdf-pro``).
Commands take their name from the file name and need no frontmatter: nothing is checked.
A file of any of the three that names paths by ``${CLAUDE_PLUGIN_ROOT}`` (set only inside
its plugin), or agents by their plugin's namespace (``subagent_type: "plugin:agent"``),
gets a note too.

A skill at ``.claude/skills/<n>/SKILL.md`` and a command at ``.claude/commands/<n>.md``
(or in a subfolder of it: ``.claude/commands/ops/<n>.md``, a command is named by its file
alone) both make ``/<n>``, and Claude Code documents that the skill wins: a command
installed where a skill of its name will be (from the same install, or there already)
would never run, and a skill installed where a command of its name already is takes that
command's place. Both files are valid, so it is a note (`note_shadowed_commands`): on the
command, or, where the command is already in the target, on the skill; not a refusal.
Two commands of one file name in different subfolders are both offered as ``/<n>``: a
note on each too (`note_same_named_commands`). Names are compared without case, as the
file systems of macOS and Windows compare them.

Claude Code tells subagents apart by their frontmatter ``name``, not their file name (its
documentation: the name is the subagent's unique identifier). An agent this install
writes or keeps whose name is the name of another agent in the target's
``.claude/agents`` (any ``.md`` there, the user's own included) or of another agent of the
install makes two subagents of one name, only one of which is used: a note naming both
files (`note_same_named_agents`). A skill gets none: Claude Code names it, as a command,
by its folder (``.claude/skills/review/SKILL.md`` is ``/review``), which two skills cannot share.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.claude_folder import on_disk
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import fold
from skill_retriever.components.install.plan import ComponentPlan
from skill_retriever.components.install.plugin_root import PLUGIN_VAR_RE
from skill_retriever.components.install.skill_folder import MAX_NAME, claude_name
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.model import NodeKind

__all__ = [
    "agent_name",
    "claude_code_notes",
    "note_same_named_agents",
    "note_same_named_commands",
    "note_shadowed_commands",
    "target_agents",
]

#: An agent named through its plugin, however the key is written around it: as code
#: (``subagent_type: "agent-teams:team-debugger"``, ``subagent_type="x:y"``), in Markdown
#: (`` `subagent_type`: "x:y" ``, ``**subagent_type**: x:y``, a table's
#: ``| `subagent_type` | `x:y` |``). ``x::y`` (written so in some catalogues) is named
#: through its plugin too, and installed alone the agent answers to neither form.
_PLUGIN_AGENT_RE = re.compile(
    r"subagent_type[`\"'*]*\s*[:=|]\s*[`\"'*]*([a-z0-9-]+)(::?)([a-z0-9-]+)"
)
MAX_DESCRIPTION = 1024


def claude_code_notes(
    kind: NodeKind,
    data: bytes,
    *,
    with_plugin: bool = False,
    installed_as: str = "",
    plugin_agents: Mapping[str, Collection[str]] | None = None,
) -> list[str]:
    """Notes on a skill's, agent's or command's file as it will be written: its
    frontmatter (skills and agents), and any ``${CLAUDE_PLUGIN_ROOT}`` or agent named
    through its plugin in it, which only Claude Code's own plugin install gives meaning.
    ``with_plugin``: this install writes the file as a member of its plugin (the plugin
    asked for, or required), which the note says does not give it either; else the file
    is written on its own, and the note says that. ``installed_as``: where a skill whose
    name Claude Code does not take is installed instead, and what Claude Code calls it
    (`skill_folder.installed_as`), the end of the note on its name. ``plugin_agents``: the
    agents of the plugins it is part of, by plugin name: one named through its plugin
    anywhere in the text (a table's `` `agent-teams:team-lead` ``, prose) is noted too, not
    only after ``subagent_type`` (`namespaced_mentions`)."""
    notes = []
    text = data.decode("utf-8", "replace")
    written = ("this install writes the plugin's components, not the plugin, so" if with_plugin
               else "installed on its own, outside its plugin,")
    if PLUGIN_VAR_RE.search(text):
        notes.append(
            "its text names files by ${CLAUDE_PLUGIN_ROOT}, which only Claude Code's own plugin "
            f"install sets: {written} those paths lead nowhere (install the plugin in Claude Code "
            "with /plugin install, or copy the files and edit the paths)"
        )
    namespaced = sorted(set(_PLUGIN_AGENT_RE.findall(text)) | namespaced_mentions(text, plugin_agents or {}))
    if namespaced:
        shown = ", ".join(f"{p}{sep}{a}" for p, sep, a in namespaced[:3])
        notes.append(
            f"its text names agents by their plugin's namespace ({shown}), which only Claude Code's "
            f"own plugin install gives them: {written} they are named without it "
            f"({', '.join(a for _, _, a in namespaced[:3])}); edit those names, or install the "
            "plugin in Claude Code with /plugin install"
        )
    if kind not in (NodeKind.SKILL, NodeKind.AGENT):
        return notes
    try:
        fields = parse_frontmatter(data.decode("utf-8", "replace")).fields
    except FrontmatterError:
        return notes  # the index's reading says so already (`_frontmatter_note`)
    what = "a skill" if kind is NodeKind.SKILL else "an agent"
    name, description = fields.get("name"), fields.get("description")
    if not isinstance(name, str) or not name.strip():
        notes.append(f"its frontmatter has no name, which Claude Code requires of {what}"
                     + (f"; {installed_as}" if installed_as else ""))
    elif not claude_name(name):
        notes.append(
            f"its name {name!r:.80} is not one Claude Code accepts for {what} (lowercase "
            f"letters, digits and hyphens, at most {MAX_NAME} characters): "
            + (installed_as or "set its frontmatter name to one")
        )
    if not isinstance(description, str) or not description.strip():
        notes.append(
            f"its frontmatter has no description, which Claude Code requires of {what} "
            "(it decides from it when to use it)"
        )
    elif kind is NodeKind.SKILL and len(description) > MAX_DESCRIPTION:
        notes.append(
            f"its description is {len(description)} characters, over the {MAX_DESCRIPTION} "
            "Claude Code reads of a skill's"
        )
    return notes


def namespaced_mentions(text: str, plugin_agents: Mapping[str, Collection[str]]) -> set[tuple[str, str, str]]:
    """(plugin, separator, agent) for each agent of ``plugin_agents`` that ``text`` names
    through its plugin (``agent-teams:team-lead``, ``x::y``), wherever it stands; a command's
    ``/plugin:name`` is no agent's."""
    found: set[tuple[str, str, str]] = set()
    for plugin, agents in plugin_agents.items():
        if not agents or f"{plugin}:" not in text:
            continue
        names = "|".join(re.escape(a) for a in sorted(agents, key=len, reverse=True))
        mention = re.compile(rf"(?<![\w/-])({re.escape(plugin)})(::?)({names})(?![\w-])")
        found.update(mention.findall(text))
    return found


def _command_stem(path: str) -> str | None:
    """The name Claude Code gives the command file at ``path`` (a path under the root),
    in a subfolder of ``.claude/commands`` too: its name without ``.md``; None when
    ``path`` is no command file."""
    head, tail = LAYOUT[NodeKind.COMMAND].pattern.split("{name}", 1)
    if not (path.startswith(head) and path.endswith(tail)) or len(path) <= len(head) + len(tail):
        return None
    return posixpath.basename(path)[: -len(tail)]


def _names(c: ComponentPlan, kind: NodeKind) -> list[str]:
    """The name each of ``c``'s files at ``kind``'s layout path makes (as spelled in its
    plan: the target's spelling): a skill's folder, a command's file stem (whatever
    folders it lies in)."""
    if kind is NodeKind.COMMAND:
        return [name for f in c.files if (name := _command_stem(f.path)) is not None]
    head, tail = LAYOUT[kind].pattern.split("{name}", 1)
    return [
        name
        for f in c.files
        if f.path.startswith(head) and f.path.endswith(tail)
        and "/" not in (name := f.path[len(head) : len(f.path) - len(tail)])
    ]


def _in_target(root: Path, kind: NodeKind, wanted: set[str]) -> dict[str, str]:
    """Folded name -> name of each ``kind`` (a skill) the target already holds at its
    layout path whose name folds to one of ``wanted``: one listing, no walk."""
    head, tail = LAYOUT[kind].pattern.split("{name}", 1)
    try:
        entries = sorted(os.listdir(on_disk(root, head)))
    except OSError:  # no such folder yet: nothing of that kind there
        return {}
    names = (e if tail.startswith("/") else e.removesuffix(tail) for e in entries)
    found = (n for n in names if n.casefold() in wanted and (on_disk(root, head) / (n + tail)).is_file())
    return {n.casefold(): n for n in found}


def _target_commands(root: Path) -> dict[str, list[str]]:
    """Folded name -> path (under the root) of each command file the target holds below
    ``.claude/commands``, its subfolders included, as Claude Code reads them (links to
    folders are not followed)."""
    commands = LAYOUT[NodeKind.COMMAND].folder
    base = on_disk(root, commands)
    out: dict[str, list[str]] = {}
    for folder, subfolders, files in os.walk(base):  # a folder that is not there: nothing
        subfolders.sort()
        for file in sorted(files):
            rel = f"{commands}/{Path(folder, file).relative_to(base).as_posix()}"
            if (name := _command_stem(rel)) is not None and Path(folder, file).is_file():
                out.setdefault(name.casefold(), []).append(rel)
    return out


_SKILL_WINS = (
    "a skill and a command of one name both make that command, and Claude Code prefers the "
    "skill; rename one to keep both"
)


def _noted(c: ComponentPlan, note: str) -> ComponentPlan:
    return replace(c, reason=f"{c.reason}; {note}" if c.reason else note)


def note_shadowed_commands(plans: Sequence[ComponentPlan], root: Path) -> list[ComponentPlan]:
    """``plans`` with a note on each command that will be in the target (status install or
    unchanged) and that a skill of its name will hide there: one this plan writes or
    keeps, or one already in ``root``; and on each skill that will hide a command already
    in ``root`` (see the module)."""
    present = ("install", "unchanged")

    def planned(kind: NodeKind) -> dict[int, str]:
        return {
            i: names[0]
            for i, c in enumerate(plans)
            if c.kind == kind.value and c.status in present and (names := _names(c, kind))
        }

    commands, skills = planned(NodeKind.COMMAND), planned(NodeKind.SKILL)
    out = list(plans)
    hiding = _in_target(root, NodeKind.SKILL, {n.casefold() for n in commands.values()})
    hiding.update((n.casefold(), n) for n in skills.values())
    for i, name in commands.items():
        if (skill := hiding.get(name.casefold())) is not None:
            out[i] = _noted(
                out[i],
                f"its /{name} will run the skill {skill} ({LAYOUT[NodeKind.SKILL].path(skill)}) "
                f"instead: {_SKILL_WINS}",
            )
    planned_names = {n.casefold() for n in commands.values()}
    hidden = _target_commands(root) if skills else {}
    for i, name in skills.items():
        if name.casefold() in planned_names or not (paths := hidden.get(name.casefold())):
            continue
        command = _command_stem(paths[0])
        out[i] = _noted(
            out[i],
            f"the target's command /{command} ({paths[0]}) will run this skill instead: "
            f"{_SKILL_WINS}",
        )
    return out


def note_same_named_commands(plans: Sequence[ComponentPlan], root: Path) -> list[ComponentPlan]:
    """``plans`` with a note on each command that will be in the target (status install or
    unchanged) while another command of its name is there at another path: one this plan
    writes or keeps, or one ``root`` holds (and this plan does not remove). Claude Code
    reads commands in subfolders too (``git/commit.md`` and ``svn/commit.md``) and offers
    both as ``/commit``, telling them apart only by their folders in /help. Both files are
    valid and both are written: a note, not a refusal. Names and paths are compared
    without case, as the file systems of macOS and Windows compare them."""
    mine: dict[int, tuple[str, str]] = {}  # plan index -> (name, path)
    for i, c in enumerate(plans):
        if c.kind == NodeKind.COMMAND.value and c.status in ("install", "unchanged"):
            mine.update((i, (n, f.path)) for f in c.files[:1] if (n := _command_stem(f.path)))
    if not mine:
        return list(plans)
    removed = {fold(f.path) for c in plans for f in c.files if f.action == "remove"}
    where: dict[str, dict[str, str]] = {}  # folded name -> folded path -> path
    for name, path in mine.values():
        where.setdefault(name.casefold(), {}).setdefault(fold(path), path)
    for key, paths in _target_commands(root).items():
        if key in where:
            known = removed | where[key].keys()
            where[key].update((fold(p), p) for p in paths if fold(p) not in known)
    out = list(plans)
    for i, (name, path) in mine.items():
        others = [p for k, p in where[name.casefold()].items() if k != fold(path)]
        if others:
            out[i] = _noted(
                out[i],
                f"Claude Code offers it as /{name}, and {' and '.join(others)} as /{name} too: "
                "both are listed under that name, told apart only by their folders in /help; "
                "rename one to call each by a name of its own",
            )
    return out


def agent_name(data: bytes) -> str | None:
    """The frontmatter ``name`` of an agent's file, read as the index reads it (leniently:
    `parse_frontmatter`); None without one."""
    try:
        name = parse_frontmatter(data.decode("utf-8", "replace")).fields.get("name")
    except FrontmatterError:
        return None
    return name.strip() if isinstance(name, str) and name.strip() else None


def target_agents(root: Path, skip: set[str]) -> dict[str, list[str]]:
    """Frontmatter name -> paths (under the root) of the agent files the target holds in
    ``.claude/agents`` (every ``.md`` there, whoever wrote it), less the folded paths in
    ``skip`` (what this plan writes or removes: its own content counts instead)."""
    folder = LAYOUT[NodeKind.AGENT].folder
    base = on_disk(root, folder)
    try:
        entries = sorted(os.listdir(base))
    except OSError:  # no agents folder yet: no agent there
        return {}
    out: dict[str, list[str]] = {}
    for entry in entries:
        rel, file = f"{folder}/{entry}", base / entry
        if not entry.lower().endswith(".md") or fold(rel) in skip or not file.is_file():
            continue
        try:
            data = file.read_bytes()
        except OSError:  # unreadable: Claude Code cannot read its name either
            continue
        if (name := agent_name(data)) is not None:
            out.setdefault(name, []).append(rel)
    return out


def note_same_named_agents(plans: Sequence[ComponentPlan], root: Path) -> list[ComponentPlan]:
    """``plans`` with a note on each agent that will be in the target (status install or
    unchanged) whose frontmatter name another agent file has: one in ``root``'s
    ``.claude/agents`` (the user's own too), or another agent of this plan. Claude Code
    identifies a subagent by that name, so only one of the two is used. Both files are
    written: a note naming both, not a refusal (see the module)."""
    head, tail = LAYOUT[NodeKind.AGENT].pattern.split("{name}", 1)
    mine: dict[int, tuple[str, str]] = {}  # plan index -> (name, path)
    for i, c in enumerate(plans):
        if c.kind != NodeKind.AGENT.value or c.status not in ("install", "unchanged"):
            continue
        for f in c.files:
            stem = f.path[len(head) : len(f.path) - len(tail)]
            if f.path.startswith(head) and f.path.endswith(tail) and "/" not in stem:
                if (name := agent_name(f.content)) is not None:
                    mine[i] = (name, f.path)
                break
    if not mine:
        return list(plans)
    skip = {fold(f.path) for c in plans for f in c.files if f.action == "remove"}
    skip |= {fold(path) for _, path in mine.values()}
    where = target_agents(root, skip)
    for name, path in mine.values():
        where.setdefault(name, []).append(path)
    out = list(plans)
    for i, (name, path) in mine.items():
        others = [p for p in where[name] if fold(p) != fold(path)]
        if others:
            out[i] = _noted(
                out[i],
                f"its frontmatter name {name!r:.80} is the name of {' and '.join(others)} too: Claude Code "
                "tells subagents apart by that name, not by their files, so only one of them is used; "
                f"set the name: of one ({path} or {others[0]}) to a name of its own",
            )
    return out
