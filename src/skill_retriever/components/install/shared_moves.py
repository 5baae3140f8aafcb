"""A command several installed plugins hold moves out of the folder of one uninstalled.

Marketplace entries at one root load the same command file (`shared_commands`); it is
written once, below ``.claude/commands/<plugin>/`` of the installed plugin whose name sorts
first. When that plugin is uninstalled while another that holds the command stays, the
command stays too (`picked`), but in the folder of a plugin no longer installed: /help
labels it "(project:alpha)" after ``uninstall alpha``, and the record lists a file of
alpha's. It moves to the folder of the plugin that stays (of those that load it, the one
whose name sorts first: `command_folders.first_plugin`, where installing them puts it),
``.claude/commands/alpha/deploy.md`` -> ``.claude/commands/beta/deploy.md``, and the record
follows, so what lies on disk is what is installed, and uninstalling that plugin later
takes it from there.

A command installed as a dependency of the plugin uninstalled lies where a dependency goes
(`RecordEntry.dependency_path`, the folder of the plugin the index files it under); a
plugin installed later that loads it found it there and left it. It moves, too, to the
folder of the plugin that stays and loads it: after ``install beta``, ``install gamma``
and ``uninstall beta``, ``.claude/commands/alpha/deploy.md`` (alpha not installed, /help's
"(project:alpha)") -> ``.claude/commands/gamma/deploy.md``, where ``install gamma`` alone
puts it.

A plugin that stays and only requires the command (it lists it as a dependency of a
member, `PluginRecord.required`) does not load it: in its folder the command would be
labelled as that plugin's, and installing the plugin again would not look for it there.
With no plugin that loads it staying, the command goes where installing what holds it
again puts it (that plugin, or the command by its own name): where a dependency goes,
where the index files it (`shared_commands`), which the record keeps
(`RecordEntry.dependency_path`): ``uninstall gamma`` after ``install beta alpha gamma``
and ``uninstall alpha`` moves ``.claude/commands/gamma/deploy.md`` back to
``.claude/commands/alpha/deploy.md``, where ``install beta`` alone puts it. A record
written before it kept that place leaves the command where it is, where installing it
again finds it.

It stays where it is, too, when the file is gone (the uninstall of that plugin says so later),
when another file already lies where it would go (the user's own, or another component's),
or when ``install --force`` replaced a file of the user's at its place (putting that back
is the uninstall of the command's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from skill_retriever.components.install.as_before import prune_empty
from skill_retriever.components.install.command_folders import first_plugin
from skill_retriever.components.install.inventory import InstallRecord, PluginRecord, RecordEntry
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import destination_name, safe_destination
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.components.install.uninstall_report import UninstallReport
from skill_retriever.model import NodeKind

__all__ = ["Move", "left_in_place", "move_shared", "moved_paths", "planned_moves"]


@dataclass(frozen=True)
class Move:
    """One recorded command file to move: ``old`` -> ``new``, below the folder of the
    plugin ``plugin``, which stays and holds it (None: no plugin that loads it stays, and
    ``new`` is where it goes as none of theirs)."""

    entry: RecordEntry
    old: str
    new: str
    plugin: str | None


def _folder(plugin: str) -> str | None:
    """The folder below which a plugin's commands are installed (None: its name makes no
    folder, and its commands install without one)."""
    try:
        return f"{LAYOUT[NodeKind.COMMAND].folder}/{destination_name(plugin)}"
    except UnsafePathError:
        return None


def planned_moves(record: InstallRecord, gone: Iterable[PluginRecord], going: Iterable[str]) -> list[Move]:
    """The moves uninstalling the plugins ``gone`` (already out of ``record.plugins``) and
    the components ``going`` calls for: each command that stays, recorded in the folder of
    a plugin of ``gone`` (or, held by one, where a dependency goes), to the folder of the recorded plugin that loads it
    (not one that only requires it) whose name sorts first, or with none, to where it goes as none of theirs (see the module)."""
    leaving = set(going)
    taken = {rel for e in record.components.values() for rel in e.files}
    out: list[Move] = []
    for plugin in gone:
        old_folder = _folder(plugin.name)
        for cid in plugin.components:
            entry = record.components.get(cid)
            if entry is None or cid in leaving or entry.kind != NodeKind.COMMAND.value:
                continue
            loading = {p.name: p for p in record.plugins.values() if cid in p.components and cid not in p.required}
            heir = loading.get(first_plugin(loading) or "")
            for rel in [r for r in entry.files if r not in entry.replaced_files]:
                new = _destination(rel, old_folder, heir, entry.dependency_path)
                if new is not None and new != rel and new not in taken:
                    taken.add(new)
                    out.append(Move(entry, rel, new, None if heir is None else heir.name))
    return out


def _destination(rel: str, old_folder: str | None, heir: PluginRecord | None, dependency_path: str) -> str | None:
    """Where the command file ``rel`` below ``old_folder`` goes: below the folder of
    ``heir``, the plugin that stays and loads it, or with none, ``dependency_path`` (None:
    nowhere, a name that makes no folder, or a recorded path not below the commands folder).
    At ``dependency_path`` instead (installed as a dependency of the plugin gone, then
    found there by ``heir``'s install), it goes below ``heir``'s folder too."""
    commands = LAYOUT[NodeKind.COMMAND].folder
    if rel == dependency_path and heir is not None and rel.startswith(f"{commands}/"):
        # the index files it under the first plugin that loads it: the folder after commands/
        old_folder = f"{commands}/{rel.removeprefix(f'{commands}/').split('/')[0]}"
    if old_folder is None or not rel.startswith(f"{old_folder}/"):
        return None
    if heir is not None:
        new_folder = _folder(heir.name)
        return None if new_folder is None else new_folder + rel.removeprefix(old_folder)
    return dependency_path if dependency_path.startswith(f"{commands}/") else None


def moved_paths(moves: Iterable[Move]) -> set[str]:
    """The paths ``moves`` write or remove (checked writable before anything changes)."""
    return {rel for m in moves for rel in (m.old, m.new)}


def left_in_place(old: str, new: str) -> str:
    """Why the command at ``old`` did not move to ``new`` (a file lies there)."""
    return f"left {old} where it is: {new}, where it would go, is there already"


def move_shared(root: Path, moves: Iterable[Move], report: UninstallReport) -> None:
    """Carry out ``moves`` in ``root`` and in their record entries; ``report`` says each
    (``moved``; ``unloaded``, one no plugin that stays loads), and why one stayed where it
    was (a note)."""
    for m in moves:
        try:
            old, new = safe_destination(root, m.old), safe_destination(root, m.new)
        except UnsafePathError as exc:
            holds = f", which plugin {m.plugin!r} holds," if m.plugin is not None else ""
            report.notes.append(f"left {m.old}{holds} where it is: {exc}")
            continue
        if not old.is_file():
            continue
        if new.exists() or new.is_symlink():
            report.notes.append(left_in_place(m.old, m.new))
            continue
        new.parent.mkdir(parents=True, exist_ok=True)
        old.rename(new)
        m.entry.files[m.new] = m.entry.files.pop(m.old)
        if m.old in m.entry.kept:
            m.entry.kept[m.new] = m.entry.kept.pop(m.old)
        report.moved[m.old] = m.new
        if m.plugin is None:
            report.unloaded.append(m.old)
        prune_empty(root, old.parent)
