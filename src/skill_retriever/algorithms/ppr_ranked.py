"""Personalized PageRank for the query path: a warm start, networkx's stopping rule.

:func:`~skill_retriever.algorithms.ppr.personalized_pagerank` reproduces
``networkx.pagerank`` iterate for iterate: it starts from the uniform vector and stops
when the L1 change falls below ``N * tol``. :func:`ranked_pagerank` computes the same
fixed point with the same stopping rule in fewer steps; each change was measured on the
100k-node / 1M-edge benchmark graph (docs/scaling.md):

1. **A warm start.** PPR is the series ``x* = (1 - alpha) sum_k alpha^k M^k p`` (``M``
   the walk, ``p`` the restart vector). The first ``warm`` terms are computed exactly,
   each from the rows of its predecessor's support alone (the seeds, then their
   neighbours: about 1 % of the benchmark graph, so almost free), as in local PPR
   (Andersen, Chung, Lang. "Local graph partitioning using PageRank vectors." FOCS
   2006). The rest of the mass, ``alpha^(warm+1)``, goes where ``M^k p`` tends on a graph
   that mixes: the walk's stationary distribution over the seeds' connected components
   (on an undirected graph, each node's weight share; known in closed form, so nothing
   is iterated per snapshot). Power iteration then goes on from there; the update is a
   contraction, so the fixed point is the one networkx converges to, and the stop is
   networkx's rule, so the answer is as close to it as networkx's own. On the 103
   queries of the 1M-edge benchmark (docs/scaling.md, hand-run comparisons): 4 full
   steps instead of networkx's 7 (8 from the restart vector alone), and the same route
   answers in 103 of 103.
2. **Optionally, an early stop on settled ranks** (``settle`` > 0, the ``ppr_settle``
   setting, off by default): stop once the best ``top`` nodes, in order, came out the
   same after ``settle + 1`` successive steps. A heuristic, not a bound (no cheap
   certificate exists for the order of close scores). The tests hold only that it stops
   no later than the L1 rule (``tests/algorithms/test_ppr_ranked.py``: 32 heavy-tailed
   graphs, 3,000 nodes, alpha 0.5-0.9, 1-22 seeds, where the L1 rule's top 20 is the
   converged order every time); on the 1M-edge benchmark's 103 queries ``settle=2``
   changed 2 route answers and saved no time (docs/scaling.md's table), hence off.

Scores come back in the same units (they sum to 1); they are the iterate at the stop,
so a score can differ from the converged one by up to ``alpha / (1 - alpha)`` times the
last L1 change in total.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from skill_retriever.algorithms.ppr import FloatArray, IntArray, Walk, _restart, precise_enough
from skill_retriever.exceptions import PowerIterationFailedConvergence

#: An iterate non-zero on at most this share of the nodes takes the sparse step.
SPARSE_SHARE = 0.1


@dataclass(frozen=True)
class RankedPageRank:
    """What :func:`ranked_pagerank` computed.

    Attributes:
        scores: The score of every node at the stop (float64, sums to 1).
        iterations: Steps taken.
        settled: True when the ranks settled (``settle``) before the L1 rule was met.
    """

    scores: FloatArray
    iterations: int
    settled: bool


def _best(x: npt.NDArray[np.floating], top: int, floor: float) -> tuple[IntArray, float]:
    """The best ``top`` rows of ``x`` with a positive score, in order (ties: lower row),
    and the floor for the next call.

    ``floor`` is a value believed to lie below the ``top``-th score: only the rows at or
    above it are sorted (a threshold pass costs ~0.04 ms over 100k values, a partition of
    all of them ~1 ms, and ~8 ms while most of them are still zero). When it is not low
    enough, every positive row is considered; when too many pass, their values are
    partitioned first.
    """
    cand = np.flatnonzero(x >= floor) if floor > 0 else np.zeros(0, dtype=np.int64)
    if cand.size < top:
        cand = np.flatnonzero(x > 0)
    if cand.size > 64 * top:
        cand = cand[np.argpartition(x[cand], cand.size - top)[cand.size - top :]]
    order = cand[np.lexsort((cand, -x[cand]))][:top]
    floor = float(x[order[-1]]) * 0.5 if order.size == top else 0.0
    return order.astype(np.int64), floor


def _step(walk: Walk, y: npt.NDArray[np.floating], support: IntArray, weights: FloatArray,
          dense: bool) -> npt.NDArray[np.floating]:
    """``M y``: one step of the walk, the dangling mass restarting by ``p``; read from the
    rows of ``y``'s support alone unless ``dense``."""
    if dense:
        out = walk.step @ y
    else:
        nonzero = np.flatnonzero(y)
        out = y[nonzero] @ walk.rows[nonzero]
    lost = float(y[walk.dangling].sum(dtype=np.float64)) if walk.dangling.size else 0.0
    if lost:
        out[support] += lost * weights
    return out  # type: ignore[no-any-return]


def _tail(walk: Walk, support: IntArray) -> npt.NDArray[np.floating] | None:
    """The stationary distribution of the seeds' connected components (None when the walk
    does not know it, or the seeds sit on isolated nodes)."""
    if walk.stationary is None or walk.components is None:
        return None
    inside = np.zeros(int(walk.components.max()) + 1, dtype=bool)
    inside[walk.components[support]] = True
    tail = np.where(inside[walk.components], walk.stationary, 0.0).astype(walk.dtype)
    total = float(tail.sum(dtype=np.float64))
    return tail / total if total > 0 else None


def ranked_pagerank(
    walk: Walk,
    personalization: npt.ArrayLike,
    alpha: float = 0.85,
    top: int = 20,
    settle: int = 0,
    tol: float = 1e-8,
    max_iter: int = 200,
    warm: int = 2,
) -> RankedPageRank:
    """Personalized PageRank from a warm start, to networkx's L1 rule (or until its best
    ``top`` ranks settle, when ``settle`` > 0).

    The update is networkx's (``x <- alpha * (x T + sum(x[dangling]) * p) + (1 - alpha)
    * p``); see the module docstring for the warm start and the stopping rules.

    Args:
        walk: The prepared walk (``ppr.walk_of`` or ``ppr.symmetric_walk``).
        personalization: Non-negative weight per node; need not sum to 1.
        alpha: Damping factor in [0, 1].
        top: How many of the best ranks must settle, with ``settle`` (at least 1).
        settle: How many further steps must leave them unchanged; 0 keeps networkx's L1
            rule alone.
        tol: networkx's rule still ends the iteration: L1 change below ``N * tol``.
        max_iter: Iteration limit (the warm start's steps not counted).
        warm: Terms of the series ``(1 - alpha) sum_k alpha^k M^k p`` computed before
            the tail is put in; 0 starts from ``p``.

    Raises:
        ValueError: Shapes disagree, alpha is outside [0, 1], ``top`` < 1, ``settle`` < 0,
            or the personalization is negative, non-finite or all zero.
        PowerIterationFailedConvergence: Neither rule was met within ``max_iter`` steps.
    """
    walk = precise_enough(walk, tol)
    n = walk.size
    p = _restart(personalization, n)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    if top < 1 or settle < 0:
        raise ValueError(f"top must be >= 1 and settle >= 0, got {top} and {settle}")
    if n == 0:
        return RankedPageRank(np.zeros(0, dtype=np.float64), 0, False)
    top = min(top, n)
    support = np.flatnonzero(p)
    weights = p[support]
    restart = (1.0 - alpha) * weights
    # The warm start: the first terms of the series, each one sparse step (their supports
    # are the seeds and their neighbours), then the rest of the mass as the walk's
    # stationary distribution, where M^k p tends on a graph that mixes.
    y: npt.NDArray[np.floating] = p.astype(walk.dtype)
    x: npt.NDArray[np.floating] = (1.0 - alpha) * y
    dense = bool(support.size > SPARSE_SHARE * n)
    for k in range(1, warm + 1):
        y = _step(walk, y, support, weights, dense)
        x += (1.0 - alpha) * alpha**k * y
        dense = dense or bool(np.count_nonzero(y) > SPARSE_SHARE * n)
    tail = _tail(walk, support) if warm else None
    x += alpha ** (warm + 1) * (y if tail is None else tail)
    dense = dense or tail is not None
    change = np.empty_like(x)
    ranked: IntArray | None = None
    same = 0  # steps since the ranks last moved
    floor = 0.0
    err = float("inf")
    for step in range(1, max_iter + 1):
        last = x
        x = _step(walk, last, support, weights, dense)
        x *= alpha
        x[support] += restart
        np.subtract(x, last, out=change)
        np.abs(change, out=change)
        err = float(change.sum(dtype=np.float64))
        if err < n * tol:
            return RankedPageRank(x.astype(np.float64), step, False)
        dense = dense or bool(np.count_nonzero(x) > SPARSE_SHARE * n)
        if not settle:
            continue
        best, floor = _best(x, top, floor)
        same = same + 1 if ranked is not None and np.array_equal(best, ranked) else 0
        if same >= settle:
            return RankedPageRank(x.astype(np.float64), step, True)
        ranked = best
    raise PowerIterationFailedConvergence(max_iter, err)


__all__ = ["SPARSE_SHARE", "RankedPageRank", "ranked_pagerank"]
