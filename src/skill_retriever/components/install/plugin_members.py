"""Which components each plugin of an install brought, noted in the install record so that
uninstalling the plugin takes back exactly those.

A plugin holds its members and every dependency they require (through what that requires
in turn), whether this install wrote it or found it installed already, by an earlier
install or by another plugin of this one: a package manager counts a dependency as owned
by each package that needs it. Listed only when this install added it, ``deploy``, which
``gamma`` loads and ``beta``'s agent requires, kept ``uninstall gamma`` from going through
after ``install gamma`` then ``install beta`` (refused: "deploy is required by auditor")
where after ``install beta`` then ``install gamma`` it went through, keeping deploy for
beta. A record written before lists what it listed, and reads as it did.
"""

from __future__ import annotations

from skill_retriever.components.install.inventory import InstallRecord, PluginRecord
from skill_retriever.components.install.plan import InstallPlan

__all__ = ["record_plugins"]


def record_plugins(plan: InstallPlan, record: InstallRecord) -> None:
    """Record, for each plugin of the plan, the components installing it brought or found:
    its members, and what they require (listed as ``required`` too: the plugin does not
    load those). Uninstalling the plugin by its id or name takes back those that nothing
    else holds or needs (`picked`, `needed_dependencies`)."""
    for plugin_id, members in plan.plugins.items():
        brought = {m for m in members if m in record.components}
        queue = list(brought)
        while queue:
            for dep in plan.requires.get(queue.pop(), ()):
                if dep in record.components and dep not in brought:
                    brought.add(dep)
                    queue.append(dep)
        if not brought:
            continue
        name = plan.names.get(plugin_id, plugin_id)
        held = record.plugins.setdefault(plugin_id, PluginRecord(name))
        held.name = name
        held.marketplace = plan.marketplaces.get(plugin_id, held.marketplace)
        held.components = sorted(set(held.components) | brought)
        # one it loads now is a member, whatever an earlier install brought it as
        held.required = sorted((set(held.required) | brought) - set(members))
