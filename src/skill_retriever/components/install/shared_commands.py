"""Which plugin's folder below ``.claude/commands`` a command goes in when several plugins
load it.

Several marketplace entries at one root (each ``"source": "./"``) may load one command
file, as ``commands/deploy.md`` is loaded by every entry that keeps the default
``commands/`` folder; the index files it under the first entry's name
(`ingest.command_places.in_plugin`), so installing another of those plugins wrote it in
the first one's folder. Claude Code names a plugin's commands by the plugin installed
(``/beta:deploy``), so the command goes under a plugin being installed: `install beta`
writes ``.claude/commands/beta/deploy.md``.

One copy is written (copied out of its plugin Claude Code calls it ``/deploy`` in either
folder, and a second copy would be a second ``/deploy``), in the folder of the plugin whose
name sorts first (case aside) of those that load it and are installed, or being installed,
whole: ``alpha`` and ``beta`` installed give ``.claude/commands/alpha/deploy.md`` in either
order, one run or two. It went in the folder of whichever was installed first, so the same
set installed in another order gave another tree (/help labels it "(project:alpha)" or
"(project:beta)"). Installing ``alpha`` after ``beta`` moves it: the plan writes
``alpha/deploy.md`` and removes ``beta/deploy.md``, saying why (`moved_reasons`); uninstalling
``alpha`` while ``beta`` stays moves it back (`shared_moves`, which picks the same way). It
stays where it is recorded when the user changed it there (moved, the change would be
taken for the install's) or a file of the user's lies where it would go. A command loaded
by one plugin, or installed by its own name, goes where the index filed it.

A command several plugins load that is installed as none of theirs (a dependency of another
plugin's member, or by its own name) goes where the index filed it, too: the record keeps
that place (`dependency_paths`), and an uninstall that leaves the command with no plugin
that loads it moves it there, where installing what holds it again puts it (`shared_moves`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.command_folders import command_name, first_plugin
from skill_retriever.components.install.inventory import InstallRecord, sha256
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import ComponentPlan, InstallError, UnsafePathError
from skill_retriever.components.install.retired import RETIRED
from skill_retriever.components.view import CallerView
from skill_retriever.model import EdgeKind, Node, NodeKind

__all__ = ["dependency_paths", "moved_reasons", "plugin_folders"]


def plugin_folders(
    view: CallerView, nodes: Sequence[Node], plugins: Mapping[str, tuple[str, ...]], root: Path
) -> dict[str, str]:
    """Id -> the name of the plugin whose folder each command of ``nodes`` that several
    visible plugins load goes in (see the module); ``plugins``: those asked for, each ->
    its members."""
    record = _record(root)
    installed = list(record.plugins.values()) if record else []
    out: dict[str, str] = {}
    for node in nodes:
        if node.kind is not NodeKind.COMMAND:
            continue
        loaders = _loaders(view, node)
        if len(loaders) < 2:
            continue
        names = {view.get(p).name for p, members in plugins.items() if node.id in members}
        names |= {p.name for p in installed if node.id in p.components and node.id not in p.required}
        files = record.components[node.id].files if record and node.id in record.components else {}
        here = next(((n, p) for n in loaders if (p := _path(node, n)) in files and p is not None), None)
        chosen = first_plugin(n for n in loaders if n in names)
        if here is not None and (chosen in (None, here[0]) or _stays(root, node, here[1], chosen, files)):
            out[node.id] = here[0]  # (chosen None: installed as none of theirs, found where it lies)
        elif chosen is not None:
            out[node.id] = chosen
    return out


def moved_reasons(plans: Sequence[ComponentPlan], under: Mapping[str, str]) -> list[ComponentPlan]:
    """``plans`` with the reason of each ``remove`` of a command of ``under`` that a plugin
    folder's change calls for (`retired` gives it "no longer has it") saying where it goes
    and why."""
    out = []
    for c in plans:
        plugin = under.get(c.id)
        new = next((f.path for f in c.files if f.action in ("create", "overwrite", "unchanged")), None)
        if plugin is None or new is None:
            out.append(c)
            continue
        why = (f"moved to {new}: of the plugins installed here that load it, {plugin!r} sorts first, "
               "and its folder holds it whatever order they were installed in")
        files = tuple(replace(f, reason=why) if f.action == "remove" and f.reason == RETIRED else f for f in c.files)
        out.append(replace(c, files=files))
    return out


def _stays(root: Path, node: Node, at: str, chosen: str | None, files: Mapping[str, str]) -> bool:
    """``node``'s file recorded at ``at`` (``files``: path -> SHA-256 written) stays there
    rather than move to ``chosen``'s folder: the user changed it, or a file the record does
    not list lies where it would go."""
    try:
        data = safe_destination(root, at).read_bytes()
    except (OSError, UnsafePathError):  # gone, or unreadable: installing writes it anew
        return False
    return sha256(data) != files[at] or (chosen is not None and _taken(root, node, chosen, files))


def _taken(root: Path, node: Node, plugin: str, files: Mapping[str, str]) -> bool:
    """A file ``files`` does not list lies where ``node`` goes under ``plugin``'s folder."""
    there = _path(node, plugin)
    if there is None or there in files:
        return False
    try:
        return safe_destination(root, there).exists()
    except UnsafePathError:
        return False


def dependency_paths(view: CallerView, nodes: Sequence[Node]) -> dict[str, str]:
    """Id -> where each command of ``nodes`` that several visible plugins load goes as none
    of theirs (see the module), for the install record."""
    out: dict[str, str] = {}
    for node in nodes:
        if node.kind is NodeKind.COMMAND and len(_loaders(view, node)) > 1 and (path := _path(node, None)):
            out[node.id] = path
    return out


def _loaders(view: CallerView, node: Node) -> list[str]:
    """The names of the visible plugins that load ``node``."""
    return [view.get(e.target).name for e in view.out_edges(node.id, EdgeKind.PART_OF)
            if view.get(e.target).kind is NodeKind.PLUGIN]


def _path(node: Node, plugin: str | None) -> str | None:
    """Where ``node`` goes under ``plugin``'s folder, or where the index files it for no
    ``plugin`` (None: a name no file may have, which `render` refuses)."""
    try:
        return LAYOUT[NodeKind.COMMAND].path(command_name(node, plugin)[0])
    except UnsafePathError:
        return None


def _record(root: Path) -> InstallRecord | None:
    """The root's install record (None: none, or one that cannot be read, which the plan
    says elsewhere)."""
    try:
        return InstallRecord.load(root) if root.is_dir() else None
    except InstallError:
        return None
