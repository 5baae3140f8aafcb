"""A plugin's dependency that a component staying installed needs stays with that component.

A plugin's record lists what its members require besides its members (`PluginRecord.required`,
`plugin_members`): a dependency the plugin does not load. Uninstalling the plugin takes
such a dependency back only when nothing staying needs it, as a package manager removes an
unneeded dependency and keeps a needed one: ``auditor``, a member of ``beta`` installed by
its own name too, stays when beta goes, and so does ``deploy``, which auditor requires.
(A member the plugin loads is another matter: one a component that stays requires is
refused, `still_required`.) The dependency is handed to what needs it, so uninstalling
that later takes it along (`brought`); it is no plugin's member any more, so it is no
longer ``asked`` for.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from skill_retriever.components.install.inventory import InstallRecord

__all__ = ["still_needed"]


def still_needed(
    record: InstallRecord, members: Mapping[str, str], plugins: Collection[str], going: Collection[str]
) -> dict[str, list[str]]:
    """Of ``members`` (id -> a plugin of ``plugins``, those uninstalled, that lists it),
    each that every plugin of ``plugins`` listing it only requires and that a component
    outside ``going`` (what the uninstall takes otherwise) requires or brought, directly or
    through another such dependency -> the ids of those components, in the record's order.
    Each is handed to them (see the module)."""
    deps = {
        c for c in members
        if all(c in record.plugins[p].required for p in plugins if c in record.plugins[p].components)
    }
    leaving = set(going)
    out: dict[str, list[str]] = {}
    grew = True
    while grew:  # a dependency kept keeps what it needs in turn
        grew = False
        for dep in sorted(deps & leaving):
            users = [i for i, e in record.components.items()
                     if i not in leaving and i != dep and (dep in e.requires or dep in e.brought)]
            if users:
                out[dep] = users
                leaving.discard(dep)
                grew = True
    for dep, users in out.items():
        for user in users:
            entry = record.components[user]
            entry.brought = sorted({*entry.brought, dep})
        record.components[dep].asked = False
    return out
