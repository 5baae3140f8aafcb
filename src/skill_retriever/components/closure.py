"""The transitive DEPENDS_ON closure of selected components, with provenance and cycles.

``A -[DEPENDS_ON]-> B`` reads "A requires B". For each selected component (in rank order)
the closure walks its requirements breadth first, so every added component knows which
selected components required it and by which shortest chain. A cycle (``a -> b -> a``) is
reported once and walked once: every component is visited at most once per selected
component, so the walk always ends.

The graph is a `CallerView` in every caller here: it shows only edges between nodes the
caller may see, so a requirement the caller may not see is not followed, not added and
not counted. ``allowed`` remains for graphs that are not views.

A requirement that is a plugin (``requires: [kit]`` where only a plugin has that name)
stands for the plugin's members, as a plugin asked for by name does (`plugin_members`):
the requirer requires each member, reached "via" the plugin (``through``; its chain
holds the plugin id), and the plugin itself is never added, as it is nothing install or
an answer could place. A plugin with no member of a component kind is listed
(``memberless``) so that its requirer can say so. A member that requires its own plugin
requires its siblings; the cycle (``a -> kit -> a``) is reported as any other.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from skill_retriever.model import COMPONENT_KINDS, Edge, EdgeKind, NodeKind

if TYPE_CHECKING:  # `uninstall` reads plugin members (by_name) without an index
    from skill_retriever.components.view import CallerView

__all__ = [
    "Closure",
    "DependencyGraph",
    "Members",
    "Requirements",
    "dependency_closure",
    "find_cycles",
    "plugin_members",
]

#: Id -> the ids a plugin stands for (its members), or None for an id that is no plugin.
Members = Callable[[str], tuple[str, ...] | None]


class DependencyGraph(Protocol):
    """What the closure reads: a node's outgoing typed edges (a `CallerView`, an
    `IndexSnapshot`, an `EdgeIndex` fit)."""

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...


@dataclass(frozen=True)
class Closure:
    """Selected components plus everything they require.

    Attributes:
        selected: The selected ids, in rank order, each once.
        added: Ids required (transitively) but not selected, in the order first reached.
        required_by: Id -> the selected ids that require it, in rank order. Selected ids
            appear here too when another selected component requires them.
        chains: Id -> the shortest chain ``(selected, ..., id)`` that first reached it.
        requires: Every id of the closure -> the ids it requires directly (visible ones;
            a required plugin's members in its place).
        units: Selected id -> that id followed by everything it requires transitively:
            the set that must be kept or dropped whole.
        cycles: Dependency cycles met, each as ``(a, b, ..., a)``, each once (a plugin
            required on the way is one of its steps).
        hidden: Required ids the caller may not see (access, missing); never added.
        through: Id -> {id it requires only as a member of a required plugin: that
            plugin}.
        memberless: Id -> the plugins it requires that have no member to add.
    """

    selected: tuple[str, ...]
    added: tuple[str, ...]
    required_by: Mapping[str, tuple[str, ...]]
    chains: Mapping[str, tuple[str, ...]]
    requires: Mapping[str, tuple[str, ...]]
    units: Mapping[str, tuple[str, ...]]
    cycles: tuple[tuple[str, ...], ...] = ()
    hidden: tuple[str, ...] = field(default=())
    through: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    memberless: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ids(self) -> tuple[str, ...]:
        """Selected then added: every id to install."""
        return self.selected + self.added

    def ranked_units(self) -> list[tuple[str, ...]]:
        """The units in the selected components' rank order (for whole-unit budgets)."""
        return [self.units[s] for s in self.selected]

    @classmethod
    def alone(cls, selected: Iterable[str], requires: Mapping[str, tuple[str, ...]] | None = None) -> Closure:
        """The selected components with nothing added (an answer where nothing fits: its
        closest matches are shown, not installed with what they need). ``requires``: what
        each requires directly (a full closure's), still said of it though not added: an
        empty list read as "needs nothing" to an agent about to install it."""
        chosen = tuple(dict.fromkeys(selected))
        said = requires or {}
        return cls(chosen, (), {}, {}, {i: said.get(i, ()) for i in chosen}, {i: (i,) for i in chosen})


def plugin_members(
    view: CallerView, kinds: frozenset[NodeKind] = COMPONENT_KINDS
) -> Members:
    """What each plugin of ``view`` stands for: its visible members of ``kinds`` (the
    components with a PART_OF edge to it), by kind, name and id; None for an id that is
    no visible plugin."""

    def members(node_id: str) -> tuple[str, ...] | None:
        if node_id not in view or view.get(node_id).kind is not NodeKind.PLUGIN:
            return None
        found = sorted(
            (view.get(e.source) for e in view.in_edges(node_id, EdgeKind.PART_OF)),
            key=lambda n: (n.kind.value, n.name, n.id),
        )
        return tuple(dict.fromkeys(n.id for n in found if n.kind in kinds))

    return members


class Requirements:
    """What components require directly, read once each, a required plugin standing for
    its members (see the module).

    Attributes:
        requires: Id -> the ids it requires directly (plugins replaced by their members;
            never itself).
        links: The same with each required plugin kept as a step, and each such plugin ->
            its members: the map cycles are found in.
        through: Id -> {member it requires only through a plugin: that plugin}.
        memberless: Id -> the plugins it requires that have no member to add.
        hidden: Required ids that ``allowed`` refuses.
    """

    def __init__(
        self,
        graph: DependencyGraph,
        allowed: Callable[[str], bool] | None = None,
        members: Members | None = None,
    ) -> None:
        self.graph = graph
        self.allowed = allowed
        self.members = members or (lambda _: None)
        self.requires: dict[str, tuple[str, ...]] = {}
        self.links: dict[str, tuple[str, ...]] = {}
        self.through: dict[str, dict[str, str]] = {}
        self.memberless: dict[str, tuple[str, ...]] = {}
        self.hidden: dict[str, None] = {}

    def _sees(self, node_id: str) -> bool:
        if self.allowed is None or self.allowed(node_id):
            return True
        self.hidden[node_id] = None
        return False

    def __call__(self, node_id: str) -> tuple[str, ...]:
        if node_id in self.requires:
            return self.requires[node_id]
        found: dict[str, None] = {}
        direct: set[str] = set()
        via: dict[str, str] = {}  # member -> the first required plugin it is one of
        empty: list[str] = []
        links: dict[str, None] = {}
        for e in self.graph.out_edges(node_id, EdgeKind.DEPENDS_ON):
            if not self._sees(e.target):
                continue
            links[e.target] = None
            inside = self.members(e.target)
            if inside is None:
                found[e.target] = None
                direct.add(e.target)
                continue
            inside = tuple(m for m in inside if self._sees(m))
            self.links[e.target] = inside
            empty += [] if inside else [e.target]
            for m in inside:
                found[m] = None
                via.setdefault(m, e.target)
        found.pop(node_id, None)  # a member requiring its own plugin: not itself
        self.requires[node_id] = tuple(found)
        self.links[node_id] = tuple(links)
        if hops := {m: p for m, p in via.items() if m in found and m not in direct}:
            self.through[node_id] = hops
        if empty:
            self.memberless[node_id] = tuple(dict.fromkeys(empty))
        return self.requires[node_id]


def dependency_closure(
    graph: DependencyGraph,
    selected: Iterable[str],
    *,
    allowed: Callable[[str], bool] | None = None,
    members: Members | None = None,
) -> Closure:
    """Add to ``selected`` everything it requires, transitively.

    Args:
        graph: Where the DEPENDS_ON edges live: a caller's `CallerView` (or a snapshot).
        selected: Component ids, best first; repeats are ignored.
        allowed: For a graph that is not a view: which ids may be followed
            (``snapshot.allowed(filters)``); a required id that is not allowed is listed
            in ``hidden`` and not followed. None = all.
        members: What a required plugin stands for (`Members`). None: for a
            `CallerView`, its `plugin_members`; for another graph, no plugins.

    Returns:
        The :class:`Closure`; empty input gives an empty closure.
    """
    chosen = tuple(dict.fromkeys(selected))
    if not chosen:
        return Closure((), (), {}, {}, {}, {})
    from skill_retriever.components.view import CallerView  # here: it imports the index stack

    if members is None and isinstance(graph, CallerView):
        members = plugin_members(graph)
    deps = Requirements(graph, allowed, members)
    required_by: dict[str, list[str]] = {}
    chains: dict[str, tuple[str, ...]] = {}
    units: dict[str, tuple[str, ...]] = {}
    added: dict[str, None] = {}
    chosen_set = set(chosen)
    for root in chosen:
        seen: dict[str, tuple[str, ...]] = {root: (root,)}
        queue = deque([root])
        while queue:
            current = queue.popleft()
            for dep in deps(current):
                if dep in seen:
                    continue  # visited (a cycle or a diamond): never walked twice
                plugin = deps.through.get(current, {}).get(dep)
                seen[dep] = seen[current] + ((plugin, dep) if plugin else (dep,))
                queue.append(dep)
        units[root] = tuple(seen)
        for dep, chain in seen.items():
            if dep == root:
                continue
            required_by.setdefault(dep, []).append(root)
            chains.setdefault(dep, chain)
            if dep not in chosen_set:
                added.setdefault(dep, None)
    for node_id in list(added):
        deps(node_id)
    return Closure(
        selected=chosen,
        added=tuple(added),
        required_by={k: tuple(v) for k, v in required_by.items()},
        chains=chains,
        requires=dict(deps.requires),
        units=units,
        cycles=find_cycles(deps.links),
        hidden=tuple(deps.hidden),
        through=dict(deps.through),
        memberless=dict(deps.memberless),
    )


def find_cycles(requires: Mapping[str, Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """Cycles of a dependency map, each as ``(a, ..., a)`` starting at its smallest id.

    An iterative depth-first search records one cycle per back edge it meets; it visits
    each id once, so it ends on any input.
    """
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    found: dict[tuple[str, ...], None] = {}
    for start in requires:
        if start in state:
            continue
        path: list[str] = [start]
        stack: list[Iterator[str]] = [iter(requires.get(start, ()))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            mark = state.get(nxt)
            if mark == 1:
                loop = path[path.index(nxt) :]
                pivot = loop.index(min(loop))
                canon = tuple(loop[pivot:] + loop[:pivot])
                found[canon + (canon[0],)] = None
            elif mark is None:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(requires.get(nxt, ())))
    return tuple(found)
