"""Flow pruning: bounds, the reliability formula, path choice, and the node reduction."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from skill_retriever.algorithms.flow_pruning import PrunedFlow, ScoredPath, prune_flow
from skill_retriever.algorithms.ppr import personalized_pagerank, top_scores, transition_matrix


def csr(n: int, edges: list[tuple[int, int]]) -> sp.csr_array:
    rows, cols = zip(*edges)
    return sp.csr_array((np.ones(len(edges)), (rows, cols)), shape=(n, n))


def star(n_leaves: int = 20) -> tuple[sp.csr_array, np.ndarray]:
    """Seed 0 -> leaves 1..n; leaf i scores (n + 1 - i) / 100, the seed 0.5."""
    adj = csr(n_leaves + 1, [(0, i) for i in range(1, n_leaves + 1)])
    scores = np.array([0.5] + [(n_leaves + 1 - i) / 100 for i in range(1, n_leaves + 1)])
    return adj, scores


def test_at_most_max_endpoints_best_scored_non_seed() -> None:
    adj, scores = star()
    flow = prune_flow(adj, [0], scores)
    assert flow.endpoints == (1, 2, 3, 4, 5, 6, 7, 8)
    assert len(flow.paths) == 8
    assert flow.nodes == frozenset(range(9))
    assert prune_flow(adj, [0], scores, max_endpoints=3).endpoints == (1, 2, 3)


def test_at_most_max_paths_best_first() -> None:
    adj, scores = star()
    flow = prune_flow(adj, [0], scores, max_endpoints=20)
    assert len(flow.endpoints) == 20
    assert [p.nodes for p in flow.paths] == [(0, i) for i in range(1, 11)]
    rel = [p.reliability for p in flow.paths]
    assert rel == sorted(rel, reverse=True)
    assert len(prune_flow(adj, [0], scores, max_endpoints=20, max_paths=4).paths) == 4


def test_threshold_drops_weak_paths() -> None:
    adj = csr(4, [(0, 1), (0, 2), (0, 3)])
    # reliabilities: (0,1) = (0.01 + 0.03)/2 = 0.02, (0,2) = 0.01, (0,3) = 0.0099...
    scores = np.array([0.01, 0.03, 0.01, 0.0098])
    flow = prune_flow(adj, [0], scores)
    assert [p.nodes for p in flow.paths] == [(0, 1), (0, 2)]  # 0.01 itself is kept
    assert flow.endpoints == (1, 2, 3)
    assert 3 not in flow.nodes
    assert [p.nodes for p in prune_flow(adj, [0], scores, threshold=0.015).paths] == [(0, 1)]


def test_reliability_is_mean_with_missing_node_counting_zero() -> None:
    # Chain 0 - 5 - 6; node 5 has no score: (0.3 + 0 + 0.06) / 3 = 0.12.
    adj = csr(7, [(0, 5), (5, 6)])
    flow = prune_flow(adj, [0], {0: 0.3, 6: 0.06})
    assert flow.paths == (ScoredPath(nodes=(0, 5, 6), reliability=pytest.approx(0.12)),)
    assert flow.endpoints == (6,)  # unscored 5 is no endpoint
    assert flow.nodes == frozenset({0, 5, 6})


def test_mapping_and_array_scores_agree() -> None:
    adj, scores = star()
    as_map = {i: float(s) for i, s in enumerate(scores) if i % 3}  # some nodes missing
    as_arr = np.array([as_map.get(i, 0.0) for i in range(len(scores))])
    assert prune_flow(adj, [0], as_map) == prune_flow(adj, [0], as_arr)


def test_path_from_nearest_seed_and_direction_ignored() -> None:
    # 0 - 1 - 2 - 3 - 4 - 5 (edges stored in mixed directions), seeds 0 and 5.
    adj = csr(6, [(0, 1), (2, 1), (2, 3), (4, 3), (5, 4)])
    scores = np.array([0.2, 0.0, 0.0, 0.0, 0.3, 0.2])
    flow = prune_flow(adj, [0, 5], scores, max_endpoints=1)
    assert flow.paths[0].nodes == (5, 4)
    scores = np.array([0.2, 0.0, 0.3, 0.0, 0.0, 0.2])
    assert prune_flow(adj, [5, 0], scores, max_endpoints=1).paths[0].nodes == (0, 1, 2)


def test_max_hops_limits_path_length() -> None:
    adj = csr(6, [(i, i + 1) for i in range(5)])  # chain 0..5
    scores = np.array([0.5, 0, 0, 0, 0, 0.5])
    assert prune_flow(adj, [0], scores, max_hops=4, threshold=0).paths == ()
    (path,) = prune_flow(adj, [0], scores, max_hops=5, threshold=0).paths
    assert path.nodes == (0, 1, 2, 3, 4, 5)
    assert path.reliability == pytest.approx(1 / 6)


def test_equal_length_routes_prefer_better_scored_step_then_lower_index() -> None:
    adj = csr(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
    flow = prune_flow(adj, [0], np.array([0.4, 0.0, 0.0, 0.3]), max_endpoints=1)
    assert flow.paths[0].nodes == (0, 1, 3)
    flow = prune_flow(adj, [0], np.array([0.4, 0.0, 0.001, 0.3]), max_endpoints=1)
    assert flow.paths[0].nodes == (0, 2, 3)


def test_equal_reliability_ties_are_deterministic() -> None:
    adj = csr(5, [(0, 3), (0, 1), (0, 4), (0, 2)])
    scores = np.array([0.1, 0.05, 0.05, 0.05, 0.05])
    flow = prune_flow(adj, [0], scores, max_endpoints=3)
    assert flow.endpoints == (1, 2, 3)
    assert [p.nodes for p in flow.paths] == [(0, 1), (0, 2), (0, 3)]


def test_no_seeds_and_bad_input() -> None:
    adj, scores = star()
    assert prune_flow(adj, [], scores) == PrunedFlow(paths=(), nodes=frozenset(), endpoints=())
    assert prune_flow(adj, [0], np.zeros(21)).nodes == frozenset({0})
    with pytest.raises(ValueError, match="seed"):
        prune_flow(adj, [21], scores)
    with pytest.raises(ValueError, match="shape"):
        prune_flow(adj, [0], scores[:5])


def test_seeds_are_kept_even_without_a_path() -> None:
    adj = csr(5, [(0, 1)])
    flow = prune_flow(adj, [0, 3], np.array([0.3, 0.2, 0.0, 0.3, 0.0]))
    assert flow.nodes == frozenset({0, 1, 3})


def realistic_graph() -> sp.csr_array:
    """200 nodes, preferential attachment (mean degree ~6), random direction and weight."""
    g = nx.barabasi_albert_graph(200, 3, seed=42)
    rng = np.random.default_rng(42)
    edges = [(u, v) if rng.random() < 0.5 else (v, u) for u, v in g.edges()]
    rows, cols = zip(*edges)
    weights = rng.uniform(0.5, 2.0, size=len(edges))
    return sp.csr_array((weights, (rows, cols)), shape=(200, 200))


def test_kept_paths_are_shortest_paths_of_adjacent_nodes() -> None:
    adj = realistic_graph()
    seeds = [5, 77, 150]
    p = np.zeros(200)
    p[seeds] = 1.0
    scores = personalized_pagerank(transition_matrix(adj + adj.T), p)
    flow = prune_flow(adj, seeds, scores, threshold=0.0)
    dist = shortest_path(adj, directed=False, unweighted=True, indices=seeds).min(axis=0)
    dense = (adj + adj.T).toarray()
    assert len(flow.paths) == 8
    for path in flow.paths:
        assert path.nodes[0] in seeds
        assert len(path.nodes) - 1 == dist[path.nodes[-1]]
        assert all(dense[a, b] > 0 for a, b in zip(path.nodes, path.nodes[1:]))
        assert path.reliability == pytest.approx(scores[list(path.nodes)].mean())


def test_at_least_40_percent_fewer_nodes_than_raw_ppr() -> None:
    adj = realistic_graph()
    for seeds in ([5, 77, 150], [0], [10, 20, 30, 40, 50, 60]):
        p = np.zeros(200)
        p[seeds] = 1.0
        scores = personalized_pagerank(transition_matrix(adj + adj.T), p, alpha=0.85)
        raw = {i for i, _ in top_scores(scores, min_score=0.001)}
        flow = prune_flow(adj, seeds, scores)
        assert flow.paths, seeds
        assert len(flow.nodes) <= 0.6 * len(raw), (seeds, len(flow.nodes), len(raw))


def test_explicit_zero_entries_are_not_edges() -> None:
    adj = sp.csr_array(([1.0, 0.0, 1.0], ([0, 0, 1], [1, 2, 2])), shape=(3, 3))
    (path,) = prune_flow(adj, [0], np.array([0.3, 0.0, 0.3]), max_endpoints=1).paths
    assert path.nodes == (0, 1, 2)


def test_endpoint_mask_picks_endpoints_and_paths_still_pass_through_hubs() -> None:
    # seed 0 -> hub 1 (high score, not wanted) -> leaves 2..5 (wanted, lower scores)
    adj = csr(6, [(0, 1), (1, 2), (1, 3), (1, 4), (1, 5)])
    scores = np.array([0.5, 0.3, 0.08, 0.07, 0.06, 0.05])
    wanted = np.array([False, False, True, True, True, True])
    plain = prune_flow(adj, [0], scores, max_endpoints=2, threshold=0.0)
    assert plain.endpoints == (1, 2)
    masked = prune_flow(adj, [0], scores, max_endpoints=2, threshold=0.0, endpoint_mask=wanted)
    assert masked.endpoints == (2, 3)
    assert [p.nodes for p in masked.paths] == [(0, 1, 2), (0, 1, 3)]
    with pytest.raises(ValueError, match="endpoint_mask"):
        prune_flow(adj, [0], scores, endpoint_mask=wanted[:3])
