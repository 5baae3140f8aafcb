"""The item graph: a NetworkX DiGraph for relations, plus cached sparse matrices for maths.

NetworkX keeps typed edges and answers neighbourhood questions; the retrieval maths (PPR,
expansion, flow pruning) runs on a scipy CSR matrix cached per graph version, because
``networkx.pagerank`` rebuilds its matrix on every call (1.4 s at 100k nodes against
milliseconds for a power iteration on a cached matrix; DESIGN.md).

For the maths the graph is symmetric: a DEPENDS_ON edge lets relevance flow both ways
(a skill makes its dependency relevant, and a dependency its dependants).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import networkx as nx
import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from skill_retriever.model import Edge, EdgeKind, parse_edge_id


@dataclass(frozen=True)
class GraphMatrices:
    """One consistent snapshot of the graph in matrix form."""

    ids: tuple[str, ...]
    index: dict[str, int]
    adjacency: sp.csr_array  # symmetric, weights summed over edge kinds
    transition: sp.csr_array  # row-normalised adjacency (PPR)


class GraphStore(Protocol):
    """What the graph phases need; a graph database with PPR (Neo4j GDS, Memgraph) would
    implement this same boundary."""

    def add_nodes(self, ids: Iterable[str]) -> None: ...

    def remove_nodes(self, ids: Iterable[str]) -> None: ...

    def add_edges(self, edges: Iterable[Edge]) -> None: ...

    def remove_edges(self, edge_ids: Iterable[str]) -> None: ...

    def matrices(self) -> GraphMatrices: ...

    def edges_of(self, node_id: str) -> list[Edge]: ...

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]: ...


class NetworkXGraphStore:
    """DiGraph of node ids; each graph edge holds ``{kind: Edge}`` for the typed relations."""

    def __init__(self) -> None:
        self.g: nx.DiGraph = nx.DiGraph()
        self._lock = threading.RLock()
        self._cache: GraphMatrices | None = None

    def __len__(self) -> int:
        return int(self.g.number_of_nodes())

    @property
    def edge_count(self) -> int:
        with self._lock:
            return sum(len(d["edges"]) for _, _, d in self.g.edges(data=True))

    def add_nodes(self, ids: Iterable[str]) -> None:
        with self._lock:
            self.g.add_nodes_from(ids)
            self._cache = None

    def remove_nodes(self, ids: Iterable[str]) -> None:
        with self._lock:
            self.g.remove_nodes_from(list(ids))
            self._cache = None

    def add_edges(self, edges: Iterable[Edge]) -> None:
        with self._lock:
            for e in edges:
                if self.g.has_edge(e.source, e.target):
                    self.g[e.source][e.target]["edges"][e.kind] = e
                else:
                    self.g.add_edge(e.source, e.target, edges={e.kind: e})
            self._cache = None

    def remove_edges(self, edge_ids: Iterable[str]) -> None:
        with self._lock:
            for eid in edge_ids:
                for source, kind, target in parse_edge_id(eid):
                    if self.g.has_edge(source, target) and kind in self.g[source][target]["edges"]:
                        kinds = self.g[source][target]["edges"]
                        del kinds[kind]
                        if not kinds:
                            self.g.remove_edge(source, target)
                        break
            self._cache = None

    # Readers take the lock too: a NetworkX graph is mutated in place, and iterating it
    # while a writer adds or removes raises "dictionary changed size during iteration".
    def get_edge(self, edge_id: str) -> Edge | None:
        with self._lock:
            for source, kind, target in parse_edge_id(edge_id):
                if self.g.has_edge(source, target):
                    found: Edge | None = self.g[source][target]["edges"].get(kind)
                    if found is not None:
                        return found
            return None

    def iter_edges(self) -> Iterator[Edge]:
        with self._lock:
            edges = [e for _, _, d in self.g.edges(data=True) for e in d["edges"].values()]
        yield from edges

    def edges_of(self, node_id: str) -> list[Edge]:
        return self.out_edges(node_id) + self.in_edges(node_id)

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        with self._lock:
            if node_id not in self.g:
                return []
            return [
                e
                for _, _, d in self.g.out_edges(node_id, data=True)
                for k, e in d["edges"].items()
                if kind is None or k == kind
            ]

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        with self._lock:
            if node_id not in self.g:
                return []
            return [
                e
                for _, _, d in self.g.in_edges(node_id, data=True)
                for k, e in d["edges"].items()
                if kind is None or k == kind
            ]

    def matrices(self) -> GraphMatrices:
        """The cached matrix snapshot, rebuilt only after the graph changed."""
        cached = self._cache
        if cached is not None:
            return cached
        with self._lock:
            if self._cache is None:
                self._cache = self._build()
            return self._cache

    def _build(self) -> GraphMatrices:
        from skill_retriever.algorithms.ppr import transition_matrix

        ids = tuple(self.g.nodes)
        index = {n: i for i, n in enumerate(ids)}
        m = self.g.number_of_edges()
        src = np.empty(m, dtype=np.int64)
        dst = np.empty(m, dtype=np.int64)
        w = np.empty(m, dtype=np.float64)
        for j, (u, v, d) in enumerate(self.g.edges(data=True)):
            src[j], dst[j] = index[u], index[v]
            w[j] = sum(e.weight for e in d["edges"].values())
        n = len(ids)
        directed = sp.csr_array((w, (src, dst)), shape=(n, n))
        adjacency = (directed + directed.T).tocsr()
        adjacency.sum_duplicates()
        return GraphMatrices(ids, index, adjacency, transition_matrix(adjacency))

    def neighbour_indices(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """Indices adjacent to any of ``rows`` in the symmetric matrix (sparse ops only)."""
        adj = self.matrices().adjacency
        return np.unique(adj[rows].indices) if len(rows) else np.zeros(0, dtype=np.int64)
