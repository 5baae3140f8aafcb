"""What the names given to an uninstall stand for in the install record.

A name is a recorded component's id or name, or a plugin's id or name (its members still
recorded, and what installing it brought). A plugin's member that an install also asked
for by its own id or name (``RecordEntry.named``) stays when only the plugin is named:
the user asked for it apart from the plugin.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import RECORD_FILE
from skill_retriever.components.install.plan import InstallError

__all__ = ["Picked", "pick"]


@dataclass
class Picked:
    """What the refs of an uninstall name: the recorded ids, the plugins named, and the
    members of those plugins that stay (name -> why)."""

    ids: list[str]
    plugins: list[str]
    stayed: dict[str, str]


def pick(record: InstallRecord, refs: Iterable[str]) -> Picked:
    """Recorded ids for ``refs``: a component id or name, or a plugin id or name (its
    components still recorded), whatever one recorded thing answers to. A plugin's member
    that an install also asked for by its own name stays, unless a ref names it too."""
    direct: list[str] = []
    members: dict[str, str] = {}  # member id -> the plugin that names it
    plugins: list[str] = []

    def add_plugin(plugin_id: str) -> None:
        plugins.append(plugin_id)
        for c in record.plugins[plugin_id].components:
            if c in record.components:
                members.setdefault(c, plugin_id)

    for ref in refs:
        if ref in record.components:
            direct.append(ref)
            continue
        if ref in record.plugins:
            add_plugin(ref)
            continue
        key = ref.casefold()
        named = [("", i) for i, e in record.components.items() if e.name.casefold() == key]
        named += [(p, "") for p, rec in record.plugins.items() if rec.name.casefold() == key]
        if len(named) != 1:
            listing = ", ".join(sorted(record.components)[:10]) or "nothing"
            names = ", ".join(sorted(p.name for p in record.plugins.values())[:10])
            what = f"{len(named)} components named" if named else "no component"
            raise InstallError(
                f"{what} {ref!r} installed in {record.root} by skill-retriever "
                f"(its record {RECORD_FILE} lists {listing}"
                + (f"; plugins {names}" if names else "")
                + "); give a recorded id"
            )
        plugin_id, node_id = named[0]
        if plugin_id:
            add_plugin(plugin_id)
        else:
            direct.append(node_id)
    stayed: dict[str, str] = {}
    ids = list(direct)
    for c, plugin_id in members.items():
        entry = record.components[c]
        if c in direct or not entry.named:
            ids.append(c)
            continue
        stayed[entry.name] = (
            f"an install asked for it by its own name, not only as part of plugin "
            f"{record.plugins[plugin_id].name!r}: uninstall {entry.name!r} to remove it too"
        )
    return Picked(list(dict.fromkeys(ids)), list(dict.fromkeys(plugins)), stayed)
