"""CONFLICTS_WITH among the components of a result, and against what a target holds.

A conflict edge is declared by one side (``source``, the component whose metadata says
``conflicts``) against the other (``target``), with the reason as its description. It is
reported once per pair, both sides named, whichever way it was declared; when both sides
declared it, the reasons are joined.

Dropping (`settle_conflicts`, what ``drop_conflicts`` of a search uses): a search result
is kept or dropped as a unit (a match with everything it requires), and conflicts are
settled by one rule, whatever order they come in:

1. A component the target already holds wins against one it does not (it is there
   whatever the answer says), even when it is in the result too; a conflict between two
   installed components drops nothing.
2. Otherwise the side whose best unit ranks lower loses, and every unit that holds it is
   dropped; a unit that holds both sides cannot be kept and is dropped itself.
3. Conflicts are settled best pair first (winner's rank, then loser's), ranks taken again
   after every drop, and one whose side has already gone with a dropped unit is settled:
   a result is never dropped for conflicting with something that is itself dropped.

The graph is a caller's `CallerView`: a conflict with an item the caller may not see is
not there to be found, so neither its other side nor its reason can reach an answer. One
with such an item that a target already holds is found from the target's files instead,
never named (`install.unseen`): its other side is `UNSEEN`, which rule 1 counts as
installed (it is in the target, or it would not have been found).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from skill_retriever.model import Edge, EdgeKind

__all__ = [
    "UNSEEN",
    "UNSEEN_NAME",
    "Conflict",
    "ConflictGraph",
    "Settled",
    "find_conflicts",
    "settle_conflicts",
]

INSTALLED_RANK = -1.0
#: The id standing for the other side of a conflict with a component a target holds that
#: the caller may not see (`install.unseen`; a plan line reads "vs <UNSEEN_NAME> (not shown)").
UNSEEN = "not shown"
#: What every answer calls that side, never its name, id or path.
UNSEEN_NAME = "a component installed in this project that the index does not show you"


class ConflictGraph(Protocol):
    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...


@dataclass(frozen=True)
class Conflict:
    """Two components that should not be used together.

    Attributes:
        source: The side that declared the conflict.
        target: The other side.
        reason: Why (the edge's description; '' when none was given).
        installed: Where ``target`` or ``source`` already sits in the target folder, when
            that side is installed (whether the result holds it again or not).
        installed_id: Which side is the installed one (None: neither is). When both
            are, `find_conflicts` names the later one in the result's order, and
            `settle_conflicts` the winning side.
        dropped: The id dropped to settle it, once `settle_conflicts` ran (for a unit
            that holds both sides: its match).
    """

    source: str
    target: str
    reason: str = ""
    installed: str | None = None
    installed_id: str | None = None
    dropped: str | None = None

    @property
    def sides(self) -> tuple[str, str]:
        return (self.source, self.target)

    def other(self, node_id: str) -> str:
        """The side that is not ``node_id``."""
        return self.target if node_id == self.source else self.source

    def to_dict(self) -> dict[str, str | None]:
        """Its fields; one with an `UNSEEN` side also says what that side is (``not_shown``),
        as ``check_dependencies`` and the install plan say it."""
        return {
            "source": self.source,
            "target": self.target,
            "reason": self.reason,
            "installed": self.installed,
            "installed_id": self.installed_id,
            "dropped": self.dropped,
        } | ({"not_shown": UNSEEN_NAME} if UNSEEN in self.sides else {})


def find_conflicts(
    graph: ConflictGraph, ids: Iterable[str], installed: Mapping[str, str] | None = None
) -> list[Conflict]:
    """Every CONFLICTS_WITH pair within ``ids``, and between ``ids`` and ``installed``.

    Args:
        graph: Where the edges live: a caller's `CallerView` (or a snapshot).
        ids: The result's component ids (dependencies included), best first.
        installed: Ids already installed in the target -> their path there.

    Returns:
        One :class:`Conflict` per pair, in the order of the first side in ``ids``.
    """
    chosen = list(dict.fromkeys(ids))
    members = set(chosen)
    there = dict(installed or {})
    pairs: dict[frozenset[str], Conflict] = {}
    for node_id in chosen:
        edges = graph.out_edges(node_id, EdgeKind.CONFLICTS_WITH) + graph.in_edges(
            node_id, EdgeKind.CONFLICTS_WITH
        )
        for e in edges:
            other = e.target if e.source == node_id else e.source
            if other not in members and other not in there:
                continue
            key = frozenset((e.source, e.target))
            found = pairs.get(key)
            if found is None:  # the installed side, when one is (whether in the result or not)
                side = other if other in there else node_id if node_id in there else None
                pairs[key] = Conflict(
                    e.source, e.target, e.description, there.get(side) if side else None, side
                )
            elif e.description and e.description not in found.reason:
                reason = f"{found.reason}; {e.description}" if found.reason else e.description
                pairs[key] = replace(found, reason=reason)
    return list(pairs.values())


@dataclass(frozen=True)
class Settled:
    """What `settle_conflicts` dropped.

    Attributes:
        conflicts: The conflicts given, each with ``dropped`` set where settling it dropped
            something (None: one side went with another conflict, or both are installed).
        excluded: The first id of each dropped unit -> the conflict that dropped it, in
            rank order.
    """

    conflicts: list[Conflict]
    excluded: dict[str, Conflict]


def settle_conflicts(
    conflicts: Iterable[Conflict],
    units: Sequence[Sequence[str]],
    installed: Mapping[str, str] | None = None,
) -> Settled:
    """Drop whole units until no conflict is left open (the rule: see the module).

    Args:
        conflicts: From :func:`find_conflicts` over the ids of ``units``.
        units: Best first; each a match followed by everything it requires
            (`Closure.ranked_units`).
        installed: Ids already installed in the target -> their path there.

    Returns:
        The :class:`Settled` conflicts and dropped units. What is dropped depends on the
        ranks and ``installed`` alone, not on the order of ``conflicts``.
    """
    items = list(conflicts)
    there = dict(installed or {})
    there.update({c.installed_id: c.installed or "" for c in items if c.installed_id})
    alive: dict[int, tuple[str, ...]] = {pos: tuple(u) for pos, u in enumerate(units, 1) if u}
    heads = {pos: u[0] for pos, u in alive.items()}
    dropped_at: dict[int, Conflict] = {}

    def rank(node_id: str) -> float | None:  # None: gone with every unit that held it
        if node_id in there or node_id == UNSEEN:  # UNSEEN: found in the target's files
            return INSTALLED_RANK
        return min((pos for pos, u in alive.items() if node_id in u), default=None)

    def drop(c: Conflict, holding: Iterable[str]) -> None:
        for pos in [p for p, u in alive.items() if all(i in u for i in holding)]:
            dropped_at[pos] = c
            del alive[pos]

    while True:
        best: tuple[tuple[float, float, str, str], int] | None = None
        for n, c in enumerate(items):
            ra, rb = rank(c.source), rank(c.target)
            if ra is None or rb is None or ra == rb == INSTALLED_RANK:
                continue  # settled already, or both there whatever the answer says
            (rw, winner), (rl, loser) = sorted([(ra, c.source), (rb, c.target)])
            if best is None or (rw, rl, loser, winner) < best[0]:
                best = (rw, rl, loser, winner), n
        if best is None:
            return Settled(items, {heads[p]: c for p, c in sorted(dropped_at.items())})
        (rw, rl, loser, winner), n = best
        if rw == rl:  # their best unit holds both sides: it cannot be kept
            items[n] = replace(items[n], dropped=heads[int(rw)])
            drop(items[n], items[n].sides)
            continue
        c = items[n]
        if winner in there and c.installed_id is None:
            c = replace(c, installed=there[winner], installed_id=winner)
        items[n] = replace(c, dropped=loser)
        drop(items[n], (loser,))
