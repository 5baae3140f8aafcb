"""Personalized PageRank on a cached sparse transition matrix.

Power iteration with exactly the semantics of ``networkx.pagerank`` (the scipy
variant): the walk starts from the uniform vector, follows out-edges in proportion to
their weight with probability ``alpha``, and otherwise teleports to the (normalised)
personalization vector; the mass of dangling nodes (no out-weight) is redistributed by
the personalization vector too. Iteration stops when the L1 change between two
iterates drops below ``N * tol``. ``reference_pagerank`` is the plain networkx call the
tests hold ours against.

networkx rebuilds its sparse matrix on every call; here the caller builds the
transition matrix once (``transition_matrix``) and each query costs only the sparse
mat-vecs.

References:
    Page, Brin, Motwani, Winograd. "The PageRank citation ranking: Bringing order to
    the Web." Stanford InfoLab, 1999.
    Haveliwala. "Topic-sensitive PageRank." WWW 2002 (the personalization vector).
    Langville, Meyer. "A survey of eigenvector methods of web information retrieval."
    SIAM Review 47(1), 2005 (power iteration and dangling nodes).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from skill_retriever.exceptions import PowerIterationFailedConvergence

FloatArray = npt.NDArray[np.float64]


def transition_matrix(adjacency: sp.csr_array) -> sp.csr_array:
    """Row-normalise a weighted adjacency matrix into a transition matrix.

    Entry ``(i, j)`` of the result is ``w(i, j) / sum_k w(i, k)``. Rows with zero
    out-weight (dangling nodes) stay all-zero; ``personalized_pagerank`` detects them
    and redistributes their mass. Duplicate entries are summed, as networkx does for
    multigraphs.

    Args:
        adjacency: Square matrix; entry ``(i, j)`` is the weight of edge ``i -> j``.
            Weights must be non-negative.

    Returns:
        A new float64 CSR matrix of the same shape; the input is not modified.

    Raises:
        ValueError: The matrix is not square or has a negative or non-finite weight.
    """
    a = sp.csr_array(adjacency, dtype=np.float64, copy=True)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"adjacency must be a square matrix, got shape {a.shape}")
    a.sum_duplicates()
    if a.nnz and (not np.all(np.isfinite(a.data)) or a.data.min() < 0):
        raise ValueError("adjacency weights must be finite and non-negative")
    out_weight = np.asarray(a.sum(axis=1), dtype=np.float64).ravel()
    inv = np.zeros_like(out_weight)
    np.divide(1.0, out_weight, out=inv, where=out_weight != 0)
    t = sp.csr_array(sp.diags_array(inv) @ a)
    t.eliminate_zeros()  # so a dangling row is a row with no stored entry
    return t


def personalized_pagerank(
    transition: sp.csr_array,
    personalization: npt.ArrayLike,
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 300,
) -> FloatArray:
    """Personalized PageRank by power iteration, as ``networkx.pagerank`` computes it.

    Each step is ``x <- alpha * (x T + sum(x[dangling]) * p) + (1 - alpha) * p``
    starting from the uniform vector, where ``p`` is the personalization vector
    normalised to sum 1 and the dangling nodes are the all-zero rows of ``T``.

    ``max_iter`` defaults to 300, not networkx's 100: the L1 change shrinks at least by
    ``alpha`` per step, so with ``tol=1e-10`` any graph converges within 225 steps for
    ``alpha <= 0.9``, while 100 steps fail on slow-mixing graphs (a 10-node cycle).

    Args:
        transition: Row-stochastic (or all-zero-row) matrix from ``transition_matrix``.
        personalization: Non-negative weight per node (length N); need not sum to 1.
        alpha: Damping factor: probability of following an edge rather than teleporting.
        tol: Convergence when the L1 change between iterates is below ``N * tol``.
        max_iter: Iteration limit.

    Returns:
        The score of every node (length N, sums to 1). An empty graph gives an empty
        array.

    Raises:
        ValueError: Shapes disagree, alpha is outside [0, 1], or the personalization
            is negative, non-finite or all zero (PPR needs at least one seed; networkx
            raises ZeroDivisionError there).
        PowerIterationFailedConvergence: Not converged within ``max_iter`` steps.
    """
    n = transition.shape[0]
    if transition.ndim != 2 or transition.shape[1] != n:
        raise ValueError(f"transition must be square, got shape {transition.shape}")
    p = np.asarray(personalization, dtype=np.float64)
    if p.shape != (n,):
        raise ValueError(f"personalization must have shape ({n},), got {p.shape}")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    if not np.all(np.isfinite(p)) or p.min() < 0:
        raise ValueError("personalization must be finite and non-negative")
    total = p.sum()
    if total == 0:
        raise ValueError("personalization is all zero; give at least one seed a positive weight")
    p = p / total
    matrix = sp.csr_array(transition)  # no copy when already CSR
    if matrix.nnz and not np.all(matrix.data != 0):  # explicit zeros: read the row sums
        dangling = np.flatnonzero(np.asarray(matrix.sum(axis=1)).ravel() == 0)
    else:
        dangling = np.flatnonzero(np.diff(matrix.indptr) == 0)
    transposed = matrix.T  # CSC view, no copy: x @ T == T.T @ x
    x: FloatArray = np.full(n, 1.0 / n)
    err = float("inf")
    for _ in range(max_iter):
        last = x
        x = alpha * (transposed @ last + last[dangling].sum() * p) + (1.0 - alpha) * p
        err = float(np.abs(x - last).sum())
        if err < n * tol:
            return x
    raise PowerIterationFailedConvergence(max_iter, err)


def reference_pagerank(
    graph: nx.DiGraph[Any],
    personalization: Mapping[Hashable, float],
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 300,
) -> dict[Hashable, float]:
    """The reference: ``networkx.pagerank`` with edge weights from ``"weight"``.

    Slow (rebuilds the matrix on every call); for tests and debugging only.
    """
    result = nx.pagerank(
        graph,
        alpha=alpha,
        personalization=dict(personalization),
        tol=tol,
        max_iter=max_iter,
        weight="weight",
    )
    return dict(result)


def adaptive_alpha(
    has_named_entity: bool,
    n_seeds: int,
    specific: float = 0.9,
    broad: float = 0.6,
    default: float = 0.85,
) -> float:
    """Pick the damping factor from the shape of the query.

    A specific query (a named entity and at most 3 seeds) stays close to its seeds
    (high alpha walks further along edges but teleports back to few seeds); a broad
    query (more than 5 seeds) teleports more, spreading over the seeds' neighbourhoods.

    Args:
        has_named_entity: Whether the planner found a named entity in the query.
        n_seeds: Number of seed nodes.
        specific: Alpha for a specific query.
        broad: Alpha for a broad query.
        default: Alpha otherwise.
    """
    if has_named_entity and n_seeds <= 3:
        return specific
    if n_seeds > 5:
        return broad
    return default


def top_scores(
    scores: npt.ArrayLike, min_score: float = 0.001, limit: int | None = None
) -> list[tuple[int, float]]:
    """Indices whose score is at least ``min_score``, best first.

    Ties are broken by the lower index, so the answer is deterministic. With a
    ``limit`` only the candidates are partitioned (``numpy.partition``), not sorted.

    Args:
        scores: One score per node.
        min_score: Scores below this (and NaN) are dropped.
        limit: Keep at most this many; None keeps all.

    Returns:
        ``(index, score)`` pairs sorted by score descending, then index ascending.

    Raises:
        ValueError: ``limit`` is negative.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    values = np.asarray(scores, dtype=np.float64).ravel()
    picked = np.flatnonzero(values >= min_score)
    if limit is not None and limit < picked.size:
        if limit == 0:
            return []
        vals = values[picked]
        kth = -np.partition(-vals, limit - 1)[limit - 1]
        above = picked[vals > kth]
        tied = picked[vals == kth][: limit - above.size]  # lowest indices win the tie
        picked = np.concatenate([above, tied])
    order = np.lexsort((picked, -values[picked]))
    chosen = picked[order]
    return list(zip(chosen.tolist(), values[chosen].tolist()))
