"""The prepared walk (:class:`Walk`) that the query path uses, held against the reference:
the symmetric shortcut builds the same step matrix as the general transpose, and PageRank
on a float32 walk stays within 1e-6 of ``networkx.pagerank``."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms.ppr import (
    personalized_pagerank,
    precise_enough,
    symmetric_walk,
    transition_matrix,
    walk_of,
)


def random_symmetric(n: int, m: int, seed: int, isolated: int = 0, explicit_zeros: int = 0) -> sp.csr_array:
    """Weighted symmetric matrix; the last ``isolated`` nodes have no edge (dangling);
    ``explicit_zeros`` stored zero entries, as masking leaves them."""
    rng = np.random.default_rng(seed)
    live = n - isolated
    src, dst = rng.integers(0, live, m), rng.integers(0, live, m)
    keep = src != dst
    directed = sp.csr_array((rng.uniform(0.5, 2.0, keep.sum()), (src[keep], dst[keep])), shape=(n, n))
    adjacency = sp.csr_array(directed + directed.T)
    if explicit_zeros:
        hidden = np.zeros(n, dtype=bool)
        hidden[rng.choice(live, size=explicit_zeros, replace=False)] = True
        coo = sp.coo_array(adjacency)
        data = np.where(hidden[coo.row] | hidden[coo.col], 0.0, coo.data)
        adjacency = sp.csr_array((data, (coo.row, coo.col)), shape=(n, n))  # the zeros stay stored
        assert np.any(adjacency.data == 0)
    return adjacency


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_walk_equals_general_walk(seed: int) -> None:
    adjacency = random_symmetric(300, 1200, seed, isolated=5 * (seed % 2), explicit_zeros=10 * (seed % 3 == 0))
    general = walk_of(transition_matrix(adjacency))
    shortcut = symmetric_walk(adjacency, dtype=np.float64)
    np.testing.assert_allclose(shortcut.step.toarray(), general.step.toarray(), rtol=1e-12, atol=0)
    np.testing.assert_allclose(shortcut.rows.toarray(), general.rows.toarray(), rtol=1e-12, atol=0)
    np.testing.assert_array_equal(shortcut.dangling, general.dangling)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("alpha", [0.6, 0.85, 0.9])
def test_float32_walk_matches_networkx(seed: int, alpha: float) -> None:
    n = 2000  # N * tol = 2e-5: float32 resolves it, so the float32 walk is what runs
    adjacency = random_symmetric(n, 10_000, seed, isolated=4, explicit_zeros=8 * (seed % 2))
    rng = np.random.default_rng(seed)
    seeds = rng.choice(n - 10, 5, replace=False)
    p = np.zeros(n)
    p[seeds] = rng.uniform(0.5, 1.0, 5)
    graph = nx.from_scipy_sparse_array(adjacency, create_using=nx.DiGraph)
    ref = nx.pagerank(graph, alpha=alpha, personalization={int(s): float(p[s]) for s in seeds}, tol=1e-8,
                      max_iter=200, weight="weight")
    expected = np.array([ref[i] for i in range(n)])
    walk = symmetric_walk(adjacency)
    assert walk.dtype == np.float32 and precise_enough(walk, 1e-8) is walk
    ours = personalized_pagerank(walk, p, alpha=alpha, tol=1e-8, max_iter=200)
    assert ours.dtype == np.float64
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-6)
    # float64 walks give networkx's iterate to rounding
    exact = personalized_pagerank(symmetric_walk(adjacency, dtype=np.float64), p, alpha=alpha, tol=1e-8, max_iter=200)
    np.testing.assert_allclose(exact, expected, rtol=0, atol=1e-12)


def test_a_stop_finer_than_float32_resolves_iterates_in_float64() -> None:
    adjacency = random_symmetric(50, 200, 1)
    walk = symmetric_walk(adjacency)
    assert precise_enough(walk, 1e-10).dtype == np.float64  # N * tol = 5e-9
    p = np.zeros(50)
    p[3] = 1.0
    ours = personalized_pagerank(walk, p, alpha=0.85, tol=1e-12, max_iter=300)  # float32 alone would stall
    exact = personalized_pagerank(transition_matrix(adjacency), p, alpha=0.85, tol=1e-12, max_iter=300)
    np.testing.assert_allclose(ours, exact, rtol=0, atol=1e-7)  # the walk's weights were rounded to float32


def test_walk_rejects_bad_matrices() -> None:
    with pytest.raises(ValueError, match="square"):
        symmetric_walk(sp.csr_array(np.ones((2, 3))))
    with pytest.raises(ValueError, match="non-negative"):
        symmetric_walk(sp.csr_array(np.array([[0.0, -1.0], [-1.0, 0.0]])))
    with pytest.raises(ValueError, match="square"):
        walk_of(sp.csr_array(np.ones((2, 3))))
