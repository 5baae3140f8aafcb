"""A snapshot's vector searches (``IndexSnapshot.embed_query``, ``search_nodes_many``,
``search_edges``): the query's embedding, the vector matrices they read, the server that
may mirror them (:class:`RemoteVectors`), and how their hits are judged and ordered.

Its own module because it is one question, asked of either of two places: the snapshot's
vectors in memory (exact, ``stores.exact_search``) or the Chroma server that mirrors them.
A server's candidates are judged and scored on the snapshot (the server may be ahead of
it, or lag a delete), and both places order their hits the same way (:func:`ordered`), so
the same index answers the same way anywhere. The snapshot keeps what it holds and caches;
the functions here are given the parts they read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.filters import Filters, chroma_where
from skill_retriever.model import Edge, Node
from skill_retriever.stores.embedder import Embedder, Vectors
from skill_retriever.stores.exact_search import top_k
from skill_retriever.stores.items import StoredVector
from skill_retriever.stores.vectors import VectorHit, VectorStore

__all__ = [
    "EdgeMatrix", "RemoteVectors", "edge_matrix", "memory_nodes", "nearest_edges", "node_matrix", "ordered",
    "query_vector", "rows_with_vector", "server_nodes",
]

#: An edge matrix: the edge ids, and their vectors row by row.
EdgeMatrix = tuple[tuple[str, ...], NDArray[np.float32]]


@dataclass(frozen=True)
class RemoteVectors:
    """A vector server that mirrors the snapshot's vectors (nodes and edges)."""

    nodes: VectorStore
    edges: VectorStore


def query_vector(embedder: Embedder, text: str, dim: int, path: Path) -> Vectors:
    """The embedding of a query, checked against the length of the index's vectors (``dim``).

    Raises:
        IndexCorruptError: ``embedder`` makes vectors of another length than the index at ``path`` holds.
    """
    vector = np.asarray(embedder.embed([text])[0], dtype=np.float32)
    if dim and vector.shape != (dim,):
        raise IndexCorruptError(f"the embedder {embedder.name} makes vectors of {vector.size} numbers, the "
                                f"index at {path} holds {dim}; open it with the model that built it, or rebuild it")
    return vector


def node_matrix(ids: Sequence[str], vectors: Mapping[str, StoredVector], dim: int) -> NDArray[np.float32]:
    """The vectors of ``ids``, one row each (a zero row for a node without one)."""
    out = np.zeros((len(ids), dim), dtype=np.float32)
    for row, node_id in enumerate(ids):
        if (v := vectors.get(node_id)) is not None:
            out[row] = v.vector
    return out


def rows_with_vector(ids: Sequence[str], vectors: Mapping[str, StoredVector]) -> NDArray[np.bool_] | None:
    """Which of ``ids`` have a vector; None when every one has."""
    found = np.fromiter((i in vectors for i in ids), dtype=bool, count=len(ids))
    return None if found.all() else found


def edge_matrix(vectors: Mapping[str, StoredVector], edges: Mapping[str, Edge], dim: int) -> EdgeMatrix:
    """The vectors of the edges in ``edges``, one row each, with their ids."""
    ids = tuple(i for i in vectors if i in edges)
    matrix = np.zeros((len(ids), dim), dtype=np.float32)
    for row, edge_id in enumerate(ids):
        matrix[row] = vectors[edge_id].vector
    return ids, matrix


def memory_nodes(
    matrix: NDArray[np.float32], ids: Sequence[str], batch: NDArray[np.float32], k: int,
    mask: NDArray[np.bool_] | None, has_vector: NDArray[np.bool_] | None,
) -> list[list[VectorHit]]:
    """The ``k`` rows of ``matrix`` nearest each query of ``batch``, among those ``mask``
    admits (None: all) that have a vector (``has_vector``, None: all)."""
    if has_vector is not None:
        mask = has_vector if mask is None else mask & has_vector
    return [ordered([VectorHit(ids[r], s) for r, s in rows]) for rows in top_k(matrix, batch, k, mask)]


def server_nodes(
    server: VectorStore, batch: NDArray[np.float32], k: int, f: Filters, pred: Callable[[str], bool] | None, *,
    nodes: Mapping[str, Node], labelled: bool, vector_of: Callable[[str], Vectors | None],
) -> list[list[VectorHit]]:
    """Candidates from the server, judged and re-scored on the snapshot (``nodes``, the
    filters' ``pred``, the snapshot's vectors by ``vector_of``)."""
    if pred is None:
        found = server.search_many(batch, k)
    elif f.tags is None and f.since is None and f.until is None:
        found = server.search_many(batch, k, where=chroma_where(f, labelled))
    else:
        found = server.search_many(batch, k, ids=[i for i in nodes if pred(i)])
    out = []
    for q, hits in zip(batch, found, strict=True):
        kept = [
            VectorHit(h.id, float(v @ q))
            for h in hits
            if h.id in nodes and (pred is None or pred(h.id)) and (v := vector_of(h.id)) is not None
        ]
        out.append(ordered(kept))
    return out


def nearest_edges(
    q: NDArray[np.float32], k: int, depth: int, pred: Callable[[str], bool] | None, *, edges: Mapping[str, Edge],
    vectors: Mapping[str, StoredVector], server: VectorStore | None, matrix: Callable[[], EdgeMatrix],
) -> list[tuple[Edge, float]]:
    """The ``k`` edges nearest the query ``q`` (one row) whose ends ``pred`` admits, from
    the ``depth`` nearest on ``server``, else in ``matrix`` (built only when read)."""
    if server is not None:
        hits = [h for h in server.search_many(q, depth)[0] if h.id in vectors]
        hits = ordered([VectorHit(h.id, float(vectors[h.id].vector @ q[0])) for h in hits])
    else:
        ids, rows = matrix()
        hits = ordered([VectorHit(ids[r], s) for r, s in top_k(rows, q, depth)[0]])
    out: list[tuple[Edge, float]] = []
    for h in hits:
        edge = edges.get(h.id)
        if edge is None or (pred is not None and not (pred(edge.source) and pred(edge.target))):
            continue
        out.append((edge, h.score))
        if len(out) >= k:
            break
    return out


def ordered(hits: list[VectorHit]) -> list[VectorHit]:
    """``hits`` by score, best first."""
    # Ties in arbitrary order, and float32 from a server: order by the score to 6
    # decimals, then id, so the same index answers the same way anywhere.
    return sorted(hits, key=lambda h: (-round(h.score, 6), h.id))
