"""The item graph of one snapshot: typed edges by node, and sparse matrices for the maths.

Both are built from an immutable edge map, lazily, once per snapshot. The typed view
answers neighbourhood questions (what does X depend on, what conflicts with Y); the
retrieval maths (PPR, expansion, flow pruning) runs on scipy CSR matrices, because
``networkx.pagerank`` rebuilds its matrix on every call (1.4 s at 100k nodes against
milliseconds for a power iteration on a cached matrix; see docs/architecture.md).

For the maths the graph is symmetric: a DEPENDS_ON edge lets relevance flow both ways
(a skill makes its dependency relevant, and a dependency its dependants).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

from skill_retriever.model import Edge, EdgeKind

# SciPy loads on first use, where a matrix is built: commands that never build one
# (`install`, `uninstall`) start without it (tests/test_cold_start.py).
if TYPE_CHECKING:
    import scipy.sparse as sp


@dataclass(frozen=True)
class GraphMatrices:
    """One snapshot of the graph in matrix form; row ``i`` is node ``ids[i]``."""

    ids: tuple[str, ...]
    index: Mapping[str, int]
    adjacency: sp.csr_array  # symmetric, weights summed over edge kinds and directions

    @cached_property
    def transition(self) -> sp.csr_array:
        """The row-normalised adjacency (the general PageRank's input). The query path
        walks the symmetric adjacency itself (``algorithms.ppr.symmetric_walk``), so this
        is built only when asked for."""
        from skill_retriever.algorithms.ppr import transition_matrix

        return transition_matrix(self.adjacency)


class TypedGraph(Protocol):
    """The typed-edge questions that components and phases ask of a snapshot."""

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...


def build_matrices(node_ids: Sequence[str], edges: Iterable[Edge]) -> GraphMatrices:
    """The symmetric adjacency over ``node_ids`` (edges whose ends are not both in
    ``node_ids`` are left out)."""
    ids = tuple(node_ids)
    index = {n: i for i, n in enumerate(ids)}
    src: list[int] = []
    dst: list[int] = []
    w: list[float] = []
    for e in edges:
        a, b = index.get(e.source), index.get(e.target)
        if a is None or b is None:
            continue
        src.append(a)
        dst.append(b)
        w.append(e.weight)
    n = len(ids)
    rows = np.asarray(src, dtype=np.int64)
    cols = np.asarray(dst, dtype=np.int64)
    weights = np.asarray(w, dtype=np.float64)
    # Each relation counts in both directions; duplicates (several kinds on one pair, or
    # both directions declared) are summed by the CSR constructor.
    import scipy.sparse as sp

    adjacency = sp.csr_array(
        (np.concatenate([weights, weights]), (np.concatenate([rows, cols]), np.concatenate([cols, rows]))),
        shape=(n, n),
    )
    adjacency.sum_duplicates()
    return GraphMatrices(ids, index, adjacency)


class EdgeIndex:
    """Edges of one snapshot by their ends, from an immutable edge map. Each side is
    grouped on its first use: a passage query reads a fact's outgoing edges only, and on
    150k edges each side costs a pass over all of them."""

    def __init__(self, edges: Mapping[str, Edge]) -> None:
        self._edges = edges

    @cached_property
    def kinds(self) -> frozenset[EdgeKind]:
        """The kinds of edge held: asking for another kind groups nothing (the CLI asks
        each passage shown for the DEPENDS_ON edges into it, of which a corpus has none)."""
        return frozenset(map(attrgetter("kind"), self._edges.values()))

    @cached_property
    def _out(self) -> dict[str, tuple[Edge, ...]]:
        return _grouped(self._edges.values(), attrgetter("source"))

    @cached_property
    def _in(self) -> dict[str, tuple[Edge, ...]]:
        return _grouped(self._edges.values(), attrgetter("target"))

    def warm(self) -> None:
        """Group both sides now (a server's warm-up: its queries may ask either)."""
        _ = self._out, self._in

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        if kind is not None and kind not in self.kinds:
            return []
        return [e for e in self._out.get(node_id, ()) if kind is None or e.kind == kind]

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        if kind is not None and kind not in self.kinds:
            return []
        return [e for e in self._in.get(node_id, ()) if kind is None or e.kind == kind]

    def edges_of(self, node_id: str) -> list[Edge]:
        return self.out_edges(node_id) + self.in_edges(node_id)


def _grouped(edges: Iterable[Edge], end: Callable[[Edge], str]) -> dict[str, tuple[Edge, ...]]:
    found: dict[str, list[Edge]] = {}
    for e in edges:
        found.setdefault(end(e), []).append(e)
    return {k: tuple(v) for k, v in found.items()}


def neighbour_indices(adjacency: sp.csr_array, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """Indices adjacent to any of ``rows`` in a symmetric matrix (sparse ops only)."""
    return np.unique(adjacency[rows].indices) if len(rows) else np.zeros(0, dtype=np.int64)


def masked_adjacency(adjacency: sp.csr_array, mask: NDArray[np.bool_]) -> sp.csr_array:
    """``adjacency`` with the rows and columns ``mask`` leaves out set to zero."""
    import scipy.sparse as sp

    d = sp.diags_array(mask.astype(np.float64))
    return sp.csr_array(d @ adjacency @ d)


__all__ = ["EdgeIndex", "GraphMatrices", "TypedGraph", "build_matrices", "masked_adjacency", "neighbour_indices"]
