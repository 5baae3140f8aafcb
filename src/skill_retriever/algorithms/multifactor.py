"""Multi-factor ranking of the candidate subgraph, and the final node/edge cut.

score(v) = 0.50 semantic + 0.20 degree centrality + 0.15 edge density + 0.15 coverage,
where the structural factors are measured inside the candidate subgraph, so a node that
ties many other candidates together outranks an equally similar loner. The factors
follow the subgraph-ranking step of graph-RAG systems (e.g. Edge et al. 2024, "From
Local to Global: A Graph RAG Approach", arXiv:2404.16130, which ranks by node degree);
degree centrality is Freeman's (1978, "Centrality in social networks").

Structure is read as an undirected simple graph: an edge in either direction joins two
nodes, parallel edges count once, self-loops are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FactorWeights:
    """Weights of the four ranking factors (defaults from the design)."""

    semantic: float = 0.50
    degree: float = 0.20
    edge_density: float = 0.15
    coverage: float = 0.15


def multifactor_scores(
    semantic: Mapping[int, float],
    degree_centrality: Mapping[int, float],
    edge_density: Mapping[int, float],
    coverage: Mapping[int, float],
    weights: FactorWeights = FactorWeights(),
) -> dict[int, float]:
    """Weighted sum of the factors for every node that appears in any of them.

    A node missing from a factor scores 0 on it.

    Returns:
        Score per node, keys in ascending index order.
    """
    nodes = sorted(set(semantic) | set(degree_centrality) | set(edge_density) | set(coverage))
    return {
        v: weights.semantic * semantic.get(v, 0.0)
        + weights.degree * degree_centrality.get(v, 0.0)
        + weights.edge_density * edge_density.get(v, 0.0)
        + weights.coverage * coverage.get(v, 0.0)
        for v in nodes
    }


def _candidates(adjacency: sp.csr_array, candidates: Sequence[int]) -> IntArray:
    n = adjacency.shape[0]
    if adjacency.ndim != 2 or adjacency.shape[1] != n:
        raise ValueError(f"adjacency must be square, got shape {adjacency.shape}")
    cand = np.unique(np.asarray(candidates, dtype=np.int64))
    if cand.size and (cand[0] < 0 or cand[-1] >= n):
        raise ValueError(f"candidate index outside [0, {n})")
    return cand


def _subgraph_degrees(adjacency: sp.csr_array, cand: IntArray) -> IntArray:
    """Distinct neighbours of each candidate among the other candidates."""
    sub = sp.coo_array(sp.csr_array(adjacency)[cand][:, cand])
    keep = (sub.data != 0) & (sub.row != sub.col)  # drop explicit zeros and self-loops
    rows, cols = sub.row[keep], sub.col[keep]
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    pairs = np.unique(np.concatenate([rows * cand.size + cols, cols * cand.size + rows]))
    return np.bincount(pairs // cand.size, minlength=cand.size).astype(np.int64)


def subgraph_degree_centrality(
    adjacency: sp.csr_array, candidates: Sequence[int]
) -> dict[int, float]:
    """Degree centrality of each candidate within the candidate subgraph.

    ``centrality(v) = |other candidates adjacent to v| / (n - 1)`` with ``n`` the number
    of distinct candidates; equal to ``networkx.degree_centrality`` of the undirected
    simple subgraph. With fewer than two candidates every centrality is 0 (there is
    nothing to be central to; networkx would say 1).

    Args:
        adjacency: Square matrix of the whole graph.
        candidates: Candidate node indices (duplicates ignored).
    """
    cand = _candidates(adjacency, candidates)
    if cand.size < 2:
        return {int(v): 0.0 for v in cand}
    degrees = _subgraph_degrees(adjacency, cand)
    return dict(zip(cand.tolist(), (degrees / (cand.size - 1)).tolist()))


def subgraph_edge_density(
    adjacency: sp.csr_array, candidates: Sequence[int], symmetric: bool = False
) -> dict[int, float]:
    """Share of each candidate's neighbours that are candidates too.

    ``density(v) = |neighbours of v among the other candidates| / |neighbours of v in
    the whole graph|``, neighbours counted once whatever the direction or number of
    edges; 0 for a node with no neighbour. 1 means every edge of ``v`` stays inside the
    candidate subgraph; a hub that mostly links elsewhere scores low.

    Args:
        adjacency: Square matrix of the whole graph.
        candidates: Candidate node indices (duplicates ignored).
        symmetric: The caller vouches that ``adjacency`` equals its transpose: the
            neighbours are then read from the rows alone (a column slice of a CSR
            matrix passes over every edge). Same result either way.
    """
    cand = _candidates(adjacency, candidates)
    if cand.size == 0:
        return {}
    matrix = sp.csr_array(adjacency)
    inside = _subgraph_degrees(matrix, cand)
    out_rows = sp.coo_array(matrix[cand])
    if symmetric:
        pos, other, nonzero = out_rows.row.astype(np.int64), out_rows.col.astype(np.int64), out_rows.data != 0
    else:
        in_cols = sp.coo_array(matrix[:, cand])
        pos = np.concatenate([out_rows.row, in_cols.col]).astype(np.int64)
        other = np.concatenate([out_rows.col, in_cols.row]).astype(np.int64)
        nonzero = np.concatenate([out_rows.data, in_cols.data]) != 0
    real = nonzero & (other != cand[pos])  # drop explicit zeros and self-loops
    pairs = np.unique(pos[real] * matrix.shape[0] + other[real])
    total = np.bincount(pairs // matrix.shape[0], minlength=cand.size)
    density = np.divide(inside, total, out=np.zeros(cand.size), where=total > 0)
    return dict(zip(cand.tolist(), density.tolist()))


def select_subgraph(
    scores: Mapping[int, float],
    edges: Iterable[tuple[int, int]],
    keep_nodes: int = 50,
    keep_edges: int = 70,
) -> tuple[list[int], list[tuple[int, int]]]:
    """Keep the best nodes, then the best edges among them.

    Nodes are ranked by score descending (ties: lower index); an edge is kept only if
    both ends are kept, ranked by the sum of its ends' scores descending (ties: the
    lexicographically smaller ``(source, target)``). Duplicate edges count once.

    Args:
        scores: Score per candidate node.
        edges: Candidate ``(source, target)`` edges.
        keep_nodes: Most nodes kept.
        keep_edges: Most edges kept.

    Returns:
        The kept nodes (best first) and the kept edges (best first).
    """
    if keep_nodes < 0 or keep_edges < 0:
        raise ValueError("keep_nodes and keep_edges must be >= 0")
    nodes = sorted(scores, key=lambda v: (-scores[v], v))[:keep_nodes]
    kept = set(nodes)
    inside = {(u, v) for u, v in edges if u in kept and v in kept}
    ranked = sorted(inside, key=lambda e: (-(scores[e[0]] + scores[e[1]]), e))
    return nodes, ranked[:keep_edges]
