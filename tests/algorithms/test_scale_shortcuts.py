"""The shortcuts that keep a query off whole-graph passes give the same answers as the
general code: the ``symmetric`` paths of expansion, edge density and flow pruning,
exact vector search, the per-snapshot coverage words and masked matrices."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from skill_retriever.algorithms.expansion import expand
from skill_retriever.algorithms.flow_pruning import prune_flow
from skill_retriever.algorithms.multifactor import subgraph_edge_density
from skill_retriever.algorithms.ppr import personalized_pagerank, transition_matrix
from skill_retriever.algorithms.query_terms import (
    coverage,
    coverage_of_vocabularies,
    text_vocabulary,
)
from skill_retriever.filters import Filters
from skill_retriever.stores.index import Index


def random_symmetric(n: int, m: int, seed: int, explicit_zeros: int = 0) -> sp.csr_array:
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = src != dst
    directed = sp.csr_array((rng.uniform(0.5, 2.0, keep.sum()), (src[keep], dst[keep])), shape=(n, n))
    adjacency = sp.csr_array(directed + directed.T)
    if explicit_zeros:  # a masked matrix keeps zero entries: they must not count as edges
        coo = sp.coo_array(adjacency)
        zero = rng.choice(coo.nnz, size=min(explicit_zeros, coo.nnz), replace=False)
        pairs = set(zip(coo.row[zero].tolist(), coo.col[zero].tolist()))
        data = coo.data.copy()
        for i, (r, c) in enumerate(zip(coo.row.tolist(), coo.col.tolist())):
            if (r, c) in pairs or (c, r) in pairs:
                data[i] = 0.0
        adjacency = sp.csr_array((data, (coo.row, coo.col)), shape=(n, n))
    return adjacency


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_expansion_equals_general(seed: int) -> None:
    adjacency = random_symmetric(300, 900, seed, explicit_zeros=20 * (seed % 2))
    rng = np.random.default_rng(seed)
    sims = rng.uniform(-0.2, 1.0, 300)
    seeds = rng.choice(300, 4, replace=False).tolist()
    allowed = rng.random(300) > 0.2 if seed % 3 == 0 else None
    kwargs = {"thresholds": (0.5, 0.35, 0.2), "max_nodes_per_level": 15, "max_edges_per_level": 25, "allowed": allowed}
    general = expand(adjacency, seeds, lambda rows: sims[rows], **kwargs)
    shortcut = expand(adjacency, seeds, lambda rows: sims[rows], symmetric=True, **kwargs)
    assert general == shortcut
    assert sum(len(level.nodes) for level in general) > 0  # the case is not trivial


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_edge_density_equals_general(seed: int) -> None:
    adjacency = random_symmetric(400, 1500, seed, explicit_zeros=30 * (seed % 2))
    cand = np.random.default_rng(seed).choice(400, 60, replace=False).tolist()
    general = subgraph_edge_density(adjacency, cand)
    assert subgraph_edge_density(adjacency, cand, symmetric=True) == general
    assert any(v > 0 for v in general.values())


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_flow_pruning_equals_general(seed: int) -> None:
    adjacency = random_symmetric(500, 1500, seed, explicit_zeros=25 * (seed % 2))
    rng = np.random.default_rng(seed)
    seeds = rng.choice(500, 3, replace=False).tolist()
    p = np.zeros(500)
    p[seeds] = 1.0
    scores = personalized_pagerank(transition_matrix(adjacency), p)
    kwargs = {"max_endpoints": 8, "max_paths": 10, "threshold": 0.0, "max_hops": 4}
    general = prune_flow(adjacency, seeds, scores, **kwargs)
    assert prune_flow(adjacency, seeds, scores, symmetric=True, **kwargs) == general
    assert general.paths  # paths were found, so the comparison says something


def test_coverage_of_vocabularies_matches_coverage() -> None:
    texts = ["Deploy the checkout-api to staging", "Roll back INC-1043 quickly", "postgres schema migration"]
    for components in (["checkout", "rollback", "postgres schema"], ["api staging", "inc-1043", "kafka"], []):
        assert coverage_of_vocabularies(components, [text_vocabulary(t) for t in texts]) == coverage(components, texts)


def test_vocabulary_is_read_per_snapshot(tiny_index: Index) -> None:
    before = tiny_index.snapshot()
    node = before.get("skill:alembic")
    assert "zeppelin" not in before.vocabulary(node)
    tiny_index.upsert([node.with_changes(description="zeppelin rigging")])
    after = tiny_index.snapshot()
    assert after is not before
    assert "zeppelin" in after.vocabulary(after.get("skill:alembic"))
    assert "zeppelin" not in before.vocabulary(before.get("skill:alembic"))  # the old snapshot reads as it was


def test_batched_node_search_equals_one_by_one(tiny_index: Index) -> None:
    snap = tiny_index.snapshot()
    queries = ["database migrations", "deploy a service", "write tests", "nothing like anything"]
    vecs = tiny_index.embedder.embed(queries)
    for filters in (None, Filters(kinds=frozenset({"skill"})), Filters(principals={"team-b"})):
        batched = snap.search_nodes_many(vecs, 5, filters)
        single = [snap.search_nodes(v, 5, filters) for v in vecs]
        # Same items in the same order; the scores agree to float32 rounding only: BLAS may
        # take another kernel for one row than for several (seen: 0.47434166 against
        # 0.47434163), which is why hits are ordered by the score to 6 decimals.
        assert [[h.id for h in hits] for hits in batched] == [[h.id for h in hits] for hits in single]
        for got, want in zip(batched, single, strict=True):
            assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-6)
    assert len(snap.search_nodes(vecs[0], 10_000, Filters(principals={"*"}))) == len(snap)
    assert snap.search_nodes_many(vecs[:0], 5) == []


def test_exact_search_equals_brute_force(tiny_index: Index) -> None:
    snap = tiny_index.snapshot()
    vec = tiny_index.embedder.embed(["database migrations"])[0]
    hits = snap.search_nodes(vec, 5, Filters(principals={"*"}))
    scores = {i: float(snap.node_vector(i) @ vec) for i in snap.nodes}  # type: ignore[operator]
    expected = sorted(scores, key=lambda i: (-round(scores[i], 6), i))[:5]
    assert [h.id for h in hits] == expected
    assert all(abs(h.score - scores[h.id]) < 1e-6 for h in hits)


def test_masked_matrices_are_reused_and_cut_invisible_rows(tiny_index: Index) -> None:
    snap = tiny_index.snapshot()
    gm = snap.graph
    assert snap.visible_adjacency(Filters(principals={"*"})) is gm.adjacency
    caller = Filters(principals={"team-b"})
    mask = snap.allowed_mask(caller.visibility())
    assert mask is not None and not mask.all()  # the tiny catalogue has a private item
    adjacency = snap.visible_adjacency(caller)
    transition = transition_matrix(adjacency)
    assert snap.visible_adjacency(caller) is adjacency  # built once per snapshot and principals
    hidden = np.flatnonzero(~mask)
    assert adjacency[hidden].nnz == 0 and adjacency[:, hidden].nnz == 0
    assert transition[hidden].nnz == 0
    assert adjacency.nnz < gm.adjacency.nnz


def test_chroma_search_retries_once_when_it_races_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    import chromadb
    from chromadb.config import Settings
    from chromadb.errors import InternalError

    from skill_retriever.stores.embedder import HashingEmbedder
    from skill_retriever.stores.vectors import ChromaVectorStore

    embedder = HashingEmbedder()
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    store = ChromaVectorStore(client, "retry-test", embedder)
    texts = ["database migrations", "deploy a service", "write tests"]
    store.upsert(["a", "b", "c"], embedder.embed(texts), [{"hash": "h"}] * 3)
    real_query = store._col.query
    calls: list[int] = []

    def flaky(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise InternalError("Error executing plan: Internal error: Error finding id")
        return real_query(*args, **kwargs)

    monkeypatch.setattr(store._col, "query", flaky)
    vec = embedder.embed(["database migrations"])[0]
    assert store.search_many(vec.reshape(1, -1), 3)[0] and len(calls) == 2

    def broken(*args: object, **kwargs: object) -> object:
        raise InternalError("still broken")

    monkeypatch.setattr(store._col, "query", broken)
    with pytest.raises(InternalError):
        store.search_many(vec.reshape(1, -1), 3)
