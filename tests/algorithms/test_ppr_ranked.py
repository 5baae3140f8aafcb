"""The query path's PageRank (``ppr_ranked``) held against the networkx-equal version:
from its warm start and with networkx's L1 rule the ranks it delivers are the converged
ones in fewer steps; its sparse steps equal the dense product; the warm start stays in the
seeds' components; the optional early stop on settled ranks is only ever earlier."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms import ppr_ranked
from skill_retriever.algorithms.ppr import (
    personalized_pagerank,
    symmetric_walk,
    transition_matrix,
    walk_of,
)
from skill_retriever.algorithms.ppr_ranked import ranked_pagerank
from skill_retriever.exceptions import PowerIterationFailedConvergence


def heavy_tailed(n: int, m: int, seed: int) -> sp.csr_array:
    """Symmetric graph with hubs (targets drawn with weight rank^-0.8, like the benchmark's)."""
    rng = np.random.default_rng(seed)
    w = 1.0 / np.arange(1, n + 1) ** 0.8
    src, dst = rng.integers(0, n, m), rng.choice(n, m, p=w / w.sum())
    keep = src != dst
    directed = sp.csr_array((np.ones(keep.sum()), (src[keep], dst[keep])), shape=(n, n))
    return sp.csr_array(directed + directed.T)


def ranks(scores: np.ndarray, top: int) -> list[int]:
    order = np.lexsort((np.arange(scores.size), -scores))
    return order[:top].tolist()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("alpha", [0.5, 0.6, 0.85, 0.9])
def test_delivered_ranks_are_the_converged_ones(seed: int, alpha: float) -> None:
    adjacency = heavy_tailed(3000, 30_000, seed)
    rng = np.random.default_rng(100 + seed)
    p = np.zeros(3000)
    p[rng.choice(3000, 1 + seed * 3, replace=False)] = rng.uniform(0.3, 1.0, 1 + seed * 3)
    walk = symmetric_walk(adjacency)
    exact = personalized_pagerank(symmetric_walk(adjacency, dtype=np.float64), p, alpha=alpha, tol=1e-14, max_iter=500)
    top = 20
    got = ranked_pagerank(walk, p, alpha=alpha, top=top)
    assert ranks(got.scores, top) == ranks(exact, top)
    assert got.scores.sum() == pytest.approx(1.0, abs=1e-5)
    # networkx's rule, so networkx's accuracy: L1 change below N * tol = 3e-5 at the stop
    assert np.abs(got.scores - exact).sum() < alpha / (1 - alpha) * 3e-5 + 1e-5
    cold = ranked_pagerank(walk, p, alpha=alpha, top=top, warm=0)
    assert got.iterations < cold.iterations  # the warm start saves steps
    early = ranked_pagerank(walk, p, alpha=alpha, top=top, settle=2)
    assert early.iterations <= got.iterations and early.scores.sum() == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("seed", range(4))
def test_sparse_steps_equal_dense_steps(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    adjacency = heavy_tailed(2000, 8000, seed)
    p = np.zeros(2000)
    p[[3, 50, 700]] = 1.0
    walk = symmetric_walk(adjacency, dtype=np.float64)
    sparse = ranked_pagerank(walk, p, alpha=0.85, top=15)
    monkeypatch.setattr(ppr_ranked, "SPARSE_SHARE", 0.0)  # every step over every edge
    dense = ranked_pagerank(walk, p, alpha=0.85, top=15)
    assert sparse.iterations == dense.iterations
    np.testing.assert_allclose(sparse.scores, dense.scores, rtol=0, atol=1e-15)


def test_ranking_every_node_ends_near_the_fixed_point() -> None:
    adjacency = heavy_tailed(500, 3000, 1)
    p = np.zeros(500)
    p[[1, 2]] = 1.0
    got = ranked_pagerank(symmetric_walk(adjacency, dtype=np.float64), p, alpha=0.85, top=500, tol=1e-12, max_iter=500)
    exact = personalized_pagerank(transition_matrix(adjacency), p, alpha=0.85, tol=1e-14, max_iter=500)
    np.testing.assert_allclose(got.scores, exact, rtol=0, atol=1e-6)
    assert ranks(got.scores, 500) == ranks(exact, 500)


def test_general_walk_and_dangling_nodes() -> None:
    # A directed graph with dangling nodes: their mass restarts by p, as networkx does.
    rng = np.random.default_rng(3)
    a = sp.random_array((400, 400), density=0.02, random_state=rng, format="csr")
    a = sp.csr_array(a.multiply(a > 0.05))  # some empty rows
    p = np.zeros(400)
    p[[5, 6, 7]] = 1.0
    exact = personalized_pagerank(transition_matrix(a), p, alpha=0.85, tol=1e-14, max_iter=500)
    got = ranked_pagerank(walk_of(transition_matrix(a)), p, alpha=0.85, top=10)
    assert ranks(got.scores, 10) == ranks(exact, 10)


def test_edges() -> None:
    empty = symmetric_walk(sp.csr_array((0, 0)))
    assert ranked_pagerank(empty, np.zeros(0)).scores.size == 0
    walk = symmetric_walk(sp.csr_array(np.array([[0.0, 1.0], [1.0, 0.0]])))
    with pytest.raises(ValueError, match="top must be"):
        ranked_pagerank(walk, np.ones(2), top=0)
    with pytest.raises(ValueError, match="alpha"):
        ranked_pagerank(walk, np.ones(2), alpha=1.5)
    with pytest.raises(ValueError, match="all zero"):
        ranked_pagerank(walk, np.zeros(2))
    got = ranked_pagerank(walk, np.array([1.0, 0.0]), alpha=0.8, top=5)  # top above N is N
    assert ranks(got.scores, 2) == [0, 1]
    cycle = symmetric_walk(sp.csr_array(np.roll(np.eye(10), 1, axis=1) + np.roll(np.eye(10), -1, axis=1)))
    with pytest.raises(PowerIterationFailedConvergence):
        ranked_pagerank(cycle, np.eye(10)[0], alpha=0.99, top=10, tol=1e-16, max_iter=3)


def test_warm_start_stays_in_the_seeds_components() -> None:
    a, b = heavy_tailed(800, 6000, 1), heavy_tailed(700, 5000, 2)
    isolated = sp.csr_array(sp.block_diag([a, b, sp.csr_array((1, 1))]))  # node 1500 has no edge at all
    p = np.zeros(1501)
    p[[5, 60]] = 1.0
    walk = symmetric_walk(isolated, dtype=np.float64)
    got = ranked_pagerank(walk, p, alpha=0.85, top=10)
    assert np.all(got.scores[800:] == 0.0)  # no mass ever reaches the other component
    exact = personalized_pagerank(transition_matrix(isolated), p, alpha=0.85, tol=1e-14, max_iter=500)
    assert ranks(got.scores, 10) == ranks(exact, 10)
    lonely = np.zeros(1501)
    lonely[1500] = 1.0  # a seed without edges keeps all its mass, as in networkx
    np.testing.assert_allclose(ranked_pagerank(walk, lonely, alpha=0.85).scores, lonely, atol=1e-12)
