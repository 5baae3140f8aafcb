"""Expansion: per-level thresholds, caps, no duplicates, early stop, access mask."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms.expansion import ExpansionLevel, expand


def csr(n: int, edges: list[tuple[int, int]], weights: list[float] | None = None) -> sp.csr_array:
    rows, cols = zip(*edges)
    data = np.ones(len(edges)) if weights is None else np.array(weights)
    return sp.csr_array((data, (rows, cols)), shape=(n, n))


def lookup(
    sims: np.ndarray, calls: list[list[int]] | None = None
) -> Callable[[np.ndarray], np.ndarray]:
    def similarity(idx: np.ndarray) -> np.ndarray:
        if calls is not None:
            calls.append(idx.tolist())
        return sims[idx]

    return similarity


# Seed 0. Edges in both directions; sims chosen around each level's threshold.
TREE_EDGES = [(0, 1), (2, 0), (0, 3), (1, 4), (2, 5), (1, 6), (4, 7), (5, 8), (4, 3)]
TREE_SIMS = np.array([1.0, 0.9, 0.5, 0.49, 0.4, 0.35, 0.3, 0.2, 0.19])


def test_thresholds_apply_per_level() -> None:
    levels = expand(csr(9, TREE_EDGES), [0], lookup(TREE_SIMS))
    assert levels == [
        ExpansionLevel(level=1, threshold=0.5, nodes=(1, 2), edges=((0, 1), (2, 0))),
        ExpansionLevel(level=2, threshold=0.35, nodes=(4, 5), edges=((1, 4), (2, 5))),
        # 3 failed 0.5 at level 1, is reached again through 4 and passes 0.2; 8 fails 0.2.
        ExpansionLevel(level=3, threshold=0.2, nodes=(3, 7), edges=((4, 3), (4, 7))),
    ]


def test_stops_early_when_a_level_adds_nothing() -> None:
    sims = TREE_SIMS.copy()
    sims[[4, 5]] = 0.34  # level 2 keeps nothing; level 3's 0.2 would have admitted them
    levels = expand(csr(9, TREE_EDGES), [0], lookup(sims))
    assert [lv.nodes for lv in levels] == [(1, 2)]
    assert expand(csr(9, TREE_EDGES), [0], lookup(TREE_SIMS), thresholds=(0.95,)) == []


def test_unfiltered_keeps_every_neighbour_ranked() -> None:
    adj = csr(9, TREE_EDGES)
    (level,) = expand(adj, [0], lookup(TREE_SIMS), thresholds=(0.99,), use_filter=False)
    assert level == ExpansionLevel(
        level=1, threshold=None, nodes=(1, 2, 3), edges=((0, 1), (2, 0), (0, 3))
    )
    levels = expand(csr(9, TREE_EDGES), [0], lookup(TREE_SIMS), use_filter=False)
    assert [lv.nodes for lv in levels] == [(1, 2, 3), (4, 5, 6), (7, 8)]


def test_node_cap_keeps_most_similar_and_ties_by_index() -> None:
    n = 31
    sims = np.array([1.0] + [0.5 + i / 100 for i in range(1, 31)])
    sims[[3, 4]] = sims[30]  # ties with the best node
    (level,) = expand(csr(n, [(0, i) for i in range(1, n)]), [0], lookup(sims), thresholds=(0.5,))
    assert level.nodes == (3, 4, 30) + tuple(range(29, 17, -1))
    assert len(level.nodes) == 15


def test_edge_cap_gives_every_kept_node_its_heaviest_edge_first() -> None:
    # 20 neighbours, each joined by 0 -> i (weight 1) and i -> 0 (weight 2): 40 edges.
    n = 21
    edges = [(0, i) for i in range(1, n)] + [(i, 0) for i in range(1, n)]
    weights = [1.0] * 20 + [2.0] * 20
    sims = np.array([1.0] + [0.9 - i / 100 for i in range(1, n)])  # node 1 best
    (level,) = expand(csr(n, edges, weights), [0], lookup(sims), thresholds=(0.5,))
    assert level.nodes == tuple(range(1, 16))
    assert len(level.edges) == 25
    assert level.edges[:15] == tuple((i, 0) for i in range(1, 16))  # heaviest, per node
    assert level.edges[15:] == tuple((0, i) for i in range(1, 11))
    (small,) = expand(csr(n, edges, weights), [0], lookup(sims), thresholds=(0.5,),
                      max_nodes_per_level=3, max_edges_per_level=2)
    assert small.nodes == (1, 2, 3) and small.edges == ((1, 0), (2, 0))


def test_no_node_twice_and_seeds_never_returned() -> None:
    rng = np.random.default_rng(3)
    edges = [tuple(int(x) for x in rng.integers(0, 80, 2)) for _ in range(400)]
    adj = csr(80, edges)
    sims = rng.uniform(0, 1, 80)
    seeds = [1, 2, 3]
    levels = expand(adj, seeds, lookup(sims), thresholds=(0.3, 0.2, 0.1, 0.0, 0.0), use_filter=True)
    returned = [v for lv in levels for v in lv.nodes]
    assert len(returned) == len(set(returned))
    assert not set(returned) & set(seeds)
    assert [lv.level for lv in levels] == list(range(1, len(levels) + 1))
    frontier = set(seeds)
    dense = adj.toarray()
    for lv in levels:
        assert len(lv.nodes) <= 15 and len(lv.edges) <= 25
        for u, v in lv.edges:
            assert dense[u, v] > 0
            assert (u in frontier and v in lv.nodes) or (v in frontier and u in lv.nodes)
        frontier = set(lv.nodes)


def test_allowed_mask_applies_before_anything_else() -> None:
    allowed = np.ones(9, dtype=bool)
    allowed[1] = False  # 4 and 6 hang off 1 only (4 also via 3)
    calls: list[list[int]] = []
    levels = expand(csr(9, TREE_EDGES), [0], lookup(TREE_SIMS, calls), allowed=allowed)
    returned = {v for lv in levels for v in lv.nodes}
    assert 1 not in returned and 6 not in returned
    assert all(1 not in c for c in calls)  # similarity never asked about a hidden node
    assert [lv.nodes for lv in levels] == [(2,), (5,)]


def test_disallowed_seed_leads_nowhere() -> None:
    allowed = np.ones(9, dtype=bool)
    allowed[0] = False
    assert expand(csr(9, TREE_EDGES), [0], lookup(TREE_SIMS), allowed=allowed) == []
    levels = expand(csr(9, TREE_EDGES), [0, 5], lookup(TREE_SIMS), allowed=allowed)
    assert levels[0].nodes == (2,) and levels[0].edges == ((2, 5),)


def test_bad_input_raises() -> None:
    adj = csr(9, TREE_EDGES)
    with pytest.raises(ValueError, match="scores"):
        expand(adj, [0], lambda idx: np.ones(1))
    with pytest.raises(ValueError, match="seed"):
        expand(adj, [9], lookup(TREE_SIMS))
    with pytest.raises(ValueError, match="allowed"):
        expand(adj, [0], lookup(TREE_SIMS), allowed=np.ones(3, dtype=bool))


def test_empty_seeds_or_thresholds() -> None:
    adj = csr(9, TREE_EDGES)
    assert expand(adj, [], lookup(TREE_SIMS)) == []
    assert expand(adj, [0], lookup(TREE_SIMS), thresholds=()) == []


def test_explicit_zero_entries_are_not_edges() -> None:
    # A matrix masked by multiplication keeps stored zeros; they must not connect.
    adj = sp.csr_array(([1.0, 0.0, 0.0], ([0, 0, 3], [1, 2, 0])), shape=(4, 4))
    (level,) = expand(adj, [0], lookup(np.array([1.0, 0.9, 0.9, 0.9])))
    assert level.nodes == (1,) and level.edges == ((0, 1),)
