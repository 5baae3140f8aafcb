"""CONFLICTS_WITH among the components of a result, and against what a target holds.

A conflict edge is declared by one side (``source``, the component whose metadata says
``conflicts``) against the other (``target``), with the reason as its description. It is
reported once per pair, both sides named, whichever way it was declared; when both sides
declared it, the reasons are joined.

Dropping (`drop_lower_ranked`): conflicts are settled best pair first; the side ranked
lower loses. A component already installed in the target ranks above every result (it is
there), so a new component that conflicts with it is the one dropped.

The graph is a caller's `CallerView`: a conflict with an item the caller may not see is
not there to be found, so neither its other side nor its reason can reach an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from skill_retriever.model import Edge, EdgeKind

__all__ = ["Conflict", "ConflictGraph", "drop_lower_ranked", "find_conflicts"]

INSTALLED_RANK = -1.0


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
            that side is installed rather than part of the result.
        installed_id: Which side is the installed one (None: both are results).
        dropped: The id dropped to settle it, once `drop_lower_ranked` ran.
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
        return {
            "source": self.source,
            "target": self.target,
            "reason": self.reason,
            "installed": self.installed,
            "installed_id": self.installed_id,
            "dropped": self.dropped,
        }


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
            if found is None:
                side = None if other in members else other
                pairs[key] = Conflict(
                    e.source, e.target, e.description, there.get(other) if side else None, side
                )
            elif e.description and e.description not in found.reason:
                reason = f"{found.reason}; {e.description}" if found.reason else e.description
                pairs[key] = replace(found, reason=reason)
    return list(pairs.values())


def drop_lower_ranked(
    conflicts: Iterable[Conflict], rank: Mapping[str, float]
) -> tuple[list[Conflict], set[str]]:
    """Settle conflicts by dropping the lower-ranked side of each.

    Args:
        conflicts: From :func:`find_conflicts`.
        rank: Id -> rank, lower is better (1 = first). An installed side ranks above all.

    Returns:
        The conflicts with ``dropped`` set (None where an earlier drop already settled
        it), and the set of dropped ids.
    """

    def rank_of(c: Conflict, node_id: str) -> float:
        return INSTALLED_RANK if node_id == c.installed_id else rank.get(node_id, float("inf"))

    items = list(conflicts)
    order = sorted(
        range(len(items)), key=lambda i: min(rank_of(items[i], s) for s in items[i].sides)
    )
    dropped: set[str] = set()
    out = list(items)
    for i in order:
        c = items[i]
        if c.source in dropped or c.target in dropped:
            continue
        a, b = c.source, c.target
        loser = b if (rank_of(c, a), a) <= (rank_of(c, b), b) else a
        dropped.add(loser)
        out[i] = replace(c, dropped=loser)
    return out, dropped
