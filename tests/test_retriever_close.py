"""A `Retriever` is closed like the `Index` it searches: ``close()`` or a ``with`` block.

It had neither, so ``with Retriever(index) as r:`` failed with ``AttributeError:
__enter__``, and a long-lived process had no way to let go of the cross-encoder a
retriever loaded for itself (``DEFAULT_RERANKER``) but to drop every reference to it.
Closing lets go of what the retriever loaded (that model, its answer cache), never of the
index or a reranker the caller passed in, which stay the caller's; any use after it says
the retriever was closed and what to do.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.exceptions import RetrieverClosedError, SkillRetrieverError
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

CLOSED = r"^this Retriever was closed; make a new one: Retriever\(index\)"


def test_a_with_block_closes_the_retriever_and_leaves_the_index_open(shared_tiny_index: Index) -> None:
    with Retriever(shared_tiny_index, reranker=None) as retriever:
        assert retriever.search("postgres migrations", k=2).results
    uses = (
        lambda: retriever.search("postgres migrations"),
        lambda: retriever.search_many(["postgres migrations"]),
        lambda: asyncio.run(retriever.asearch("postgres migrations")),
        retriever.warm_up,
        retriever.context,
    )
    for use in uses:
        with pytest.raises(RetrieverClosedError, match=CLOSED) as raised:
            use()
        assert isinstance(raised.value, SkillRetrieverError) and isinstance(raised.value, RuntimeError)
    retriever.close()  # again: nothing happens
    assert len(shared_tiny_index) > 0  # the caller's index is still open
    assert Retriever(shared_tiny_index, reranker=None).search("postgres migrations", k=2).results


def test_closing_lets_go_of_the_default_reranker_but_not_the_callers(
    shared_tiny_index: Index, default_rerankers: list[EmbeddingReranker]
) -> None:
    loaded = default_rerankers
    retriever = Retriever(shared_tiny_index)
    assert retriever.search("postgres migrations", k=2).reranker == loaded[0].name
    gone = weakref.ref(loaded.pop())
    retriever.close()
    gc.collect()
    assert gone() is None, "the closed retriever still holds the model it loaded"

    mine = EmbeddingReranker(shared_tiny_index.embedder)
    with Retriever(shared_tiny_index, reranker=mine) as theirs:
        theirs.search("postgres migrations", k=2)
    assert mine.score("postgres", ["postgres migrations"])  # the caller's reranker still works


def test_an_index_closed_by_its_own_with_block_is_not_closed_by_the_retriever(tmp_path: Path) -> None:
    build_tiny_index(tmp_path / "ix").close()
    with Index.open(tmp_path / "ix") as index, Retriever(index, reranker=None) as retriever:
        assert retriever.search("postgres migrations", k=1).results
        retriever.close()
        assert len(index) > 0  # closing the retriever first leaves the index open
