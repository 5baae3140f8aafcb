"""``SkillRetriever(...).configurable_fields(k=ConfigurableField(id="k"))`` searches with
the one `Retriever` of the retriever configured, not a new one per call.

LangChain's `RunnableConfigurableFields` makes a new SkillRetriever from the fields of
the one configured at every call that sets a configurable value (``self.default.__class__(
**fields)``: private attributes are not copied). Each copy built its own `Retriever`: an
empty answer cache and the default reranker loaded again, every call (and never closed);
one wrapped by ``from_retriever`` searched a Retriever of its own, not the one given.
"""

from __future__ import annotations

import pytest
from langchain_core.runnables import ConfigurableField

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import RetrieverClosedError
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migrations"


def test_each_call_shares_the_retriever_and_its_reranker(
    shared_tiny_index: Index, default_rerankers: list[EmbeddingReranker]
) -> None:
    original = SkillRetriever(index=shared_tiny_index, k=3)
    configured = original.configurable_fields(k=ConfigurableField(id="k"))
    first = configured.invoke(QUERY, config={"configurable": {"k": 1}})
    second = configured.invoke(QUERY, config={"configurable": {"k": 2}})
    assert (len(first), len(second), len(configured.invoke(QUERY))) == (1, 2, 3)
    assert len(default_rerankers) == 1, "each call loaded the default reranker again"
    copy, _ = configured._prepare({"configurable": {"k": 2}})  # type: ignore[attr-defined]
    assert isinstance(copy, SkillRetriever) and copy is not original and copy.k == 2
    assert copy.engine is original.engine
    copy.close()  # a copy closes nothing it did not build
    assert not original.engine.closed
    chained = configured.configurable_fields(token_budget=ConfigurableField(id="budget"))
    again, _ = chained._prepare({"configurable": {"k": 1, "budget": 500}})  # type: ignore[attr-defined]
    assert isinstance(again, SkillRetriever) and again.engine is original.engine


def test_a_wrapped_retriever_is_the_one_every_call_searches(shared_tiny_index: Index) -> None:
    theirs = Retriever(shared_tiny_index, reranker=None)
    configured = SkillRetriever.from_retriever(theirs, k=3).configurable_fields(k=ConfigurableField(id="k"))
    copy, _ = configured._prepare({"configurable": {"k": 1}})  # type: ignore[attr-defined]
    assert isinstance(copy, SkillRetriever) and copy.engine is theirs
    assert [d.metadata["reranker"] for d in configured.invoke(QUERY, config={"configurable": {"k": 1}})] == ["none"]


def test_a_call_that_sets_what_the_retriever_is_built_from_builds_its_own(shared_tiny_index: Index) -> None:
    original = SkillRetriever(index=shared_tiny_index, reranker=None, k=2)
    configured = original.configurable_fields(config=ConfigurableField(id="settings"))
    copy, _ = configured._prepare({"configurable": {"settings": RetrievalConfig(k=3)}})  # type: ignore[attr-defined]
    assert isinstance(copy, SkillRetriever) and copy.engine is not original.engine
    assert copy.engine.config.k == 3


def test_a_closed_retriever_configured_is_refused(shared_tiny_index: Index) -> None:
    original = SkillRetriever(index=shared_tiny_index, reranker=None, k=2)
    configured = original.configurable_fields(k=ConfigurableField(id="k"))
    original.close()
    with pytest.raises(RetrieverClosedError, match="this SkillRetriever was closed"):
        configured.invoke(QUERY, config={"configurable": {"k": 1}})
