"""A ``settings.json`` hook that an install added and the user changed since, found again
when the component is installed again.

`has_hook` looks for an equal hook: one the user gave a ``timeout`` (or any other edit)
is not equal, so installing the component again added a second copy next to it (Claude
Code then runs both), and an uninstall afterwards took back that copy and reported the
user's as gone, keeping the script it runs. A file the user edited is told apart from one
of theirs by the install record (`file_action`); a hook is told the same way: the record
of this component holds exactly the hook this version renders (it is the one installed
then), and ``settings.json`` no longer holds it as written, but holds, under the same
event, a hook that no install recorded as written and that runs what the installed one
ran: its very command line (another field changed: a timeout, a status message, the
matcher the user moved it to), or, when the user changed the command itself, a script of
the component's that the installed command ran (the rule `uninstall` uses to keep a
changed hook). A hook of the matcher's own group is preferred to one the user moved.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.hook_fields import what_it_runs
from skill_retriever.components.install.hook_scripts import runs

__all__ = ["changed_copy", "put_back"]


def _matcher(group: Mapping[str, Any]) -> str:
    """Claude Code reads a group without ``matcher`` as one whose matcher is ``""``."""
    matcher = group.get("matcher")
    return matcher if isinstance(matcher, str) else ""


def _hooks_of(settings: Mapping[str, Any], event: str) -> Iterator[HookEntry]:
    """Every hook object of ``event``'s groups, whatever else the file holds (a user's
    file may hold anything)."""
    hooks = settings.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, Mapping) else None
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, Mapping) else None
        for hook in inner if isinstance(inner, list) else []:
            if isinstance(hook, Mapping):
                matcher = group.get("matcher")
                yield HookEntry(event, matcher if isinstance(matcher, str) else None, dict(hook))


def changed_copy(
    settings: Mapping[str, Any],
    entry: HookEntry,
    installed: Sequence[HookEntry],
    scripts: Iterable[str],
    owned: Callable[[HookEntry], bool],
) -> HookEntry | None:
    """The hook of ``settings`` that is ``entry`` as this component installed it, changed
    by the user since (see the module), or None.

    Args:
        entry: The hook as this version renders it; not in ``settings`` as written.
        installed: The hooks the record holds for this component.
        scripts: The files the record holds for this component.
        owned: Whether some install recorded a hook exactly as written: such a hook is
            that install's, not this one changed.
    """
    command = what_it_runs(entry.hook)
    if entry not in installed or not command:
        return None
    ran = [rel for rel in scripts if runs(rel, command)]
    found = [
        h
        for h in _hooks_of(settings, entry.event)
        if not owned(h)
        and (line := what_it_runs(h.hook))
        and (line == command or any(runs(rel, line) for rel in ran))
    ]
    mine = entry.matcher or ""
    return next((h for h in found if (h.matcher or "") == mine), found[0] if found else None)


def put_back(settings: Mapping[str, Any], pairs: Iterable[tuple[HookEntry, HookEntry]]) -> dict[str, Any]:
    """``settings`` with each changed hook (the first of a pair) replaced by the installed
    one (the second) where it stands, so the group keeps its order; the input is not
    changed. A hook the user moved to another matcher's group is taken out of it instead
    (and the group with it, once empty): `settings.merge_hooks` then adds the installed
    one to its own group."""
    out = copy.deepcopy(dict(settings))
    for old, new in pairs:
        hooks = out.get("hooks")
        groups = hooks.get(old.event) if isinstance(hooks, dict) else None
        if not isinstance(groups, list):
            continue
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if _matcher(group) != (old.matcher or "") or not isinstance(inner, list) or old.hook not in inner:
                continue
            at = inner.index(old.hook)
            if _matcher(group) == (new.matcher or ""):
                inner[at] = copy.deepcopy(dict(new.hook))
            else:
                del inner[at]
                if not inner:
                    groups.remove(group)
            break
    return out
