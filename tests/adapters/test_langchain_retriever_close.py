"""`SkillRetriever` is closed like the `Retriever` it builds: ``close()`` or a ``with``
block. It had neither, while it may build its own `Retriever` and, through it, load the
default cross-encoder: a long-lived process could let go of that model only by dropping
every reference to the retriever. Closing lets go of what it built itself, never of the
index, a reranker passed in or a `Retriever` given to ``from_retriever``.
"""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from langchain_core.documents import Document

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.exceptions import RetrieverClosedError
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migrations"
CLOSED = r"^this SkillRetriever was closed; make a new one: SkillRetriever\(index=index\)"


def test_a_with_block_closes_what_it_built_and_leaves_the_index_open(
    shared_tiny_index: Index, default_rerankers: list[EmbeddingReranker]
) -> None:
    loaded = default_rerankers
    with SkillRetriever(index=shared_tiny_index, k=2) as retriever:
        docs = retriever.invoke(QUERY)
        assert docs and all(isinstance(d, Document) for d in docs)
        engine = retriever.engine
    assert loaded and engine.closed  # the Retriever it built, closed with it
    gone = weakref.ref(loaded.pop())
    gc.collect()
    assert gone() is None, "the closed SkillRetriever still holds the model its Retriever loaded"
    for use in (lambda: retriever.invoke(QUERY), lambda: asyncio.run(retriever.ainvoke(QUERY))):
        with pytest.raises(RetrieverClosedError, match=CLOSED):
            use()
    with pytest.raises(RetrieverClosedError, match=CLOSED):
        retriever.__enter__()  # a closed one is refused by a new with block too
    retriever.close()  # again: nothing happens
    assert SkillRetriever(index=shared_tiny_index, reranker=None, k=2).invoke(QUERY)  # the index is open


def test_closing_leaves_the_callers_retriever_and_reranker_open(shared_tiny_index: Index) -> None:
    mine = EmbeddingReranker(shared_tiny_index.embedder)
    theirs = Retriever(shared_tiny_index, reranker=mine)
    with SkillRetriever.from_retriever(theirs, k=2) as wrapped:
        assert wrapped.invoke(QUERY)
    assert not theirs.closed and theirs.search(QUERY, k=1).reranker == mine.name
    with SkillRetriever(index=shared_tiny_index, reranker=mine, k=2) as own:
        assert own.invoke(QUERY)[0].metadata["rerank_score"] is not None
    assert mine.score("postgres", ["postgres migrations"])  # the caller's reranker still works


def test_a_copy_searches_on_after_its_original_is_closed(shared_tiny_index: Index) -> None:
    original = SkillRetriever(index=shared_tiny_index, reranker=None, k=2)
    assert original.invoke(QUERY)
    copy = original.model_copy()  # shares the Retriever the original built
    original.close()
    assert [d.id for d in copy.invoke(QUERY)] == [d.id for d in SkillRetriever(
        index=shared_tiny_index, reranker=None, k=2).invoke(QUERY)]


def test_closing_changes_neither_its_fields_nor_its_schema(shared_tiny_index: Index) -> None:
    retriever = SkillRetriever(index=shared_tiny_index, k=3, reranker=None)
    fields = set(SkillRetriever.model_fields)
    dumped = retriever.model_dump(exclude={"index"})
    retriever.close()
    assert set(SkillRetriever.model_fields) == fields and "close" not in fields
    assert retriever.model_dump(exclude={"index"}) == dumped
