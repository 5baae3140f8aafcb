"""NetworkXGraphStore: symmetric matrices, PPR against networkx, cache invalidation."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from skill_retriever.algorithms.ppr import personalized_pagerank
from skill_retriever.model import Edge, EdgeKind
from skill_retriever.stores.graph import NetworkXGraphStore

EDGES = [
    Edge("a", "b", "DEPENDS_ON", weight=2.0),
    Edge("a", "b", "USES", weight=0.5),  # a second kind on the same pair: weights sum
    Edge("b", "a", "RELATED_TO", weight=1.5),  # and the reverse direction adds too
    Edge("b", "c", "PART_OF"),
    Edge("c", "d", "MENTIONS", weight=0.25),
    Edge("d", "e", "ENHANCES", weight=3.0),
    Edge("e", "a", "FEEDS"),
    Edge("f", "c", "AFFECTS", weight=0.7),
    Edge("g", "h", "TOUCHES"),  # a separate component
]
NODES = ["a", "b", "c", "d", "e", "f", "g", "h", "lonely"]  # "lonely" has no edge: dangling


@pytest.fixture
def store() -> NetworkXGraphStore:
    s = NetworkXGraphStore()
    s.add_nodes(NODES)
    s.add_edges(EDGES)
    return s


def symmetric_nx(store: NetworkXGraphStore) -> nx.DiGraph:
    """The undirected weighted graph the store's maths runs on, built independently:
    each relation adds its weight in both directions, summed over kinds."""
    g = nx.DiGraph()
    g.add_nodes_from(store.g.nodes)
    for e in store.iter_edges():
        for u, v in ((e.source, e.target), (e.target, e.source)):
            w = g[u][v]["weight"] if g.has_edge(u, v) else 0.0
            g.add_edge(u, v, weight=w + e.weight)
    return g


def test_matrices_symmetric(store: NetworkXGraphStore) -> None:
    m = store.matrices()
    adj = m.adjacency.toarray()
    np.testing.assert_array_equal(adj, adj.T)
    i = m.index
    assert adj[i["a"], i["b"]] == pytest.approx(2.0 + 0.5 + 1.5)
    assert adj[i["c"], i["d"]] == pytest.approx(0.25)
    assert adj[i["lonely"]].sum() == 0
    assert m.ids == tuple(NODES)
    t = m.transition.toarray()
    rows = t.sum(axis=1)
    np.testing.assert_allclose(rows[rows > 0], 1.0)
    assert rows[i["lonely"]] == 0


@pytest.mark.parametrize(
    ("seeds", "alpha"),
    [({"a": 1.0}, 0.85), ({"c": 0.7, "g": 0.3}, 0.9), ({"lonely": 1.0, "e": 2.0}, 0.6)],
)
def test_ppr_equals_networkx_pagerank(
    store: NetworkXGraphStore, seeds: dict[str, float], alpha: float
) -> None:
    m = store.matrices()
    p = np.zeros(len(m.ids))
    for node, w in seeds.items():
        p[m.index[node]] = w
    ours = personalized_pagerank(m.transition, p, alpha=alpha, tol=1e-13, max_iter=1000)
    reference = nx.pagerank(
        symmetric_nx(store),
        alpha=alpha,
        personalization=seeds,
        weight="weight",
        tol=1e-13,
        max_iter=1000,
    )
    for node in NODES:
        assert ours[m.index[node]] == pytest.approx(reference[node], abs=1e-6), node
    assert ours.sum() == pytest.approx(1.0)


def test_cache_reused_until_change(store: NetworkXGraphStore) -> None:
    first = store.matrices()
    assert store.matrices() is first
    store.add_edges([Edge("h", "lonely", "USES", weight=4.0)])
    second = store.matrices()
    assert second is not first
    assert second.adjacency[second.index["h"], second.index["lonely"]] == 4.0
    store.add_nodes(["new"])
    third = store.matrices()
    assert "new" in third.index and "new" not in second.index
    store.remove_nodes(["h"])
    fourth = store.matrices()
    assert "h" not in fourth.index
    assert fourth.adjacency[fourth.index["g"]].sum() == 0  # g's only edge went with h
    store.remove_edges(["a|DEPENDS_ON|b"])
    fifth = store.matrices()
    assert fifth is not fourth
    assert fifth.adjacency[fifth.index["a"], fifth.index["b"]] == pytest.approx(0.5 + 1.5)


def test_remove_edges_by_id(store: NetworkXGraphStore) -> None:
    assert store.edge_count == len(EDGES)
    store.remove_edges(["a|USES|b"])
    assert store.get_edge("a|USES|b") is None
    assert store.get_edge("a|DEPENDS_ON|b") == EDGES[0]  # the other kind on the pair stays
    assert store.g.has_edge("a", "b")
    store.remove_edges(["a|DEPENDS_ON|b"])
    assert not store.g.has_edge("a", "b")  # no kind left: the graph edge goes
    assert store.g.has_edge("b", "a")  # the reverse relation is its own edge
    store.remove_edges(["x|USES|y", "b|USES|c"])  # unknown ids are ignored
    assert store.edge_count == len(EDGES) - 2
    assert {e.id for e in store.iter_edges()} == {e.id for e in EDGES} - {
        "a|USES|b",
        "a|DEPENDS_ON|b",
    }


def test_typed_neighbourhood(store: NetworkXGraphStore) -> None:
    assert {e.id for e in store.out_edges("a")} == {"a|DEPENDS_ON|b", "a|USES|b"}
    assert [e.id for e in store.out_edges("a", EdgeKind.USES)] == ["a|USES|b"]
    assert {e.id for e in store.in_edges("c")} == {"b|PART_OF|c", "f|AFFECTS|c"}
    assert len(store.edges_of("a")) == 4
    assert store.out_edges("missing") == [] and store.in_edges("missing") == []
    m = store.matrices()
    near = store.neighbour_indices(np.array([m.index["c"]]))
    assert {m.ids[i] for i in near} == {"b", "d", "f"}
