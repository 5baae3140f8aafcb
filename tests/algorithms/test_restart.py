"""The restart vector of the passage walk, held against hand computations and networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms.normalise import minmax
from skill_retriever.algorithms.ppr import (
    personalized_pagerank,
    reference_pagerank,
    transition_matrix,
)
from skill_retriever.algorithms.restart import (
    FactHit,
    fact_seeds,
    proper_names,
    restart_vector,
    specificity,
)


def test_specificity_is_hippo_rags_inverse_passage_count() -> None:
    counts = [0, 1, 2, 4, 9]  # 0: not an entity, keeps weight 1
    assert specificity(counts, 1.0) == pytest.approx([1.0, 1.0, 0.5, 0.25, 1 / 9])
    assert specificity(counts, 0.5) == pytest.approx([1.0, 1.0, 2**-0.5, 0.5, 1 / 3])
    assert specificity(counts, 0.0) == pytest.approx([1.0] * 5)
    with pytest.raises(ValueError):
        specificity(counts, -1.0)


def test_fact_seeds_by_hand() -> None:
    # Two facts: the best (0.8) names entities e1, e2; the second (0.6) names e2, e3.
    hits = [FactHit("f1", 0.8, ("e1", "e2")), FactHit("f2", 0.6, ("e2", "e3"))]
    got = fact_seeds(hits)
    # Scores over the best: f1 1.0, f2 0.75; e2, named by both, gets the mean.
    assert got == pytest.approx({"f1": 1.0, "e1": 1.0, "e2": 0.875, "f2": 0.75, "e3": 0.75})
    assert fact_seeds([]) == {}
    assert fact_seeds([FactHit("f", -0.2, ("e",))]) == {}


def test_restart_vector_by_hand() -> None:
    # Node 0 a seed (0.5); passages 1-3 with cosines 0.2 / 0.6 / 0.4 (min-max: 0, 1, 0.5);
    # BM25 hits on 2 (score 4) and 3 (score 8).
    p = restart_vector(5, {0: 0.5, 2: 0.1}, (np.array([1, 2, 3]), np.array([0.2, 0.6, 0.4])), 0.2,
                       {2: 4.0, 3: 8.0}, 0.1)
    assert p == pytest.approx([0.5, 0.0, 0.1 + 0.2 * 1.0 + 0.1 * 0.5, 0.2 * 0.5 + 0.1 * 1.0, 0.0])
    assert minmax([3.0, 3.0]) == pytest.approx([0.0, 0.0])
    with pytest.raises(ValueError):
        restart_vector(2, {5: 1.0})
    with pytest.raises(ValueError):
        restart_vector(2, {0: -1.0})


def test_specificity_in_the_restart_moves_pagerank_as_networkx_says() -> None:
    """A query names two entities: "rare" (1 passage) and "common" (3 passages). With
    specificity the walk restarts 3x more at the rare one, and PageRank with that
    personalization is networkx's with the hand-computed vector."""
    # rows: 0 rare, 1 common, 2 p_rare (names both), 3 p_a, 4 p_b (name common only)
    edges = [(0, 2), (1, 2), (1, 3), (1, 4)]
    counts = np.array([1.0, 3.0, 0.0, 0.0, 0.0])
    seeds = {0: 1.0, 1: 1.0}
    p = restart_vector(5, seeds) * specificity(counts, 1.0)
    assert p == pytest.approx([1.0, 1 / 3, 0.0, 0.0, 0.0])
    rows = [a for a, b in edges] + [b for a, b in edges]
    cols = [b for a, b in edges] + [a for a, b in edges]
    adjacency = sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(5, 5))
    ours = personalized_pagerank(transition_matrix(adjacency), p, alpha=0.5, tol=1e-12)
    g = nx.DiGraph()
    g.add_nodes_from(range(5))
    g.add_weighted_edges_from([(a, b, 1.0) for a, b in zip(rows, cols)])
    ref = reference_pagerank(g, {0: 1.0, 1: 1 / 3, 2: 0.0, 3: 0.0, 4: 0.0}, alpha=0.5, tol=1e-12)
    assert ours == pytest.approx([ref[i] for i in range(5)], abs=1e-9)
    flat = personalized_pagerank(transition_matrix(adjacency), restart_vector(5, seeds), alpha=0.5, tol=1e-12)
    # The passage of the rare entity gains on the passages of the common one.
    assert ours[2] / ours[3] > flat[2] / flat[3]


def test_proper_names_keep_what_the_query_writes_as_a_name() -> None:
    query = "What county borders the county in which Johnnycake, West Virginia is, in the state where Hello Love's singer died?"
    found = ["Johnnycake, West Virginia", "West Virginia", "Virginia", "West", "State", "Love", "Hello Love", "County"]
    # "State" and "County" are written in lower case; "West", "Virginia" and "West Virginia"
    # lie inside "Johnnycake, West Virginia"; "Love" inside "Hello Love's".
    assert proper_names(query, found) == ["Johnnycake, West Virginia", "Hello Love"]
    assert proper_names("Which film came first, Aas Ka Panchhi or Phoolwari?", ["Aas Ka Panchhi", "Phoolwari", "Film"]) == [
        "Aas Ka Panchhi", "Phoolwari"]
    assert proper_names("no names here", ["Names"]) == []
