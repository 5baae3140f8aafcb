"""The transitive DEPENDS_ON closure of selected components, with provenance and cycles.

``A -[DEPENDS_ON]-> B`` reads "A requires B". For each selected component (in rank order)
the closure walks its requirements breadth first, so every added component knows which
selected components required it and by which shortest chain. A cycle (``a -> b -> a``) is
reported once and walked once: every component is visited at most once per selected
component, so the walk always ends.

The graph is a `CallerView` in every caller here: it shows only edges between nodes the
caller may see, so a requirement the caller may not see is not followed, not added and
not counted. ``allowed`` remains for graphs that are not views.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from skill_retriever.model import Edge, EdgeKind

__all__ = ["Closure", "DependencyGraph", "dependency_closure", "find_cycles"]


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
        requires: Every id of the closure -> the ids it requires directly (visible ones).
        units: Selected id -> that id followed by everything it requires transitively:
            the set that must be kept or dropped whole.
        cycles: Dependency cycles met, each as ``(a, b, ..., a)``, each once.
        hidden: Required ids the caller may not see (access, missing); never added.
    """

    selected: tuple[str, ...]
    added: tuple[str, ...]
    required_by: Mapping[str, tuple[str, ...]]
    chains: Mapping[str, tuple[str, ...]]
    requires: Mapping[str, tuple[str, ...]]
    units: Mapping[str, tuple[str, ...]]
    cycles: tuple[tuple[str, ...], ...] = ()
    hidden: tuple[str, ...] = field(default=())

    @property
    def ids(self) -> tuple[str, ...]:
        """Selected then added: every id to install."""
        return self.selected + self.added

    def ranked_units(self) -> list[tuple[str, ...]]:
        """The units in the selected components' rank order (for whole-unit budgets)."""
        return [self.units[s] for s in self.selected]

    @classmethod
    def alone(cls, selected: Iterable[str]) -> Closure:
        """The selected components with nothing added (an answer where nothing fits: its
        closest matches are shown, not installed with what they need)."""
        chosen = tuple(dict.fromkeys(selected))
        return cls(chosen, (), {}, {}, {i: () for i in chosen}, {i: (i,) for i in chosen})


def dependency_closure(
    graph: DependencyGraph,
    selected: Iterable[str],
    *,
    allowed: Callable[[str], bool] | None = None,
) -> Closure:
    """Add to ``selected`` everything it requires, transitively.

    Args:
        graph: Where the DEPENDS_ON edges live: a caller's `CallerView` (or a snapshot).
        selected: Component ids, best first; repeats are ignored.
        allowed: For a graph that is not a view: which ids may be followed
            (``snapshot.allowed(filters)``); a required id that is not allowed is listed
            in ``hidden`` and not followed. None = all.

    Returns:
        The :class:`Closure`; empty input gives an empty closure.
    """
    chosen = tuple(dict.fromkeys(selected))
    if not chosen:
        return Closure((), (), {}, {}, {}, {})
    requires: dict[str, tuple[str, ...]] = {}
    hidden: dict[str, None] = {}

    def deps(node_id: str) -> tuple[str, ...]:
        if node_id not in requires:
            found = []
            for e in graph.out_edges(node_id, EdgeKind.DEPENDS_ON):
                if allowed is None or allowed(e.target):
                    found.append(e.target)
                else:
                    hidden[e.target] = None
            requires[node_id] = tuple(dict.fromkeys(found))
        return requires[node_id]

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
                seen[dep] = seen[current] + (dep,)
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
        requires=dict(requires),
        units=units,
        cycles=find_cycles(requires),
        hidden=tuple(hidden),
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
