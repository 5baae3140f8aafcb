"""A LangChain document says what ordered it and how sure the answer is (found by a
walkthrough of the retriever): its metadata held ``fusion_score`` and ``rerank_score`` but
not ``score``, the value the results are ordered by (a reranker's, a blend, or a coverage
gain, not always the fusion's), nor the answer's ``confidence``, which the agent tool's
line counting the items gives a model and ``SearchResponse.confidence`` a Python caller."""

from __future__ import annotations

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "review a postgres migration before it ships"


def test_documents_carry_the_score_they_are_ordered_by_and_the_confidence(sample_index: Index) -> None:
    response = Retriever(sample_index, reranker=None).search(QUERY, k=5)
    docs = SkillRetriever(index=sample_index, k=5, reranker=None).invoke(QUERY)
    assert [d.id for d in docs] == response.ids
    assert [d.metadata["score"] for d in docs] == [r.score for r in response.results]
    scores = [d.metadata["score"] for d in docs]
    assert scores == sorted(scores, reverse=True)
    assert response.confidence is not None  # the sample index is calibrated: a number to carry
    assert {d.metadata["confidence"] for d in docs} == {response.confidence}
    assert all(0.0 <= d.metadata["confidence"] <= 1.0 for d in docs)
