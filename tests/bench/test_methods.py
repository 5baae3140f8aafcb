"""The compared methods over the tiny index (HashingEmbedder): peers and our variants."""

from __future__ import annotations

import numpy as np
from tiny_graph import NOW

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.evaluate import evaluate
from skill_retriever.bench.methods import DenseSearcher, channel_methods, our_methods, peer_methods
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_dense_is_exact_cosine(shared_tiny_index: Index) -> None:
    index = shared_tiny_index
    dense = DenseSearcher(index)
    snap = index.snapshot()
    q = snap.embed_query("postgres schema migrations")
    gm, emb = snap.graph, snap.embeddings
    sims = emb @ q
    expected = [gm.ids[i] for i in np.argsort(-sims, kind="stable")[:3]]
    assert [i for i, _ in dense.search_vector(q, 3, None)] == expected
    skills = dense.search_vector(q, 50, ("skill",))
    assert skills and all(index.nodes[i].kind.value == "skill" for i, _ in skills)


def test_every_method_answers_and_ablation_removes_its_channel(shared_tiny_index: Index) -> None:
    index = shared_tiny_index
    retriever = Retriever(index, RetrievalConfig(now=NOW), reranker=None)
    q = EvalQuery("q1", "roll back a failed postgres migration", {"skill:postgres-migrations": 1})
    methods = peer_methods(index, None, k=5) + our_methods(retriever, None, k=5, rerank=False)
    names = [m.name for m in methods]
    assert names[:3] == ["BM25", "dense", "LC Ensemble"]
    # the report's row legend reads this: the index's model, not a fixed MiniLM
    assert methods[1].description == f"exact cosine, {index.embedder.name}" and "MiniLM" not in methods[1].description
    assert {"route quick", "route ppr", "route smart", "full", "full -graph", "full -keyword"} <= set(names)
    for m in methods:
        ranked = m.run(q)
        assert ranked.ids and len(ranked.ids) <= 5 and len(set(ranked.ids)) == len(ranked.ids), m.name
    resp = retriever.search(q.text, k=5, principals=["*"], rerank=False, channels={"keyword": False})
    assert all("keyword" not in r.channels for r in resp.results)
    only = channel_methods(retriever, None, k=5)
    assert [m.name for m in only][:4] == ["only semantic", "only keyword", "only graph", "only temporal"]
    summary, per_query = evaluate([q], only[:2], ["MRR", "R@5"], log=lambda _: None)
    assert set(summary) == {"only semantic", "only keyword"}
    assert per_query["only keyword"][0][0] == "q1"
