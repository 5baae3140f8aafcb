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

from skill_retriever.algorithms.ppr import Walk, symmetric_walk
from skill_retriever.stores.snapshot import IndexSnapshot

#: Walks kept per snapshot (the whole graph plus a few visibility / synonym variants).
KEPT = 8


def walk_of(snap: IndexSnapshot, adjacency: sp.csr_array) -> Walk:
    """The float32 walk of ``adjacency``, one of ``snap``'s symmetric matrices.

    Keyed by the matrix object: the memo entry holds the matrix itself, so while the
    entry lives no other matrix can carry its ``id``; the identity check makes that
    explicit.
    """
    held, walk = snap.memo("walk", id(adjacency), lambda: (adjacency, symmetric_walk(adjacency)), KEPT)
    if held is not adjacency:  # pragma: no cover - impossible while the entry holds the matrix
        return symmetric_walk(adjacency)
    return walk


__all__ = ["walk_of"]
