"""The PageRank walk of a snapshot's matrices, prepared once and kept on the snapshot.

``run_ppr`` walks one of the snapshot's symmetric adjacency matrices (the whole graph,
the part a caller may see, or the graph without SAME_AS edges). Each is turned into a
:class:`~skill_retriever.algorithms.ppr.Walk` (float32, no transpose: see
``algorithms.ppr.symmetric_walk``) the first time a query walks it; later queries on the
same snapshot reuse it, so a query pays only for its mat-vecs. Like every derived view it
lives on its snapshot and can never be stale.
"""

from __future__ import annotations

import scipy.sparse as sp

from skill_retriever.algorithms.ppr import FLOAT32_L1, Walk, precise_enough, symmetric_walk
from skill_retriever.stores.snapshot import IndexSnapshot

#: Walks kept per snapshot (the whole graph plus a few visibility / synonym variants).
KEPT = 8


def walk_of(snap: IndexSnapshot, adjacency: sp.csr_array, tol: float | None = None) -> Walk:
    """The walk of ``adjacency``, one of ``snap``'s symmetric matrices: float32, or
    float64 where a stop at ``N * tol`` needs it (``algorithms.ppr.precise_enough``: a
    small graph), chosen here once rather than copied on every query.

    Keyed by the matrix object: the memo entry holds the matrix itself, so while the
    entry lives no other matrix can carry its ``id``; the identity check makes that
    explicit.
    """

    def build() -> tuple[sp.csr_array, Walk]:
        walk = symmetric_walk(adjacency)
        return adjacency, walk if tol is None else precise_enough(walk, tol)

    wide = tol is not None and adjacency.shape[0] * tol < FLOAT32_L1
    held, walk = snap.memo("walk", (id(adjacency), wide), build, KEPT)
    if held is not adjacency:  # pragma: no cover - impossible while the entry holds the matrix
        return build()[1]
    return walk


__all__ = ["walk_of"]
