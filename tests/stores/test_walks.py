"""The PageRank walk kept on a snapshot (``stores.walks``): built once per matrix, equal
to ``networkx.pagerank`` on the whole graph and on what one caller may see; and the ppr
route's warm-started walk answers as the networkx-equal walk does."""

from __future__ import annotations

import sys

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from tiny_graph import NOW, PRIVATE_ID

from skill_retriever.algorithms.ppr import Walk, personalized_pagerank
from skill_retriever.algorithms.ppr_ranked import RankedPageRank
from skill_retriever.config import RetrievalConfig
from skill_retriever.filters import Filters
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index
from skill_retriever.stores.walks import walk_of


def networkx_scores(adjacency: sp.csr_array, p: np.ndarray, alpha: float) -> np.ndarray:
    graph = nx.from_scipy_sparse_array(adjacency, create_using=nx.DiGraph)
    pers = {int(i): float(p[i]) for i in np.flatnonzero(p)}
    ref = nx.pagerank(graph, alpha=alpha, personalization=pers, tol=1e-10, max_iter=300, weight="weight")
    return np.array([ref[i] for i in range(adjacency.shape[0])])


def test_walk_is_built_once_per_matrix_and_equals_networkx(shared_tiny_index: Index) -> None:
    snap = shared_tiny_index.snapshot()
    gm = snap.graph
    walk = walk_of(snap, gm.adjacency)
    assert walk_of(snap, gm.adjacency) is walk and walk.dtype == np.float32
    # A stop at N * 1e-8 on this small graph needs float64: chosen once, kept like the other.
    wide = walk_of(snap, gm.adjacency, 1e-8)
    assert wide.dtype == np.float64 and walk_of(snap, gm.adjacency, 1e-8) is wide
    p = np.zeros(len(gm.ids))
    p[[0, 3]] = [1.0, 0.5]
    ours = personalized_pagerank(walk, p, alpha=0.85, tol=1e-10)
    np.testing.assert_allclose(ours, networkx_scores(gm.adjacency, p, 0.85), rtol=0, atol=1e-6)


@pytest.mark.parametrize("principals", [("public",), ("team-a",)])
def test_walk_of_what_a_caller_may_see(shared_tiny_index: Index, principals: tuple[str, ...]) -> None:
    snap = shared_tiny_index.snapshot()
    gm = snap.graph
    filters = Filters(principals=frozenset(principals))
    adjacency = snap.visible_adjacency(filters)
    walk = walk_of(snap, adjacency)
    assert walk_of(snap, snap.visible_adjacency(filters)) is walk  # the memoised matrix, the memoised walk
    p = np.zeros(len(gm.ids))
    p[gm.index["service:checkout-api"]] = 1.0
    ours = personalized_pagerank(walk, p, alpha=0.85, tol=1e-10)
    np.testing.assert_allclose(ours, networkx_scores(adjacency, p, 0.85), rtol=0, atol=1e-6)
    private = ours[gm.index[PRIVATE_ID]]
    assert (private == 0.0) == ("team-a" not in principals)


@pytest.mark.parametrize(
    "query",
    ["deploy checkout-api after INC-1043 postgres migrations", "rollback payments service", "postgres schema"],
)
def test_ppr_route_answers_as_the_networkx_equal_walk(
    shared_tiny_index: Index, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def search() -> tuple[list[str], dict[str, int], list[tuple[str, ...]]]:
        retriever = Retriever(shared_tiny_index, RetrievalConfig(now=NOW), reranker=None, cache_size=0)
        resp = retriever.search(query, route="ppr")
        graph_ranks = {r.id: r.channels["graph"] for r in resp.results if "graph" in r.channels}
        return [r.id for r in resp.results], graph_ranks, [r.path for r in resp.results]

    ours = search()  # warm start, networkx's L1 rule
    phase = sys.modules["skill_retriever.phases.run_ppr"]

    def networkx_equal(walk: Walk, p: np.ndarray, alpha: float, top: int, settle: int, tol: float,
                       max_iter: int) -> RankedPageRank:
        return RankedPageRank(personalized_pagerank(walk, p, alpha=alpha, tol=tol, max_iter=max_iter), 0, False)

    monkeypatch.setattr(phase, "ranked_pagerank", networkx_equal)
    assert ours == search()
