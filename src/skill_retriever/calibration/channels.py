"""Channel weights and the route, learned per index and stored with its calibration.

Nothing is learned here yet: every factor 1 and no route. How much each channel counts is
decided elsewhere today: per query, from each channel's own score distribution
(``fusion="scores"``, `algorithms.score_fusion`, which a catalogue suggests), and per
corpus kind and graph shape (`calibration.defaults`: a catalogue whose edges mostly say
one item needs another takes the ppr route; one whose edges join items alike, or that has
none, the smart route; one whose edges mostly join unlike items routes by complexity).

Why the route is not learned here: the signals that separate the benchmark's catalogue
sets (the kinds of its edges, the median cosine of an edge's ends) are seen in the
snapshot, not learned from it, so `calibration.defaults` decides it with no stored state
that could go stale. Label-free
signals tried for the route before it, which did not separate the sets: pseudo-queries from
the items' own descriptions, each channel's score shape, the share of a query's seeds that
are neighbours.

What fills it must return channel factors and an optional route, with the evidence that
chose them (the package docstring's contract, :mod:`skill_retriever.calibration`).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["channel_calibration"]


def channel_calibration(snapshot: IndexSnapshot) -> tuple[dict[str, float], str | None, dict[str, Any]]:
    """``(channel factors, route, evidence)`` for this snapshot."""
    return {}, None, {}
