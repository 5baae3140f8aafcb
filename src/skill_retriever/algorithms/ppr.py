"""Personalized PageRank on a cached sparse transition matrix.

Power iteration with exactly the semantics of ``networkx.pagerank`` (the scipy
variant): the walk starts from the uniform vector, follows out-edges in proportion to
their weight with probability ``alpha``, and otherwise teleports to the (normalised)
personalization vector; the mass of dangling nodes (no out-weight) is redistributed by
the personalization vector too. Iteration stops when the L1 change between two
iterates drops below ``N * tol``. ``reference_pagerank`` is the plain networkx call the
tests hold ours against.

networkx rebuilds its sparse matrix on every call; here the caller prepares the walk
once (:class:`Walk`: the transposed transition matrix as CSR, so each step is a row-wise
gather, optionally in float32) and each query costs only the sparse mat-vecs. For the
index's symmetric adjacency the walk needs no transpose at all (:func:`symmetric_walk`).

References:
    Page, Brin, Motwani, Winograd. "The PageRank citation ranking: Bringing order to
    the Web." Stanford InfoLab, 1999.
    Haveliwala. "Topic-sensitive PageRank." WWW 2002 (the personalization vector).
    Langville, Meyer. "A survey of eigenvector methods of web information retrieval."
    SIAM Review 47(1), 2005 (power iteration and dangling nodes).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from skill_retriever.exceptions import PowerIterationFailedConvergence

if TYPE_CHECKING:  # networkx is only the tests' reference: 0.15 s off every cold query
    import networkx as nx

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


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


@dataclass(frozen=True)
class Walk:
    """A transition matrix made ready for many PageRank runs (built once, e.g. per snapshot).

    Attributes:
        step: ``T`` transposed, stored as CSR, so one step ``x T`` is ``step @ x``: a
            gather along each row. (The CSC view ``T.T`` scatters instead; at 100k nodes
            and 2M entries the CSR product was 10-20 % faster in float64, and float32
            halves the bytes read again.)
        rows: ``T`` itself, as CSR: an iterate that is non-zero on few nodes steps by
            reading only their rows (``ppr_ranked``).
        dangling: Rows of ``T`` with no out-weight; their mass restarts by the
            personalization vector, as in networkx.
        stationary: The walk's stationary distribution when it is known in closed form
            (a symmetric adjacency: each node's weight over the total), else None.
        components: The connected component of each node, with ``stationary``.
            ``ppr_ranked`` warm-starts from the stationary distribution of the seeds'
            components.
    """

    step: sp.csr_array
    rows: sp.csr_array
    dangling: IntArray
    stationary: npt.NDArray[np.floating] | None = None
    components: IntArray | None = None

    @property
    def size(self) -> int:
        """Number of nodes."""
        return int(self.step.shape[0])

    @property
    def dtype(self) -> np.dtype[Any]:
        """float64, or float32 for a walk built to read half the bytes per step."""
        return self.step.dtype  # type: ignore[no-any-return]


#: An L1 change a float32 iterate resolves with room to spare: its rounding alone moves a
#: vector of total mass 1 by about 1e-7 in L1 per step, so a stricter stop (``N * tol``
#: below this) iterates in float64 instead (a small graph, or a very small ``tol``).
FLOAT32_L1 = 1e-5


def precise_enough(walk: Walk, tol: float) -> Walk:
    """``walk``, or its float64 copy when float32 cannot resolve an L1 change of
    ``N * tol`` (see :data:`FLOAT32_L1`)."""
    if walk.dtype == np.float64 or walk.size * tol >= FLOAT32_L1:
        return walk
    stationary = None if walk.stationary is None else walk.stationary.astype(np.float64)
    return Walk(walk.step.astype(np.float64), walk.rows.astype(np.float64), walk.dangling, stationary,
                walk.components)


def walk_of(transition: sp.csr_array, dtype: npt.DTypeLike = np.float64) -> Walk:
    """The :class:`Walk` of any transition matrix from :func:`transition_matrix` (one
    transposed copy).

    Raises:
        ValueError: The matrix is not square.
    """
    matrix = sp.csr_array(transition)  # no copy when already CSR
    n = matrix.shape[0]
    if matrix.ndim != 2 or matrix.shape[1] != n:
        raise ValueError(f"transition must be square, got shape {matrix.shape}")
    if matrix.nnz and not np.all(matrix.data != 0):  # explicit zeros: read the row sums
        dangling = np.flatnonzero(np.asarray(matrix.sum(axis=1)).ravel() == 0)
    else:
        dangling = np.flatnonzero(np.diff(matrix.indptr) == 0)
    step = sp.csr_array(matrix.T, dtype=dtype)
    return Walk(step, sp.csr_array(matrix, dtype=dtype, copy=True), dangling.astype(np.int64))


def symmetric_walk(adjacency: sp.csr_array, dtype: npt.DTypeLike = np.float32) -> Walk:
    """The :class:`Walk` of ``transition_matrix(adjacency)`` for a symmetric adjacency,
    without a transpose.

    ``T = D^-1 A`` with ``D`` the row sums, so ``T^T = A D^-1``: the adjacency's own
    sparsity pattern with each entry divided by its column's weight (and ``T`` the same
    pattern divided by its row's). The caller vouches that ``adjacency`` equals its
    transpose (the index's matrices do). Explicit zero entries (left by masking) are
    dropped, as ``transition_matrix`` drops them.

    The walk knows its stationary distribution (each node's weight over the total) and
    its connected components, which ``ppr_ranked`` warm-starts from.

    Raises:
        ValueError: The matrix is not square or has a negative or non-finite weight.
    """
    a = sp.csr_array(adjacency, dtype=np.float64, copy=True)
    n = a.shape[0]
    if a.ndim != 2 or a.shape[1] != n:
        raise ValueError(f"adjacency must be a square matrix, got shape {a.shape}")
    a.sum_duplicates()
    if a.nnz and (not np.all(np.isfinite(a.data)) or a.data.min() < 0):
        raise ValueError("adjacency weights must be finite and non-negative")
    a.eliminate_zeros()
    weight = np.asarray(a.sum(axis=1), dtype=np.float64).ravel()
    inv = np.zeros_like(weight)
    np.divide(1.0, weight, out=inv, where=weight != 0)
    step = sp.csr_array((a.data * inv[a.indices], a.indices, a.indptr), shape=a.shape, dtype=dtype)
    row_of_entry = np.repeat(np.arange(n), np.diff(a.indptr))
    rows = sp.csr_array((a.data * inv[row_of_entry], a.indices, a.indptr), shape=a.shape, dtype=dtype)
    # On an undirected graph the walk's stationary distribution is the weight share of
    # each node (an isolated node gets 0, so no mass ever dangles from it).
    total = weight.sum()
    stationary = (weight / total if total > 0 else weight).astype(dtype)
    # Imported here: scipy.sparse.csgraph brings scipy.sparse.linalg and scipy.linalg
    # (about 45 ms), which a query whose route runs no PageRank (smart, quick) never needs.
    from scipy.sparse.csgraph import connected_components

    _, components = connected_components(a, directed=False)
    return Walk(step, rows, np.flatnonzero(weight == 0).astype(np.int64), stationary, components.astype(np.int64))


def _restart(personalization: npt.ArrayLike, n: int) -> FloatArray:
    """The personalization vector, checked and normalised to sum 1."""
    p = np.asarray(personalization, dtype=np.float64)
    if p.shape != (n,):
        raise ValueError(f"personalization must have shape ({n},), got {p.shape}")
    if n and (not np.all(np.isfinite(p)) or p.min() < 0):
        raise ValueError("personalization must be finite and non-negative")
    total = p.sum()
    if n and total == 0:
        raise ValueError("personalization is all zero; give at least one seed a positive weight")
    return p / total if n else p


def personalized_pagerank(
    transition: sp.csr_array | Walk,
    personalization: npt.ArrayLike,
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 300,
) -> FloatArray:
    """Personalized PageRank by power iteration, as ``networkx.pagerank`` computes it.

    Each step is ``x <- alpha * (x T + sum(x[dangling]) * p) + (1 - alpha) * p``
    starting from the uniform vector, where ``p`` is the personalization vector
    normalised to sum 1 and the dangling nodes are the all-zero rows of ``T``. The
    restart is added on the support of ``p`` only (a handful of seeds), not as a dense
    vector per step.

    ``max_iter`` defaults to 300, not networkx's 100: the L1 change shrinks at least by
    ``alpha`` per step, so with ``tol=1e-10`` any graph converges within 225 steps for
    ``alpha <= 0.9``, while 100 steps fail on slow-mixing graphs (a 10-node cycle).

    Args:
        transition: Row-stochastic (or all-zero-row) matrix from ``transition_matrix``,
            or its prepared :class:`Walk`. A float32 walk computes in float32 (scores
            within about 1e-8 of float64 on the 100k-node benchmark graph) unless
            ``N * tol`` is finer than float32 resolves (:func:`precise_enough`).
        personalization: Non-negative weight per node (length N); need not sum to 1.
        alpha: Damping factor: probability of following an edge rather than teleporting.
        tol: Convergence when the L1 change between iterates is below ``N * tol``.
        max_iter: Iteration limit.

    Returns:
        The score of every node (length N, sums to 1), float64. An empty graph gives an
        empty array.

    Raises:
        ValueError: Shapes disagree, alpha is outside [0, 1], or the personalization
            is negative, non-finite or all zero (PPR needs at least one seed; networkx
            raises ZeroDivisionError there).
        PowerIterationFailedConvergence: Not converged within ``max_iter`` steps.
    """
    walk = precise_enough(transition, tol) if isinstance(transition, Walk) else walk_of(transition)
    n = walk.size
    p = _restart(personalization, n)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    support = np.flatnonzero(p)
    weights = p[support]
    step, dangling = walk.step, walk.dangling
    x = np.full(n, 1.0 / n, dtype=walk.dtype)
    change = np.empty_like(x)
    err = float("inf")
    for _ in range(max_iter):
        last = x
        x = step @ last
        x *= alpha
        back = (1.0 - alpha) + alpha * float(last[dangling].sum(dtype=np.float64))  # restart mass
        x[support] += back * weights
        np.subtract(x, last, out=change)
        np.abs(change, out=change)
        err = float(change.sum(dtype=np.float64))
        if err < n * tol:
            out: FloatArray = x.astype(np.float64, copy=False)
            return out
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
    import networkx as nx

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
