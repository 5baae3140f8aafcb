"""A marketplace's entry for a plugin whose files the same install writes.

A plugin that a marketplace only lists (its files kept in another repository) is planned
as skipped, saying "install it in Claude Code (/plugin install <plugin>@<marketplace>), or
get those files, index them and install its components". A user who did the latter and
then installed both (the clone's plugin and the entry, as `query` lists both) was told,
beside the plugin being written, that its files were "kept at ..., which this index does
not hold", with /plugin install as the way on, and the install ended "not ok". The entry
adds nothing to a plugin of its name that the same install brings, so it is dropped from
the ids there (`drop_listed_twins`); asked for alone, its skip names the plugin of that name
that the index holds with components (`twins`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skill_retriever.components.closure import plugin_members
from skill_retriever.components.install.inventory import INSTALLABLE
from skill_retriever.components.view import CallerView
from skill_retriever.model import Node, NodeKind

__all__ = ["drop_listed_twins", "twins"]


def drop_listed_twins(view: CallerView, ids: Sequence[str], plugins: Mapping[str, Sequence[str]]) -> list[str]:
    """``ids`` without each memberless plugin (one left as itself by `expand_plugins`)
    that shares its name with a plugin of ``plugins``, which the same install expands into
    its members."""
    brought = {view.get(p).name.casefold() for p in plugins if p in view}
    return [
        i for i in ids
        if not (view.get(i).kind is NodeKind.PLUGIN and view.get(i).name.casefold() in brought)
    ]


def twins(view: CallerView | None, plugin: Node) -> list[str]:
    """The ids of the other plugins of ``plugin``'s name that ``view`` holds with
    installable members (its files, indexed from a clone); none without a view."""
    if view is None:
        return []
    members = plugin_members(view, INSTALLABLE)
    return sorted(
        n.id for n in view.named(plugin.name)
        if n.kind is NodeKind.PLUGIN and n.id != plugin.id and members(n.id)
    )
