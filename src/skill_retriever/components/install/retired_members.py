"""What a new version of an installed plugin no longer has, taken out by installing it again.

The record lists the components installing a plugin brought (`inventory.PluginRecord`).
When the plugin's source changed since (a member deleted, or renamed: a skill's folder
and ``name:`` changed, so it is another component), installing the plugin again plans,
for each member of the earlier version that the new one no longer has, a ``remove`` of
what that install wrote (`retired.dropped_files`, `retired.dropped_hooks`), as a single
component's dropped files are: left in place, a renamed skill would sit there twice and a
dropped hook would go on running. After the install, such a member whose record holds
nothing more is forgotten, by the plugin's record too (`forget_retired`).

A member stays, as uninstalling the plugin leaves it: one an install asked for by its own
name, one another plugin lists, one a component that stays requires, and one this install
brings anyway. Of a member that goes, a file the user changed since is kept (and stays
recorded: the member stays in the plugin's record, for ``uninstall`` to report), as is
every ``.mcp.json`` server it added (an install does not take servers out: a note says
to uninstall it by its name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.components.install.cases import path_key
from skill_retriever.components.install.claims import status_of
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import MCP_FILE
from skill_retriever.components.install.plan import ComponentPlan, InstallPlan
from skill_retriever.components.install.retired import dropped_files, dropped_hooks

__all__ = ["NO_LONGER", "forget_retired", "retire_members"]

#: How the reason of a member the new version of its plugin no longer has starts.
NO_LONGER = "not in this version of "


def retire_members(
    plans: Sequence[ComponentPlan],
    plugins: Mapping[str, Sequence[str]],
    root: Path,
    record: InstallRecord | None,
    settings: Mapping[str, Any] | None,
) -> list[ComponentPlan]:
    """``plans`` and a plan for each member of an earlier version of a plugin in
    ``plugins`` (id -> its members now) that this version no longer has (see the module).

    Args:
        record: The root's install record (None: none, or damaged: nothing is removed).
        settings: The root's ``settings.json`` (None: unreadable, no hook is removed).
    """
    out = list(plans)
    if record is None:
        return out
    planned = {c.id for c in plans}
    claimed = {path_key(f) for c in plans for f in c.files if f.hook is None and f.action != "refused"}
    hooks = [f.hook for c in plans for f in c.files if f.hook is not None]
    for plugin_id, members in plugins.items():
        held = record.plugins.get(plugin_id)
        if held is None:
            continue
        name = held.name or plugin_id
        gone = [i for i in held.components if i not in planned and i not in members and _goes(record, plugin_id, i)]
        why = f"an earlier version of {name} installed this; this version no longer has it"
        for old in gone:
            entry = record.components[old]
            others = [e for i, e in record.components.items() if i != old]
            actions, notes = dropped_files(entry, others, root, claimed, True, why)
            actions += dropped_hooks(entry, others, hooks, settings, why)
            notes += [
                f"left {MCP_FILE}#{server}: an install does not take a server out; "
                f"run `uninstall {entry.name}` to take it back"
                for server in entry.mcp
            ]
            reason = "; ".join([f"{NO_LONGER}{name}", *notes])
            out.append(ComponentPlan(old, entry.kind, entry.name, status_of(actions), tuple(actions), reason))
            planned.add(old)
    return out


def _goes(record: InstallRecord, plugin_id: str, old: str) -> bool:
    """Whether the plugin's earlier member ``old`` goes with it: recorded, asked for as a
    member and not by its own name, listed by no other plugin, required by no other
    recorded component."""
    entry = record.components.get(old)
    if entry is None or not entry.asked or entry.named:
        return False
    if any(old in p.components for i, p in record.plugins.items() if i != plugin_id):
        return False
    return not any(old in e.requires or old in e.brought for i, e in record.components.items() if i != old)


def forget_retired(plan: InstallPlan, record: InstallRecord) -> None:
    """After ``plan`` was written: forget each retired member (`retire_members`) whose
    record holds nothing more, by the components and the plugins' records alike."""
    done = [
        c.id
        for c in plan.components
        if c.reason.startswith(NO_LONGER)
        and c.id in record.components
        and record.components[c.id].empty
        and not (record.components[c.id].kept or record.components[c.id].earlier)
    ]
    for i in done:
        del record.components[i]
    record.forget(done)
