"""The snapshot graph: symmetric matrices, PPR against networkx, typed neighbourhoods."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from skill_retriever.algorithms.ppr import personalized_pagerank
from skill_retriever.model import Edge, EdgeKind
from skill_retriever.stores.graph import EdgeIndex, GraphMatrices, build_matrices, neighbour_indices

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
def matrices() -> GraphMatrices:
    return build_matrices(NODES, EDGES)


def symmetric_nx() -> nx.DiGraph:
    """The undirected weighted graph the maths runs on, built independently: each
    relation adds its weight in both directions, summed over kinds."""
    g = nx.DiGraph()
    g.add_nodes_from(NODES)
    for e in EDGES:
        for u, v in ((e.source, e.target), (e.target, e.source)):
            w = g[u][v]["weight"] if g.has_edge(u, v) else 0.0
            g.add_edge(u, v, weight=w + e.weight)
    return g


def test_matrices_symmetric(matrices: GraphMatrices) -> None:
    m = matrices
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


def test_edges_to_unknown_nodes_are_left_out() -> None:
    m = build_matrices(["a", "b"], [*EDGES, Edge("a", "zz", "USES")])
    assert m.adjacency.shape == (2, 2)
    assert m.adjacency[0, 1] == pytest.approx(4.0)


@pytest.mark.parametrize(
    ("seeds", "alpha"),
    [({"a": 1.0}, 0.85), ({"c": 0.7, "g": 0.3}, 0.9), ({"lonely": 1.0, "e": 2.0}, 0.6)],
)
def test_ppr_equals_networkx_pagerank(matrices: GraphMatrices, seeds: dict[str, float], alpha: float) -> None:
    m = matrices
    p = np.zeros(len(m.ids))
    for node, w in seeds.items():
        p[m.index[node]] = w
    ours = personalized_pagerank(m.transition, p, alpha=alpha, tol=1e-13, max_iter=1000)
    reference = nx.pagerank(symmetric_nx(), alpha=alpha, personalization=seeds, weight="weight", tol=1e-13, max_iter=1000)
    for node in NODES:
        assert ours[m.index[node]] == pytest.approx(reference[node], abs=1e-6), node
    assert ours.sum() == pytest.approx(1.0)


def test_typed_neighbourhood(matrices: GraphMatrices) -> None:
    edges = EdgeIndex({e.id: e for e in EDGES})
    assert {e.id for e in edges.out_edges("a")} == {"a|DEPENDS_ON|b", "a|USES|b"}
    assert [e.id for e in edges.out_edges("a", EdgeKind.USES)] == ["a|USES|b"]
    assert {e.id for e in edges.in_edges("c")} == {"b|PART_OF|c", "f|AFFECTS|c"}
    assert len(edges.edges_of("a")) == 4
    assert edges.out_edges("missing") == [] and edges.in_edges("missing") == []
    m = matrices
    near = neighour = neighbour_indices(m.adjacency, np.array([m.index["c"]]))
    assert {m.ids[i] for i in near} == {"b", "d", "f"} and len(neighour) == 3
