"""Similarity-filtered multi-level expansion around the seed nodes.

Breadth-first expansion in which each hop keeps only the neighbours that still look
like the query: level ``k`` (1-based) takes the not-yet-visited neighbours of the
previous level, scores them by cosine similarity to the original query and keeps those
at or above ``thresholds[k-1]``, capped per level. Lowering the threshold with depth
follows the similarity-gated graph traversal of HippoRAG-style retrievers and of the
"think-on-graph" family (Sun et al. 2024, "Think-on-Graph", ICLR), where a beam of the
most relevant neighbours is kept at each hop.

Neighbours are read in both directions (out-edges from a row slice, in-edges from one
sparse mat-vec per level), so no Python loop runs over the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ExpansionLevel:
    """The nodes and edges one hop adds.

    Attributes:
        level: Hop distance from the seeds, 1-based.
        threshold: Similarity threshold applied; None when unfiltered.
        nodes: Added node indices, most similar first (ties: lower index).
        edges: ``(source, target)`` edges of the adjacency matrix joining the previous
            level (or the seeds) to ``nodes``.
    """

    level: int
    threshold: float | None
    nodes: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]


def _neighbours(adjacency: sp.csr_array, frontier: IntArray, symmetric: bool = False) -> IntArray:
    """Distinct nodes joined to the frontier by an edge in either direction."""
    rows = adjacency[frontier]
    out_nb = rows.indices[rows.data != 0]  # explicit zeros (e.g. from masking) are no edge
    if symmetric:  # in-neighbours are the out-neighbours: skip a mat-vec over every edge
        return np.unique(out_nb).astype(np.int64)
    indicator = np.zeros(adjacency.shape[0], dtype=np.float64)
    indicator[frontier] = 1.0
    in_nb = np.flatnonzero(adjacency @ indicator)
    return np.union1d(out_nb, in_nb).astype(np.int64)


def _connecting_edges(
    adjacency: sp.csr_array, frontier: IntArray, kept: IntArray, limit: int
) -> tuple[tuple[int, int], ...]:
    """Edges between frontier and kept nodes, at most ``limit``.

    Ranked so that every kept node first gets its heaviest edge (in the order of
    ``kept``), then the remaining edges by kept-node order and weight descending.
    """
    fwd = sp.coo_array(adjacency[frontier][:, kept])
    bwd = sp.coo_array(adjacency[kept][:, frontier])
    src = np.concatenate([frontier[fwd.row], kept[bwd.row]])
    dst = np.concatenate([kept[fwd.col], frontier[bwd.col]])
    kept_pos = np.concatenate([fwd.col, bwd.row])  # position of the kept end in `kept`
    weight = np.concatenate([fwd.data, bwd.data]).astype(np.float64)
    real = weight != 0
    src, dst, kept_pos, weight = src[real], dst[real], kept_pos[real], weight[real]
    if src.size == 0 or limit <= 0:
        return ()
    order = np.lexsort((dst, src, -weight, kept_pos))
    ranked_pos = kept_pos[order]
    first = np.ones(order.size, dtype=bool)
    first[1:] = ranked_pos[1:] != ranked_pos[:-1]  # heaviest edge of each kept node
    order = np.concatenate([order[first], order[~first]])[:limit]
    return tuple(zip(src[order].tolist(), dst[order].tolist()))


def expand(
    adjacency: sp.csr_array,
    seeds: Sequence[int],
    similarity: Callable[[IntArray], npt.ArrayLike],
    thresholds: Sequence[float] = (0.5, 0.35, 0.2),
    max_nodes_per_level: int = 15,
    max_edges_per_level: int = 25,
    use_filter: bool = True,
    allowed: npt.NDArray[np.bool_] | None = None,
    symmetric: bool = False,
) -> list[ExpansionLevel]:
    """Expand from the seeds, one level per threshold.

    The seeds count as visited and are never returned; a returned node is never
    returned again. A node filtered out at one level is not visited: reached again
    later through another node, it may pass that level's lower threshold. A seed
    outside ``allowed`` is dropped first, so nothing is reached through a node the
    caller may not see, and ``similarity`` is never asked about such nodes. Expansion
    stops early when a level adds no node.

    Args:
        adjacency: Square matrix of the graph; both edge directions are followed.
        seeds: Seed node indices.
        similarity: Called with an array of node indices, returns their cosine
            similarity to the original query (same length).
        thresholds: One similarity threshold per level; its length is the depth.
        max_nodes_per_level: Keep at most this many nodes per level, most similar first.
        max_edges_per_level: Keep at most this many connecting edges per level.
        use_filter: False keeps every neighbour regardless of similarity (still
            ranked by it and capped); the quick route uses one unfiltered level.
        allowed: Boolean mask over all nodes; nodes outside it are never visited.
        symmetric: The caller vouches that ``adjacency`` equals its transpose (the
            index's matrices do): in-edges are then read from the rows too, which
            saves one pass over every edge per level. Same result either way.

    Returns:
        One ``ExpansionLevel`` per level that added nodes.

    Raises:
        ValueError: Shapes disagree, a seed is out of range, a cap is negative, or
            ``similarity`` returns the wrong number of scores.
    """
    n = adjacency.shape[0]
    if adjacency.ndim != 2 or adjacency.shape[1] != n:
        raise ValueError(f"adjacency must be square, got shape {adjacency.shape}")
    if max_nodes_per_level < 0 or max_edges_per_level < 0:
        raise ValueError("max_nodes_per_level and max_edges_per_level must be >= 0")
    frontier = np.unique(np.asarray(seeds, dtype=np.int64))
    if frontier.size and (frontier[0] < 0 or frontier[-1] >= n):
        raise ValueError(f"seed index outside [0, {n})")
    if allowed is not None:
        allowed = np.asarray(allowed, dtype=bool)
        if allowed.shape != (n,):
            raise ValueError(f"allowed must be a boolean mask of shape ({n},), got {allowed.shape}")
        frontier = frontier[allowed[frontier]]
    visited = np.zeros(n, dtype=bool)
    visited[frontier] = True
    matrix = sp.csr_array(adjacency)
    levels: list[ExpansionLevel] = []
    for depth, threshold in enumerate(thresholds, start=1):
        if frontier.size == 0 or max_nodes_per_level == 0:
            break
        cand = _neighbours(matrix, frontier, symmetric)
        cand = cand[~visited[cand]]
        if allowed is not None:
            cand = cand[allowed[cand]]
        if cand.size == 0:
            break
        sims = np.asarray(similarity(cand), dtype=np.float64).ravel()
        if sims.shape != cand.shape:
            raise ValueError(f"similarity returned {sims.size} scores for {cand.size} nodes")
        if use_filter:
            keep = sims >= threshold
            cand, sims = cand[keep], sims[keep]
            if cand.size == 0:
                break
        order = np.lexsort((cand, -np.nan_to_num(sims, nan=-np.inf)))[:max_nodes_per_level]
        kept = cand[order]
        edges = _connecting_edges(matrix, frontier, kept, max_edges_per_level)
        visited[kept] = True
        levels.append(
            ExpansionLevel(
                level=depth,
                threshold=float(threshold) if use_filter else None,
                nodes=tuple(kept.tolist()),
                edges=edges,
            )
        )
        frontier = kept
    return levels
