"""Which plugin's folder below ``.claude/commands`` a command goes in when several plugins
load it.

Several marketplace entries at one root (each ``"source": "./"``) may load one command
file, as ``commands/deploy.md`` is loaded by every entry that keeps the default
``commands/`` folder; the index files it under the first entry's name
(`ingest.command_places.in_plugin`), so installing another of those plugins wrote it in
the first one's folder. Claude Code names a plugin's commands by the plugin installed
(``/beta:deploy``), so the command goes under the plugin being installed: `install beta`
writes ``.claude/commands/beta/deploy.md``.

One copy is written: a command already recorded in the target under the folder of a
plugin that loads it stays there (reinstalling, or installing a second plugin that loads
it, leaves it: copied out of its plugin Claude Code calls it ``/deploy`` in either folder,
and a second copy would be a second ``/deploy``); uninstalling that plugin while another
that loads it stays moves it to the other's folder (`shared_moves`). A command loaded by one plugin, or
installed by its own name, goes where the index filed it.

A command several plugins load that is installed as none of theirs (a dependency of another
plugin's member, or by its own name) goes where the index filed it, too: the record keeps
that place (`dependency_paths`), and an uninstall that leaves the command with no plugin
that loads it moves it there, where installing what holds it again puts it (`shared_moves`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from skill_retriever.components.install.command_folders import command_name
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.plan import InstallError, UnsafePathError
from skill_retriever.components.view import CallerView
from skill_retriever.model import EdgeKind, Node, NodeKind

__all__ = ["dependency_paths", "plugin_folders"]


def plugin_folders(
    view: CallerView, nodes: Sequence[Node], plugins: Mapping[str, tuple[str, ...]], root: Path
) -> dict[str, str]:
    """Id -> the name of the plugin whose folder each command of ``nodes`` that several
    visible plugins load goes in (see the module); ``plugins``: those asked for, in the
    order given, each -> its members."""
    recorded = _recorded_files(root)
    out: dict[str, str] = {}
    for node in nodes:
        if node.kind is not NodeKind.COMMAND:
            continue
        loaders = _loaders(view, node)
        if len(loaders) < 2:
            continue
        files = recorded.get(node.id, {})
        kept = next((name for name in loaders if _path(node, name) in files), None)
        asked = next((view.get(p).name for p, members in plugins.items() if node.id in members), None)
        if (chosen := kept or asked) is not None:
            out[node.id] = chosen
    return out


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


def _recorded_files(root: Path) -> dict[str, dict[str, str]]:
    """Each recorded component's files (none: no record, or one that cannot be read, which
    the plan says elsewhere)."""
    try:
        record = InstallRecord.load(root) if root.is_dir() else None
    except InstallError:
        return {}
    return {i: e.files for i, e in record.components.items()} if record else {}
