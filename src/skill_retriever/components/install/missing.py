"""What a written component requires that will not be in the target.

An install writes a component even when something it requires ends refused or skipped
(the user may supply that one by hand: an MCP server under ``--user``, a hook whose
source is gone), or was left out (``--no-deps``). So that the user learns it on the
component's own line, each component that will be in the target (status install or
unchanged) gets a `MissingRequirement` for every component it requires, directly or
transitively along the plan's ``requires``, that will not be there:

- in the plan with status refused or skipped, and not already in the target;
- not in the plan (no dependencies added) and not in the target (`match_installed`);
  what such a one requires in turn is not known to the plan, so it stops there.

A blocked requirement (the user's own differing file is kept) and an unchanged one are
in the target: no note. A ``requires`` name that resolves nowhere in the index (neither
its own source nor any other has a component of that name: `cross_source.unlinked_requires`)
is noted too, by name, with no id: the plan cannot bring it, and only the user can. So is
one that resolves only to an item the caller may not see and that no item they see of
its name stands in for (`stand_ins`: the view leads the edge there, and the plan brings
that one), named by the public file's text alone (`_hidden_requires`). The two read alike (telling them apart would tell that the
hidden item exists), and where the index may hold what the caller may not see
(`CallerView.may_hide`), the note must not claim that no source has it, which would be
false advice for the hidden one: status `NOT_SHOWN`, "which the index does not show you";
else `NOT_INDEXED`, "which no source of the index has". A name the target holds a
component of (`unseen.installed_names`: its files, servers and install record, whatever
the index shows of them) is noted as there, status `IN_TARGET`: someone who may see more
may have installed it, and the caller can read that on disk anyway.
A package spec such as ``torch>=2.9`` is no component and never noted (a ``dependencies``
list with such a name is a package list, `skill_links`). A required
plugin stands for its members (`closure`): a member that will not be there is noted "via"
the plugin, and a plugin with no member install can place is noted by itself, with status
`NO_MEMBERS`. Statuses and what is written do not change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, replace

from skill_retriever.components.install.plan import ComponentPlan, MissingRequirement
from skill_retriever.components.view import CallerView
from skill_retriever.components.written_names import written_requires
from skill_retriever.cross_source import unlinked_requires
from skill_retriever.ingest.mentions import name_key
from skill_retriever.model import EdgeKind, Node

__all__ = [
    "IN_TARGET",
    "LEFT_OUT",
    "NOT_INDEXED",
    "NOT_SHOWN",
    "NO_MEMBERS",
    "note_missing",
    "unknown_notes",
    "unknown_requires",
]

#: The status of a requirement not in the plan (no dependencies added).
LEFT_OUT = "left out"
#: The status of a ``requires`` name no source of the index has (the caller could see it).
NOT_INDEXED = "not in the index"
#: The same where the index may hold items the caller may not see (`CallerView.may_hide`).
NOT_SHOWN = "not in the index you see"
#: The status of a ``requires`` name the index does not show and the target holds.
IN_TARGET = "installed in the target"
#: The status of a required plugin with no member install can place.
NO_MEMBERS = "no installable components"
_ABSENT = ("refused", "skipped")
_PRESENT = ("install", "unchanged")


def _missing(
    dep: str,
    name: str,
    via: tuple[str, ...],
    plan: ComponentPlan | None,
    names: Callable[[str], str],
) -> MissingRequirement:
    through = f", via {' -> '.join(names(i) for i in via)}" if via else ""
    until = f": it may not work until {name} is there"
    if plan is None:
        note = (
            f"requires {name} ({dep}{through}), which this install leaves out "
            f"(--no-deps, with_dependencies=false) and the target does not have{until}"
        )
        return MissingRequirement(dep, name, LEFT_OUT, via=via, note=note)
    why = f"{plan.status}: {plan.reason}" if plan.reason else plan.status
    note = f"requires {name} ({dep}{through}), which is not being installed ({why}){until}"
    return MissingRequirement(dep, name, plan.status, plan.reason, via, note)


def _not_indexed(
    name: str, via: tuple[str, ...], names: Callable[[str], str], may_hide: bool, present: Container[str]
) -> MissingRequirement:
    """The note on a ``requires`` name the caller's view has no component of (see the module)."""
    through = f" (via {' -> '.join(names(i) for i in via)})" if via else ""
    lacks = "which the index does not show you" if may_hide else "which no source of the index has"
    if name_key(name) in present:
        note = (
            f"requires {name!r}{through}, {lacks}, but this project has a component of that "
            "name installed: it works as long as that one stays"
        )
        return MissingRequirement("", name, IN_TARGET, via=via, note=note)
    if not may_hide:
        note = (
            f"requires {name!r}{through}, {lacks}: it may not work until {name} is there; "
            "install it by hand or index a source that has it"
        )
        return MissingRequirement("", name, NOT_INDEXED, via=via, note=note)
    note = (
        f"requires {name!r}{through}, {lacks} (no source has it, or only others may see "
        f"it): it may not work until {name} is there; install it by hand, ask someone who "
        "may see it to install it here, or index a source that has it"
    )
    return MissingRequirement("", name, NOT_SHOWN, via=via, note=note)


def _no_members(plugin: str, via: tuple[str, ...], names: Callable[[str], str]) -> MissingRequirement:
    name = names(plugin)
    through = f", via {' -> '.join(names(i) for i in via)}" if via else ""
    note = (
        f"requires plugin {name} ({plugin}{through}), which has no component install can "
        f"place (no skill, agent, command, hook or MCP server is part of it in the index): "
        f"it may not work until what {name} provides is there; install that by hand"
    )
    return MissingRequirement(plugin, name, NO_MEMBERS, via=via, note=note)


@dataclass(frozen=True)
class _Graph:
    """What the walk reads besides the plans (see `note_missing`)."""

    requires: Mapping[str, Sequence[str]]
    installed: Mapping[str, str]
    names: Callable[[str], str]
    unknown: Mapping[str, Sequence[str]]
    through: Mapping[str, Mapping[str, str]]
    memberless: Mapping[str, Sequence[str]]
    may_hide: bool = False
    present: Container[str] = frozenset()


def _walk(start: str, plans: Mapping[str, ComponentPlan], g: _Graph) -> tuple[MissingRequirement, ...]:
    """Breadth first from ``start``: each requirement once, with the shortest chain (a
    required plugin one of its steps)."""
    found: list[MissingRequirement] = []
    seen = {start}
    unnamed: set[str] = set()  # name keys of the names noted as in no source
    queue: deque[tuple[str, tuple[str, ...]]] = deque([(start, ())])
    while queue:
        node, via = queue.popleft()
        for name in g.unknown.get(node, ()):
            if name_key(name) not in unnamed:
                unnamed.add(name_key(name))
                found.append(_not_indexed(name, via, g.names, g.may_hide, g.present))
        for plugin in g.memberless.get(node, ()):
            if plugin not in seen:
                seen.add(plugin)
                found.append(_no_members(plugin, via, g.names))
        for dep in g.requires.get(node, ()):
            if dep in seen:
                continue
            seen.add(dep)
            plan = plans.get(dep)
            through = g.through.get(node, {}).get(dep)  # a member of a plugin it requires
            hop = (through,) if through else ()
            absent = plan is None or plan.status in _ABSENT
            if absent and dep not in g.installed:
                name = plan.name if plan is not None else g.names(dep)
                found.append(_missing(dep, name, (*via, *hop), plan, g.names))
            if plan is not None:
                queue.append((dep, (*via, *hop, dep)))
    return tuple(found)


def note_missing(
    plans: Sequence[ComponentPlan],
    requires: Mapping[str, Sequence[str]],
    installed: Mapping[str, str],
    names: Callable[[str], str],
    unknown: Mapping[str, Sequence[str]] | None = None,
    through: Mapping[str, Mapping[str, str]] | None = None,
    memberless: Mapping[str, Sequence[str]] | None = None,
    *,
    may_hide: bool = False,
    present: Container[str] = frozenset(),
) -> list[ComponentPlan]:
    """``plans`` with ``missing`` set on each that will be in the target (see the module).

    Args:
        requires: Id -> the ids it requires directly (`InstallPlan.requires`).
        installed: Ids the target already holds (`match_installed`).
        names: Id -> name, for requirements the plan does not hold.
        unknown: Id -> the ``requires`` names it gives that no source of the index has.
        through: Id -> {id it requires as a member of a required plugin: the plugin}.
        memberless: Id -> the plugins it requires that have no member to install.
        may_hide: The index may hold items the caller may not see (`CallerView.may_hide`).
        present: Name keys of the components the target holds (`unseen.installed_names`).
    """
    g = _Graph(
        requires, installed, names, unknown or {}, through or {}, memberless or {}, may_hide, present
    )
    by_id = {c.id: c for c in plans}
    return [
        replace(c, missing=missing)
        if c.status in _PRESENT and (missing := _walk(c.id, by_id, g))
        else c
        for c in plans
    ]


def _hidden_requires(view: CallerView, node: Node, linked: Container[str]) -> list[str]:
    """The written names of what ``node`` requires that the caller may not see.

    A private requirement must read as one that does not exist: the same note, named by
    the text of the public file alone, never by the private item's own name (whose
    spelling or case may differ). A requirement no written name matches (an edge of a
    JSON graph, a hook or MCP server, which keep no frontmatter) cannot be named without
    telling, so it is left out, as a missing id in a JSON graph would be.
    """
    snap = view.snapshot
    hidden = {name_key(snap.nodes[e.target].name) for e in snap.out_edges(node.id, EdgeKind.DEPENDS_ON)
              if not view.sees(e.target) and e.target in snap.nodes}
    return [n for n in written_requires(node) if (k := name_key(n)) in hidden and k not in linked]


def unknown_requires(view: CallerView, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Id -> the ``requires`` names of that component that no source of the caller's view
    has: those neither its own source nor the cross-source pass resolved (a resolved one
    has a DEPENDS_ON edge to a component of its name), and those resolved to an item the
    caller may not see (`_hidden_requires`) that no visible item stands in for (a stand-in's
    edge, `CallerView.out_edges`, links the name)."""
    out = {}
    for node_id in ids:
        linked = {name_key(view.name_of(e.target)) for e in view.out_edges(node_id, EdgeKind.DEPENDS_ON)}
        node = view.get(node_id)
        unique: dict[str, str] = {}  # one per name key: the unlinked record's spelling first
        for name in (*unlinked_requires(node, linked), *_hidden_requires(view, node, linked)):
            unique.setdefault(name_key(name), name)
        if unique:
            out[node_id] = tuple(unique.values())
    return out


def unknown_notes(
    view: CallerView, ids: Sequence[str], present: Container[str] = frozenset()
) -> dict[str, tuple[MissingRequirement, ...]]:
    """Id -> the notes an install plan gives on the ``requires`` names of that component
    that the view has no component of (`unknown_requires`), each as the plan says it;
    ``present``: as for `note_missing`."""
    return {
        node_id: tuple(_not_indexed(n, (), view.name_of, view.may_hide, present) for n in found)
        for node_id, found in unknown_requires(view, ids).items()
    }
