"""Multi-factor ranking: hand-computed factors, weighted sum, and the node/edge cut."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms.multifactor import (
    FactorWeights,
    multifactor_scores,
    select_subgraph,
    subgraph_degree_centrality,
    subgraph_edge_density,
)

# 0 <-> 1 (both directions: one neighbour pair), 1 -> 2, 2 -> 3, 3 -> 0, 0 -> 4, 4 -> 5,
# 5 -> 5 (self-loop), 6 -> 2; node 7 isolated.
EDGES = [(0, 1), (1, 0), (1, 2), (2, 3), (3, 0), (0, 4), (4, 5), (5, 5), (6, 2)]


def graph() -> sp.csr_array:
    rows, cols = zip(*EDGES)
    return sp.csr_array((np.full(len(EDGES), 2.0), (rows, cols)), shape=(8, 8))


CANDIDATES = [0, 1, 2, 5, 7]


def test_degree_centrality_hand_computed() -> None:
    # Neighbours among candidates: 0:{1} 1:{0,2} 2:{1} 5:{} (self-loop ignored) 7:{}; n-1 = 4.
    got = subgraph_degree_centrality(graph(), CANDIDATES)
    assert got == pytest.approx({0: 0.25, 1: 0.5, 2: 0.25, 5: 0.0, 7: 0.0})


def test_edge_density_hand_computed() -> None:
    # All neighbours: 0:{1,3,4} 1:{0,2} 2:{1,3,6} 5:{4} 7:{}.
    got = subgraph_edge_density(graph(), CANDIDATES)
    assert got == pytest.approx({0: 1 / 3, 1: 1.0, 2: 1 / 3, 5: 0.0, 7: 0.0})


def test_duplicate_candidates_count_once() -> None:
    got = subgraph_degree_centrality(graph(), [1, 0, 1, 2])
    assert got == pytest.approx({0: 0.5, 1: 1.0, 2: 0.5})
    assert subgraph_edge_density(graph(), [1, 1]) == {1: 0.0}


def test_small_candidate_sets() -> None:
    assert subgraph_degree_centrality(graph(), []) == {}
    assert subgraph_degree_centrality(graph(), [3]) == {3: 0.0}
    assert subgraph_edge_density(graph(), []) == {}
    with pytest.raises(ValueError, match="candidate"):
        subgraph_edge_density(graph(), [8])


def test_structural_factors_match_networkx_on_random_graph() -> None:
    rng = np.random.default_rng(11)
    g = nx.gnm_random_graph(120, 500, seed=11, directed=True)
    adj = sp.csr_array(nx.to_scipy_sparse_array(g, nodelist=range(120)))
    cand = sorted(rng.choice(120, size=40, replace=False).tolist())
    und = nx.Graph(g.to_undirected())
    und.remove_edges_from(nx.selfloop_edges(und))
    expected_dc = nx.degree_centrality(und.subgraph(cand))
    assert subgraph_degree_centrality(adj, cand) == pytest.approx(expected_dc)
    sub = und.subgraph(cand)
    expected_ed = {v: sub.degree(v) / und.degree(v) if und.degree(v) else 0.0 for v in cand}
    assert subgraph_edge_density(adj, cand) == pytest.approx(expected_ed)


def test_weighted_sum_with_missing_factors_counting_zero() -> None:
    got = multifactor_scores(
        semantic={1: 0.8, 2: 0.6},
        degree_centrality={1: 0.5, 3: 1.0},
        edge_density={1: 1.0},
        coverage={2: 0.5, 4: 1.0},
    )
    # 1: .5*.8 + .2*.5 + .15*1 = .65;  2: .5*.6 + .15*.5 = .375;  3: .2;  4: .15
    assert got == pytest.approx({1: 0.65, 2: 0.375, 3: 0.2, 4: 0.15})
    assert list(got) == [1, 2, 3, 4]


def test_custom_weights_and_defaults() -> None:
    assert FactorWeights() == FactorWeights(0.5, 0.2, 0.15, 0.15)
    ones = {0: 1.0}
    got = multifactor_scores(ones, ones, ones, ones, FactorWeights(1.0, 2.0, 3.0, 4.0))
    assert got == {0: 10.0}
    assert multifactor_scores({}, {}, {}, {}) == {}


def test_select_subgraph_hand_computed() -> None:
    scores = {0: 0.9, 1: 0.8, 2: 0.8, 3: 0.1, 4: 0.5}
    edges = [(0, 1), (1, 2), (2, 0), (0, 3), (4, 0), (0, 1), (2, 1)]
    nodes, kept = select_subgraph(scores, edges, keep_nodes=3, keep_edges=3)
    assert nodes == [0, 1, 2]  # 1 and 2 tie: lower index first
    # sums: (0,1)=1.7 (2,0)=1.7 (1,2)=1.6 (2,1)=1.6; (0,3), (4,0) lose an end; dup once.
    assert kept == [(0, 1), (2, 0), (1, 2)]


def test_select_subgraph_default_caps() -> None:
    scores = {i: 1.0 - i / 100 for i in range(60)}
    edges = [(i, (i + k) % 60) for i in range(60) for k in (1, 2, 3)]
    nodes, kept = select_subgraph(scores, edges)
    assert nodes == list(range(50))
    assert len(kept) == 70
    assert all(u < 50 and v < 50 for u, v in kept)
    sums = [scores[u] + scores[v] for u, v in kept]
    assert sums == sorted(sums, reverse=True)
    with pytest.raises(ValueError):
        select_subgraph(scores, edges, keep_nodes=-1)
