"""Flow pruning: keep only the few relational paths that carry most of the PPR mass.

A simplified form of PathRAG's flow-based pruning (Chen et al. 2025, "PathRAG: Pruning
Graph-based Retrieval Augmented Generation with Relational Paths", arXiv:2502.14902).
PathRAG spreads a decaying resource from each retrieved node and keeps the paths whose
average resource is highest. Here the PPR score plays the resource:

1. endpoints = the ``max_endpoints`` best non-seed nodes by PPR score (score > 0);
2. for each endpoint, one shortest path from the nearest seed (edges read as undirected
   and unweighted, at most ``max_hops`` hops), from one multi-source breadth-first
   search done with sparse row and column slices, one vectorised step per hop, that
   stops as soon as every endpoint is reached. (On a 100k-node, 1M-edge graph this
   takes a few ms; ``scipy.sparse.csgraph.dijkstra(..., min_only=True)`` took ~70 ms,
   because it symmetrises the whole matrix and searches every node within the limit.)
3. reliability of a path = mean PPR score of its nodes (a node without a score counts 0);
4. keep paths with reliability >= ``threshold``, at most ``max_paths``, best first.

The kept nodes (paths plus seeds) are a small, explained subset of the PPR answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from skill_retriever.algorithms.ppr import top_scores

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ScoredPath:
    """A path from a seed (``nodes[0]``) to an endpoint (``nodes[-1]``).

    Attributes:
        nodes: Node indices along the path, seed first.
        reliability: Mean PPR score of the path's nodes.
    """

    nodes: tuple[int, ...]
    reliability: float


@dataclass(frozen=True)
class PrunedFlow:
    """What flow pruning keeps.

    Attributes:
        paths: Kept paths, best reliability first.
        nodes: Union of the kept paths' nodes and the seeds.
        endpoints: The endpoints considered, best PPR score first (an endpoint with no
            path within ``max_hops``, or too weak a path, has no kept path).
    """

    paths: tuple[ScoredPath, ...]
    nodes: frozenset[int]
    endpoints: tuple[int, ...]


def _score_vector(ppr_scores: Mapping[int, float] | npt.ArrayLike, n: int) -> FloatArray:
    if isinstance(ppr_scores, Mapping):
        vec = np.zeros(n, dtype=np.float64)
        if ppr_scores:
            keys = np.fromiter(ppr_scores.keys(), dtype=np.int64, count=len(ppr_scores))
            vals = np.fromiter(ppr_scores.values(), dtype=np.float64, count=len(ppr_scores))
            if keys.min() < 0 or keys.max() >= n:
                raise ValueError(f"ppr_scores has a node index outside [0, {n})")
            vec[keys] = vals
        return vec
    vec = np.asarray(ppr_scores, dtype=np.float64)
    if vec.shape != (n,):
        raise ValueError(f"ppr_scores must have shape ({n},), got {vec.shape}")
    return np.nan_to_num(vec, nan=0.0)


def _bfs_predecessors(
    matrix: sp.csr_array,
    seeds: IntArray,
    targets: Sequence[int],
    max_hops: int,
    scores: FloatArray,
    symmetric: bool = False,
) -> IntArray:
    """Multi-source breadth-first search over undirected edges, level by level.

    Each level is one row slice (out-edges) and one column slice (in-edges) of the
    frontier, all vectorised; the search stops once every target is reached. A newly
    reached node's predecessor is its best-scored neighbour in the previous level
    (ties: lower index), so among equally short routes the more reliable step wins.

    Returns:
        Predecessor of every node: -1 for a seed, -2 for a node not reached.
    """
    n = matrix.shape[0]
    reached = np.zeros(n, dtype=bool)
    reached[seeds] = True
    pred = np.full(n, -2, dtype=np.int64)
    pred[seeds] = -1
    wanted = np.asarray(targets, dtype=np.int64)
    frontier = seeds
    for _ in range(max_hops):
        if reached[wanted].all() or frontier.size == 0:
            break
        out_e = sp.coo_array(matrix[frontier])
        if symmetric:  # the in-edges are the out-edges: no column slice over every edge
            src, dst = frontier[out_e.row].astype(np.int64), out_e.col.astype(np.int64)
            real = out_e.data != 0
        else:
            in_e = sp.coo_array(matrix[:, frontier])
            src = np.concatenate([frontier[out_e.row], frontier[in_e.col]]).astype(np.int64)
            dst = np.concatenate([out_e.col, in_e.row]).astype(np.int64)
            real = np.concatenate([out_e.data, in_e.data]) != 0
        src, dst = src[real], dst[real]
        new = ~reached[dst]
        src, dst = src[new], dst[new]
        if dst.size == 0:
            break
        order = np.lexsort((src, -scores[src], dst))
        src, dst = src[order], dst[order]
        first = np.ones(dst.size, dtype=bool)
        first[1:] = dst[1:] != dst[:-1]
        src, dst = src[first], dst[first]
        reached[dst] = True
        pred[dst] = src
        frontier = dst
    return pred


def prune_flow(
    adjacency: sp.csr_array,
    seeds: Sequence[int],
    ppr_scores: Mapping[int, float] | npt.ArrayLike,
    max_endpoints: int = 8,
    max_paths: int = 10,
    threshold: float = 0.01,
    max_hops: int = 4,
    symmetric: bool = False,
    endpoint_mask: npt.NDArray[np.bool_] | None = None,
) -> PrunedFlow:
    """Prune a PPR answer to the most reliable seed-to-endpoint paths.

    Tie-breaking is deterministic: endpoints with equal scores go by lower index; paths
    with equal reliability go by fewer nodes, then by their node sequence; among equally
    short routes, each step back picks the best-scored neighbour one hop nearer the
    seeds (ties: lower index).

    Args:
        adjacency: Square matrix of the graph; direction and weights are ignored.
        seeds: Seed node indices (duplicates are ignored).
        ppr_scores: PPR score per node: a full-length array, or a mapping in which a
            missing node counts 0.
        max_endpoints: How many top-scored non-seed nodes to explain.
        max_paths: How many paths to keep at most.
        threshold: Minimum reliability of a kept path.
        max_hops: Longest path considered, in edges.
        symmetric: The caller vouches that ``adjacency`` equals its transpose (the
            index's matrices do): each search level then reads rows only, not a column
            slice that passes over every edge. Same result either way.
        endpoint_mask: Nodes that may be endpoints (None: all). Paths still run through
            any node; a caller who wants passages or deploys explains the best of
            those, not the hubs between them.

    Returns:
        The kept paths and nodes. No seeds give an empty ``PrunedFlow``.

    Raises:
        ValueError: The matrix is not square, a seed or score index is out of range,
            or a bound is negative.
    """
    n = adjacency.shape[0]
    if adjacency.ndim != 2 or adjacency.shape[1] != n:
        raise ValueError(f"adjacency must be square, got shape {adjacency.shape}")
    if min(max_endpoints, max_paths, max_hops) < 0:
        raise ValueError("max_endpoints, max_paths and max_hops must be >= 0")
    seed_idx = np.unique(np.asarray(seeds, dtype=np.int64))
    if seed_idx.size and (seed_idx[0] < 0 or seed_idx[-1] >= n):
        raise ValueError(f"seed index outside [0, {n})")
    scores = _score_vector(ppr_scores, n)
    if seed_idx.size == 0:
        return PrunedFlow(paths=(), nodes=frozenset(), endpoints=())

    masked = scores.copy()
    masked[seed_idx] = 0.0
    if endpoint_mask is not None:
        endpoint_mask = np.asarray(endpoint_mask, dtype=bool)
        if endpoint_mask.shape != (n,):
            raise ValueError(f"endpoint_mask must be a boolean mask of shape ({n},), got {endpoint_mask.shape}")
        masked[~endpoint_mask] = 0.0
    smallest_positive = float(np.nextafter(0.0, 1.0))
    endpoints = [i for i, _ in top_scores(masked, min_score=smallest_positive, limit=max_endpoints)]
    if not endpoints:
        return PrunedFlow(paths=(), nodes=frozenset(seed_idx.tolist()), endpoints=())

    pred = _bfs_predecessors(sp.csr_array(adjacency), seed_idx, endpoints, max_hops, scores, symmetric)
    candidates: list[ScoredPath] = []
    for end in endpoints:
        if pred[end] == -2:
            continue
        path = [end]
        while pred[path[-1]] >= 0:
            path.append(int(pred[path[-1]]))
        nodes = tuple(reversed(path))
        reliability = float(scores[list(nodes)].mean())
        if reliability >= threshold:
            candidates.append(ScoredPath(nodes=nodes, reliability=reliability))
    candidates.sort(key=lambda p: (-p.reliability, len(p.nodes), p.nodes))
    kept = tuple(candidates[:max_paths])
    kept_nodes = set(seed_idx.tolist())
    for path_ in kept:
        kept_nodes.update(path_.nodes)
    return PrunedFlow(paths=kept, nodes=frozenset(kept_nodes), endpoints=tuple(endpoints))
