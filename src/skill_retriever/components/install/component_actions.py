"""What installing one component does to the target: its files, hooks and server, against what is there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from skill_retriever.advice import Word
from skill_retriever.components.install.cases import CaseFolders, case_twins_note
from skill_retriever.components.install.changed_hooks import changed_copy
from skill_retriever.components.install.claims import status_of
from skill_retriever.components.install.file_action import (
    CHANGED,
    SERVER_KEPT,
    YOURS,
    file_action,
    theirs,
)
from skill_retriever.components.install.hooks_disabled import disabled_by, disabled_note
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import MCP_FILE, SETTINGS_FILE
from skill_retriever.components.install.local_hooks import (
    LOCAL_SETTINGS_FILE,
    in_local,
    local_note,
    read_local_hooks,
)
from skill_retriever.components.install.paths import server_key
from skill_retriever.components.install.placeholders import unfilled_notes
from skill_retriever.components.install.plan import (
    ComponentPlan,
    FileAction,
    HookEntry,
    InstallError,
    Status,
)
from skill_retriever.components.install.rendered import Rendered
from skill_retriever.components.install.server_action import server_action
from skill_retriever.components.install.settings import check_settings, has_hook, read_json_object
from skill_retriever.components.install.unshipped_scripts import judge
from skill_retriever.model import Node

__all__ = ["Shared", "has_group", "plan_component", "read_record"]


def read_record(root: Path) -> InstallRecord | None:
    """The install record at ``root``, read once per plan (`Shared`, `same_folder`); None
    where it cannot be read: a damaged record, of which nothing is known."""
    try:
        return InstallRecord.load(root)
    except InstallError:
        return None


class Shared:
    """What every component's plan reads of the root, once per plan: its shared JSON
    files, its folders' listings (`cases`), and how an uninstall command names it."""

    def __init__(self, root: Path, planned: list[str], scope: str, record: InstallRecord | None) -> None:
        self.cases = CaseFolders(root, planned)
        self.planned = frozenset(planned)  # what every component writes
        self.where: list[Word] = ["--user"] if scope == "user" else ["--target", root]
        self.mcp, self.mcp_why = read_json_object(root, MCP_FILE, "mcpServers")
        self.settings, self.settings_why = read_json_object(root, SETTINGS_FILE, "hooks")
        self.local = read_local_hooks(root, scope)  # the user's own hooks: read, never written
        # a file that turns every hook off (the local one is read over the shared one)
        self.hooks_off = disabled_by({LOCAL_SETTINGS_FILE: self.local, SETTINGS_FILE: self.settings})
        if self.settings is not None and (why := check_settings(self.settings)):
            self.settings, self.settings_why = (
                None,
                f"the existing {SETTINGS_FILE}: {why}; fix it first",
            )
        self.record = record  # what each recorded component wrote (`read_record`)
        components = self.record.components if self.record else {}
        self.files = {i: e.files for i, e in components.items()}
        self.names = {i: e.name for i, e in components.items()}
        self.servers = {i: e.mcp for i, e in components.items()}

    def owner(self, node_id: str, rel: str, digest: str) -> tuple[str, str] | None:
        """Another recorded component that wrote exactly ``digest`` at ``rel`` (its name and id)."""
        return next(((self.names[i], i) for i, f in self.files.items() if i != node_id and f.get(rel) == digest), None)

    def writer(self, node_id: str, rel: str) -> tuple[str, str] | None:
        """Another recorded component that wrote ``rel``, whatever it holds now (its name and id)."""
        return next(((self.names[i], i) for i, f in self.files.items() if i != node_id and rel in f), None)

    def changed_hook(self, node_id: str, entry: HookEntry) -> HookEntry | None:
        """The hook of ``settings.json`` that is ``entry`` as this component installed it,
        changed by the user since (`changed_hooks`), or None."""
        mine = self.record.components.get(node_id) if self.record else None
        if mine is None or self.settings is None or self.record is None:
            return None
        return changed_copy(self.settings, entry, mine.hooks, mine.files, self.record.owns_hook)

    def server_owner(self, node_id: str, name: str, entry: Any) -> tuple[str, str] | None:
        """Another recorded component that wrote exactly ``entry`` as server ``name`` (its name and id)."""
        return next(((self.names[i], i) for i, m in self.servers.items() if i != node_id and m.get(name) == entry), None)


def plan_component(
    node: Node,
    out: Rendered | tuple[Status, str],
    needed: tuple[str, ...],
    via: tuple[str, ...],
    requirers: tuple[tuple[str, str], ...],
    root: Path,
    force: bool,
    shared: Shared,
) -> ComponentPlan:
    """One component's plan: what each of its files, hooks and server would do in ``root``
    (``out`` rendered), or its status and why when it was not rendered."""
    def plan(status: Status, actions: Sequence[FileAction] = (), reason: str = "") -> ComponentPlan:
        return ComponentPlan(
            node.id, node.kind.value, node.name, status, tuple(actions), reason, needed, via=via, requirers=requirers
        )

    if not isinstance(out, Rendered):
        status, why = out
        return plan(status, reason=why)
    ours = shared.files.get(node.id, {})
    owner = partial(shared.owner, node.id)
    writer = partial(shared.writer, node.id)
    actions = [file_action(root, f, force, shared.cases, ours, owner, shared.where, writer) for f in out.files]
    actions += _entry_actions(node, out, shared, force)
    hooks = [a.action for a in actions if a.hook is not None]  # all unchanged: an earlier install's
    verdict = judge(out.needs, root, shared.planned, force, bool(hooks) and set(hooks) == {"unchanged"})
    if verdict.skip:  # a script it runs is missing: written, the hook would fail (or block)
        return plan("skipped", reason="; ".join([verdict.skip, *out.notes]))  # notes: why (not on disk...)
    notes = [*_notes_on_values(out, actions), *verdict.notes, case_twins_note(f.rel for f in out.files)]
    if out.hooks and shared.hooks_off:
        notes.append(disabled_note(shared.hooks_off))
    done = plan(status_of(actions), actions, "; ".join(n for n in notes if n))
    return replace(done, left_out_keys=tuple(out.left_out_keys)) if out.left_out_keys else done


def _notes_on_values(out: Rendered, actions: Sequence[FileAction]) -> list[str]:
    """``out``'s notes, where the user filled in a server's placeholders: what its entry
    in ``.mcp.json`` still leaves to fill in, not what the rendered one does."""
    filled = next((a.mcp_values for a in actions if a.mcp_values is not None), None)
    if filled is None or out.mcp_entry is None:
        return list(out.notes)
    stale = set(unfilled_notes(out.mcp_entry))
    return [n for n in out.notes if n not in stale] + unfilled_notes(filled)


def _entry_actions(node: Node, out: Rendered, shared: Shared, force: bool) -> list[FileAction]:
    actions: list[FileAction] = []
    for entry in out.hooks:
        path = f"{SETTINGS_FILE}#{entry.where}"
        if shared.settings is None:
            actions.append(FileAction(path, "refused", shared.settings_why, hook=entry))
        elif has_hook(shared.settings, entry):
            actions.append(FileAction(path, "unchanged", hook=entry))
        elif (changed := shared.changed_hook(node.id, entry)) is not None:
            actions.append(_changed_hook(path, entry, changed, force))
        else:
            why = local_note(entry) if in_local(shared.local, entry) else ""
            actions.append(FileAction(path, "create", why, hook=entry, in_group=has_group(shared.settings, entry)))
    if out.mcp_entry is not None:
        name = server_key(node.name)
        path = f"{MCP_FILE}#{name}"
        if shared.mcp is None:
            return actions + [FileAction(path, "refused", shared.mcp_why, mcp_entry=out.mcp_entry)]
        current = shared.mcp.get("mcpServers", {}).get(name)
        other = None if current is None else shared.server_owner(node.id, name, current)
        others = None if other is None else theirs(other, "configured", shared.where)
        mine = shared.servers.get(node.id, {}).get(name)
        action = server_action(path, out.mcp_entry, current, mine, force, others)
        forced = action.action == "overwrite" and not action.reason  # the user's own entry
        actions.append(replace(action, reason=SERVER_KEPT) if forced else action)
    return actions


def _changed_hook(path: str, entry: HookEntry, changed: HookEntry, force: bool) -> FileAction:
    """What becomes of a hook this version installed and the user changed since: as for a
    file (`file_action`), the user's edit is theirs and no second copy is added; ``force``
    puts the installed hook back in its place. Nothing keeps the user's version then (a
    hook has no backup file, and the record keeps none): the line says so."""
    if not force:
        return FileAction(path, "unchanged", YOURS, hook=entry)
    why = f"{CHANGED}; force puts the installed version back in its place (your change is not kept)"
    return FileAction(path, "overwrite", why, hook=entry, replaces=changed)


def has_group(settings: Mapping[str, Any], entry: HookEntry) -> bool:
    """Whether ``settings`` holds a group of ``entry``'s event and matcher that takes hooks
    (a group without ``matcher`` is the one of ``""``, as Claude Code reads it): the hook
    joins it (`settings.merge_hooks`), which the plan line says."""
    hooks = settings.get("hooks")
    groups = hooks.get(entry.event) if isinstance(hooks, Mapping) else None
    mine = entry.matcher or ""
    return any(
        isinstance(g, Mapping) and (g.get("matcher") or "") == mine and isinstance(g.get("hooks"), list)
        for g in groups or ()
    )
