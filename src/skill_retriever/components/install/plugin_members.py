"""Which components each plugin of an install brought, noted in the install record so that
uninstalling the plugin takes back exactly those."""

from __future__ import annotations

from skill_retriever.components.install.inventory import InstallRecord, PluginRecord
from skill_retriever.components.install.plan import InstallPlan

__all__ = ["record_plugins"]


def record_plugins(plan: InstallPlan, record: InstallRecord, before: set[str]) -> None:
    """Record, for each plugin of the plan, the components installing it brought: its
    members, and what they alone required that this install newly recorded (listed as
    ``required`` too: the plugin does not load those). Uninstalling the plugin by its id or
    name takes back exactly those."""
    for plugin_id, members in plan.plugins.items():
        brought = {m for m in members if m in record.components}
        grew = True
        while grew:  # a requirement is the plugin's when every component needing it is
            grew = False
            for c in plan.components:
                if (
                    c.id not in brought
                    and c.id in record.components
                    and c.id not in before
                    and c.required_by
                    and set(c.required_by) <= brought
                ):
                    brought.add(c.id)
                    grew = True
        if not brought:
            continue
        name = plan.names.get(plugin_id, plugin_id)
        held = record.plugins.setdefault(plugin_id, PluginRecord(name))
        held.name = name
        held.marketplace = plan.marketplaces.get(plugin_id, held.marketplace)
        held.components = sorted(set(held.components) | brought)
        # one it loads now is a member, whatever an earlier install brought it as
        held.required = sorted((set(held.required) | brought) - set(members))
