"""What installing a component brought along, and taking that back with it.

At install (`note_brought`): each component the install was asked for by name (on the
command line, or as a member of a plugin) is marked ``asked``, and ``named`` too when it
was asked for by its own id or name (uninstalling a plugin then leaves it); each component recorded
keeps the ids it requires directly; and each one asked for keeps the dependencies this
install newly added for it: reached through what it requires, recorded by no earlier
install, and not asked for by name in this one.

What a plugin's new version no longer has that an install took out is forgotten
(`retired_members.forget_retired`).

At uninstall (`taken_along`): what the chosen components brought (and what that, in
turn, brought) goes with them, unless an install asked for it by name, or a component
that stays recorded brought it or needs it (through the ids the record says each one
requires), or a plugin that stays lists it. The record alone decides: the index is not
read. What stays because another component needs it is handed to the components that
need it, so that uninstalling them later takes it back. A record of an older version
says nothing of this: its components go alone, as they did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.plan import InstallPlan
from skill_retriever.components.install.retired_members import forget_retired

__all__ = ["note_brought", "taken_along"]


def _reach(start: Iterable[str], edges: Callable[[str], Iterable[str]]) -> list[str]:
    """``start`` and every id reached from it along ``edges``, in the order first reached."""
    seen = dict.fromkeys(start)
    queue = list(seen)
    while queue:
        for nxt in edges(queue.pop(0)):
            if nxt not in seen:
                seen[nxt] = None
                queue.append(nxt)
    return list(seen)


def note_brought(plan: InstallPlan, record: InstallRecord, before: set[str]) -> None:
    """Record what each component of the applied ``plan`` requires, which ones were asked
    for, and what installing those newly added (``before``: the ids recorded until now)."""
    done = [
        c
        for c in plan.components
        if c.status in ("install", "unchanged") and c.id in record.components
    ]
    for c in done:
        record.components[c.id].requires = list(plan.requires.get(c.id, ()))
    wanted = {c.id for c in plan.components if not c.required_by}
    added = {c.id for c in done if c.status == "install" and c.id not in before} - wanted
    for c in done:
        if c.id not in wanted:
            continue
        entry = record.components[c.id]
        entry.asked = True
        entry.named = entry.named or c.id in plan.named
        got = [i for i in _reach([c.id], lambda i: plan.requires.get(i, ())) if i in added]
        entry.brought = sorted({*entry.brought, *got})
    forget_retired(plan, record)  # a plugin's members its new version no longer has


def _needs(record: InstallRecord) -> Callable[[str], list[str]]:
    """What a recorded component needs kept: what it requires and what it brought."""

    def needs(i: str) -> list[str]:
        entry = record.components.get(i)
        return [*entry.requires, *entry.brought] if entry is not None else []

    return needs


@dataclass(frozen=True)
class _Along:
    """What an uninstall takes along, and what it keeps because others need it."""

    taken: list[str]
    kept: set[str]


def _sweep(record: InstallRecord, chosen: list[str]) -> _Along:
    comps = record.components
    going = set(chosen)

    def brought(i: str) -> list[str]:
        entry = comps.get(i)
        return entry.brought if entry is not None and (i in going or not entry.asked) else []

    candidates = [
        i for i in _reach(chosen, brought) if i in comps and i not in going and not comps[i].asked
    ]
    maybe = set(candidates)
    roots = [i for i in comps if i not in going and i not in maybe]
    roots += [  # listed by a plugin that stays
        c
        for p in record.plugins.values()
        if not set(p.components) <= going
        for c in p.components
        if c in maybe
    ]
    needed = set(_reach(roots, _needs(record)))
    return _Along([i for i in candidates if i not in needed], maybe & needed)


def taken_along(record: InstallRecord, chosen: list[str]) -> list[str]:
    """The recorded ids uninstalling ``chosen`` takes along (see the module docstring).
    What stays because a component that stays needs it is added to that component's
    ``brought``."""
    along = _sweep(record, chosen)
    staying = set(record.components) - set(chosen) - set(along.taken) - along.kept
    for i in sorted(staying) if along.kept else ():
        handed = along.kept.intersection(_reach([i], _needs(record)))
        if handed:
            entry = record.components[i]
            entry.brought = sorted({*entry.brought, *handed})
    return along.taken
