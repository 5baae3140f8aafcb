"""PPR: held against networkx.pagerank, plus hand-computed values and the edges."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from skill_retriever.algorithms.ppr import (
    adaptive_alpha,
    personalized_pagerank,
    reference_pagerank,
    top_scores,
    transition_matrix,
)
from skill_retriever.exceptions import PowerIterationFailedConvergence


def random_graph(seed: int, n: int = 60, m: int = 240) -> nx.DiGraph:
    """Weighted digraph with dangling nodes, a self-loop and a separate component."""
    rng = np.random.default_rng(seed)
    g: nx.DiGraph = nx.DiGraph()
    g.add_nodes_from(range(n))
    main = n - 8  # nodes main.. n-1 form their own component
    dangling = set(rng.choice(main, size=6, replace=False).tolist())
    for _ in range(m):
        u, v = (int(x) for x in rng.integers(0, main, size=2))
        if u not in dangling:
            g.add_edge(u, v, weight=float(rng.uniform(0.1, 5.0)))
    for u in range(main, n - 1):  # a chain plus a back edge: the disconnected part
        g.add_edge(u, u + 1, weight=1.0)
    g.add_edge(n - 1, main, weight=2.5)
    g.add_edge(main, main, weight=0.5)  # self-loop
    assert any(g.out_degree(u) == 0 for u in g)
    return g


def to_csr(g: nx.DiGraph) -> sp.csr_array:
    n = g.number_of_nodes()
    rows, cols, vals = zip(*((u, v, d["weight"]) for u, v, d in g.edges(data=True)))
    return sp.csr_array((vals, (rows, cols)), shape=(n, n))


PERSONALIZATIONS = [
    {0: 1.0},
    {1: 2.0, 5: 1.0, 9: 0.5},
    {55: 1.0},  # only the disconnected component
    {3: 1.0, 56: 3.0},  # both components
    {i: 1.0 for i in range(60)},  # uniform
]


@pytest.mark.parametrize("graph_seed", [0, 1, 2, 3])
@pytest.mark.parametrize("pers", PERSONALIZATIONS)
@pytest.mark.parametrize("alpha", [0.6, 0.85, 0.9])
def test_matches_networkx_per_node(graph_seed: int, pers: dict[int, float], alpha: float) -> None:
    g = random_graph(graph_seed)
    p = np.zeros(g.number_of_nodes())
    for k, v in pers.items():
        p[k] = v
    ours = personalized_pagerank(transition_matrix(to_csr(g)), p, alpha=alpha)
    ref = reference_pagerank(g, pers, alpha=alpha)
    expected = np.array([ref[i] for i in range(g.number_of_nodes())])
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-6)
    assert ours.sum() == pytest.approx(1.0, abs=1e-9)


def test_same_iterates_as_networkx_at_its_defaults() -> None:
    # Same start, update and stopping rule: the same iterate comes back, not just a
    # nearby one (tol=1e-6 stops far from the fixed point, so a different rule shows).
    g = random_graph(7)
    pers = {2: 1.0, 4: 1.0}
    p = np.zeros(60)
    p[[2, 4]] = 1.0
    t = transition_matrix(to_csr(g))
    ours = personalized_pagerank(t, p, alpha=0.85, tol=1e-6, max_iter=100)
    ref = nx.pagerank(g, alpha=0.85, personalization=pers, tol=1e-6, max_iter=100)
    np.testing.assert_allclose(ours, [ref[i] for i in range(60)], rtol=0, atol=1e-13)


def test_two_node_cycle_hand_computed() -> None:
    # a <-> b, seed a: x_a = (1-α) + α x_b, x_b = α x_a  =>  x_a = 1/(1+α).
    t = transition_matrix(sp.csr_array(np.array([[0.0, 1.0], [1.0, 0.0]])))
    x = personalized_pagerank(t, np.array([1.0, 0.0]), alpha=0.8)
    np.testing.assert_allclose(x, [1 / 1.8, 0.8 / 1.8], atol=1e-9)


def test_dangling_mass_goes_to_personalization_not_uniform() -> None:
    # a -> b, b dangling, seed a. b's mass returns to a: x_a = (1-α) + α² x_a.
    # Uniform redistribution would give x_a = 0.3125 (α=0.5); ours gives 1/(1+α).
    t = transition_matrix(sp.csr_array(np.array([[0.0, 1.0], [0.0, 0.0]])))
    x = personalized_pagerank(t, np.array([1.0, 0.0]), alpha=0.5)
    np.testing.assert_allclose(x, [2 / 3, 1 / 3], atol=1e-9)


def test_personalization_is_normalised() -> None:
    t = transition_matrix(to_csr(random_graph(1)))
    p = np.zeros(60)
    p[[3, 8]] = [1.0, 3.0]
    scaled = personalized_pagerank(t, 7 * p)
    np.testing.assert_allclose(personalized_pagerank(t, p), scaled, atol=1e-12)


def test_transition_matrix_values() -> None:
    a = sp.csr_array(np.array([[0.0, 1.0, 3.0], [0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]))
    t = transition_matrix(a).toarray()
    np.testing.assert_allclose(t, [[0, 0.25, 0.75], [0, 0, 0], [1, 0, 0]])
    assert a.toarray()[0, 2] == 3.0  # input untouched


def test_transition_matrix_sums_duplicates_and_rejects_bad_input() -> None:
    dup = sp.csr_array(([1.0, 1.0, 2.0], ([0, 0, 0], [1, 1, 2])), shape=(3, 3))
    np.testing.assert_allclose(transition_matrix(dup).toarray()[0], [0, 0.5, 0.5])
    with pytest.raises(ValueError, match="square"):
        transition_matrix(sp.csr_array(np.ones((2, 3))))
    with pytest.raises(ValueError, match="non-negative"):
        transition_matrix(sp.csr_array(np.array([[0.0, -1.0], [1.0, 0.0]])))


def test_dangling_row_with_explicit_zero_is_still_dangling() -> None:
    t = sp.csr_array(([1.0, 0.0], ([0, 1], [1, 0])), shape=(2, 2))  # row 1 stores a 0
    x = personalized_pagerank(t, np.array([1.0, 0.0]), alpha=0.5)
    np.testing.assert_allclose(x, [2 / 3, 1 / 3], atol=1e-9)


def test_empty_graph_gives_empty_answer() -> None:
    out = personalized_pagerank(sp.csr_array((0, 0)), np.zeros(0))
    assert out.shape == (0,)


@pytest.mark.parametrize(
    ("pers", "match"),
    [
        (np.zeros(3), "all zero"),
        (np.array([1.0, -1.0, 0.0]), "non-negative"),
        (np.ones(4), "shape"),
    ],
)
def test_bad_personalization_raises(pers: np.ndarray, match: str) -> None:
    t = transition_matrix(sp.csr_array(np.eye(3)))
    with pytest.raises(ValueError, match=match):
        personalized_pagerank(t, pers)


def test_bad_alpha_raises() -> None:
    with pytest.raises(ValueError, match="alpha"):
        personalized_pagerank(transition_matrix(sp.csr_array(np.eye(2))), np.ones(2), alpha=1.5)


def test_non_convergence_raises_like_networkx() -> None:
    # A 10-cycle mixes slowly: 100 steps are not enough at tol 1e-10 for either.
    g = nx.cycle_graph(10, create_using=nx.DiGraph)
    t = transition_matrix(sp.csr_array(nx.to_scipy_sparse_array(g, nodelist=range(10))))
    p = np.eye(10)[0]
    with pytest.raises(PowerIterationFailedConvergence) as info:
        personalized_pagerank(t, p, alpha=0.9, tol=1e-10, max_iter=100)
    assert info.value.max_iter == 100
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(g, alpha=0.9, personalization={0: 1}, tol=1e-10, max_iter=100)
    # The default max_iter (300) covers alpha <= 0.9 at tol 1e-10 on any graph.
    x = personalized_pagerank(t, p, alpha=0.9)
    ref = reference_pagerank(g, {0: 1}, alpha=0.9)
    np.testing.assert_allclose(x, [ref[i] for i in range(10)], atol=1e-9)


@pytest.mark.parametrize(
    ("entity", "n_seeds", "expected"),
    [
        (True, 1, 0.9),
        (True, 3, 0.9),
        (True, 4, 0.85),
        (True, 5, 0.85),
        (True, 6, 0.6),
        (False, 1, 0.85),
        (False, 3, 0.85),
        (False, 5, 0.85),
        (False, 6, 0.6),
        (False, 20, 0.6),
    ],
)
def test_adaptive_alpha_boundaries(entity: bool, n_seeds: int, expected: float) -> None:
    assert adaptive_alpha(entity, n_seeds) == expected


def test_adaptive_alpha_custom_values() -> None:
    assert adaptive_alpha(True, 2, specific=0.95, broad=0.5, default=0.7) == 0.95
    assert adaptive_alpha(False, 9, specific=0.95, broad=0.5, default=0.7) == 0.5
    assert adaptive_alpha(False, 4, specific=0.95, broad=0.5, default=0.7) == 0.7


def test_top_scores_drops_below_min_score_and_sorts() -> None:
    scores = np.array([0.0009999, 0.001, 0.5, 0.2, np.nan, 0.2, 0.0])
    assert top_scores(scores) == [(2, 0.5), (3, 0.2), (5, 0.2), (1, 0.001)]
    assert top_scores(scores, min_score=0.3) == [(2, 0.5)]


def test_top_scores_limit_breaks_ties_by_index() -> None:
    scores = np.array([0.1, 0.3, 0.3, 0.3, 0.9, 0.3])
    assert top_scores(scores, limit=3) == [(4, 0.9), (1, 0.3), (2, 0.3)]
    assert top_scores(scores, limit=0) == []
    assert top_scores(scores, limit=100) == top_scores(scores)
    with pytest.raises(ValueError):
        top_scores(scores, limit=-1)


def test_top_scores_returns_python_types() -> None:
    (i, s), = top_scores(np.array([0.5]))
    assert type(i) is int and type(s) is float


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.0005, 0.001, 0.01, 0.2, 0.5, 1.0]), max_size=40),
    st.integers(min_value=0, max_value=45),
)
def test_top_scores_limit_equals_truncated_full_sort(values: list[float], limit: int) -> None:
    scores = np.array(values, dtype=float)
    full = sorted(((i, v) for i, v in enumerate(values) if v >= 0.001), key=lambda t: (-t[1], t[0]))
    assert top_scores(scores, limit=limit) == full[:limit]
