"""The query's embedding stays out of the graph's state: streams, traces and checkpoints
carry the query and the answer, not a list of the index's floats.

Before: ``plan_query`` wrote the embedding into the state key ``vector``, so every chunk of
``stream_mode="values"`` and ``"debug"`` after the first, every node's inputs in a
LangSmith trace and every checkpoint of a thread carried it (with the bundled MiniLM, 384
floats a step), and a checkpointed thread kept the last query's embedding between queries.
Now the query's pinned view holds it (`QueryView.embedding`), and a run resumed where that
view is gone embeds the query's text again, once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.schemas import Run
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.graph import build_graph
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.stores.index import Index

QUERY = "canary rollout of a release"


def _float_lists(value: Any, dim: int) -> Iterator[list[float]]:
    """Every list of ``dim`` floats anywhere in ``value`` (an embedding, whatever its key)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _float_lists(v, dim)
    elif isinstance(value, (list, tuple)):
        if len(value) == dim and value and all(isinstance(x, float) for x in value):
            yield list(value)
        else:
            for v in value:
                yield from _float_lists(v, dim)


@pytest.fixture
def context(sample_index: Index) -> RetrievalContext:
    # The embedding reranker reads the query's embedding too (it is handed the view's).
    reranker = EmbeddingReranker(sample_index.embedder)
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=True), reranker=reranker)


@pytest.fixture
def embeds(sample_index: Index, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The texts of each call to the index's embedding model."""
    calls: list[list[str]] = []
    embedder = sample_index.embedder
    real = type(embedder).embed

    def counted(texts: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(list(texts))
        return real(embedder, texts, *args, **kwargs)

    monkeypatch.setattr(embedder, "embed", counted)
    return calls


def test_no_stream_mode_carries_the_embedding(context: RetrievalContext, sample_index: Index) -> None:
    graph = build_graph()
    dim = sample_index.snapshot().dim
    for mode in ("values", "updates", "debug"):
        chunks = list(graph.stream({"query": QUERY, "k": 3}, context=context, stream_mode=mode))
        assert chunks, mode
        for chunk in chunks:
            assert not list(_float_lists(chunk, dim)), mode
            if mode == "values":
                assert "vector" not in chunk


class Recorder(BaseTracer):
    """Every run a tracer (LangSmith's, Studio's) is sent, with its inputs and outputs."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[Run] = []

    def _persist_run(self, run: Run) -> None:
        pass

    def _end_trace(self, run: Run) -> None:
        self.runs.append(run)
        super()._end_trace(run)


def test_no_traced_run_carries_the_embedding(context: RetrievalContext, sample_index: Index) -> None:
    tracer = Recorder()
    build_graph().invoke({"query": QUERY, "k": 3}, {"callbacks": [tracer]}, context=context)
    names = {run.name for run in tracer.runs}
    assert {"plan_query", "retrieve_seeds", "rerank_cross_encoder"} <= names
    dim = sample_index.snapshot().dim
    for run in tracer.runs:
        assert not list(_float_lists(run.inputs, dim)), run.name
        assert not list(_float_lists(run.outputs, dim)), run.name


def test_no_checkpoint_of_a_thread_holds_the_embedding(context: RetrievalContext, sample_index: Index) -> None:
    graph = build_graph()
    graph.checkpointer = saver = InMemorySaver()
    thread = {"configurable": {"thread_id": "t"}}
    out = graph.invoke({"query": QUERY, "k": 3}, thread, context=context)
    assert out["results"] and out["reranker"].startswith("embedding:")
    dim = sample_index.snapshot().dim
    history = list(graph.get_state_history(thread))
    assert len(history) > 10  # a checkpoint a step
    for snapshot in history:
        assert "vector" not in snapshot.values
        assert not list(_float_lists(snapshot.values, dim))
    # What the saver stores, not only what it reads back: no channel named for it.
    assert not [key for key in saver.blobs if key[2] == "vector"]


def test_one_embedding_a_query_and_the_same_answer(
    context: RetrievalContext, sample_index: Index, embeds: list[list[str]]
) -> None:
    graph = build_graph()
    out = graph.invoke({"query": QUERY, "k": 3}, context=context)
    # The model embeds the query once; the reranker's own calls embed item windows only.
    assert [texts for texts in embeds if QUERY in texts] == [[QUERY]]
    assert out["results"]


def test_a_run_resumed_from_a_checkpoint_in_a_new_process_answers_alike(
    sample_index: Index, embeds: list[list[str]]
) -> None:
    """Each checkpoint after the first phase, resumed with a new context (as a restarted
    process has, holding no view), answers what the whole run answered, and embeds the
    query once to do it."""
    def new_context() -> RetrievalContext:
        return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=True),
                                reranker=EmbeddingReranker(sample_index.embedder))

    graph = build_graph()
    graph.checkpointer = InMemorySaver()
    thread = {"configurable": {"thread_id": "r"}}
    whole = graph.invoke({"query": QUERY, "k": 3, "route": "smart"}, thread, context=new_context())
    steps = [s for s in graph.get_state_history(thread) if s.next and "plan" in s.values]
    assert {"search_keywords", "retrieve_seeds", "rerank_cross_encoder"} <= {s.next[0] for s in steps}
    for step in steps:
        embeds.clear()
        again = graph.invoke(None, step.config, context=new_context())
        assert [r["id"] for r in again["results"]] == [r["id"] for r in whole["results"]], step.next
        assert again["results"] == whole["results"], step.next
        queried = [texts for texts in embeds if QUERY in texts]
        assert len(queried) <= 1, step.next  # at most once, wherever it resumes
        if step.next == ("apply_token_budget",):  # no phase left that reads the embedding
            assert not queried
