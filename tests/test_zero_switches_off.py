"""Settings whose 0 switches a step off (docs/architecture.md, "A setting's 0"), checked end
to end on the sample catalogue: the response's phase stats say the step did not run.

``rerank_top_n=0`` reranked the ``k`` items delivered, as None does (``rerank_top_n or k``
read the 0 as unset), though a setting of 0 items to rerank can only mean none: the
reranker ran and reordered the top all the same."""

from __future__ import annotations

from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


def test_rerank_top_n_zero_reranks_nothing(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=EmbeddingReranker(sample_index.embedder))
    on = retriever.search(QUERY, rerank_top_n=3)
    assert on.stats["rerank_cross_encoder"]["reranked"] == 3 and on.reranker != "none"
    off = retriever.search(QUERY, rerank_top_n=0)
    assert off.reranker == "none" and "reranked" not in off.stats["rerank_cross_encoder"]
    unranked = retriever.search(QUERY, rerank=False)
    assert off.ids == unranked.ids
