"""A `RetrievalContext`'s config and reranker, checked when it is made, as its index is.

A dict of settings for ``config`` (``RetrievalContext(index=..., config={"k": 2})``, or a
plain dict context holding one) was taken, and every query then failed in ``plan_query``
with ``AttributeError: 'dict' object has no attribute 'use_calibration'``; a model name for
``reranker`` was taken too, and every query logged a traceback from the rerank phase and
a warning that it was skipped. `Retriever` refused both at construction already."""

from __future__ import annotations

from typing import Any

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import DEFAULT_RERANKER, Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ({"k": 2}, r"^context\.config must be a RetrievalConfig \(RetrievalConfig\(\*\*settings\), "),
        ("multihop", r"^context\.config must be a RetrievalConfig \(RetrievalConfig\(\.\.\.\) or config_for\(profile\)\), got str$"),
        (None, r"^context\.config must be a RetrievalConfig \(leave it out for RetrievalConfig\(\)\), got None$"),
    ],
)
def test_a_config_that_is_no_retrieval_config_is_refused(sample_index: Index, config: Any, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        RetrievalContext(index=sample_index, config=config)
    with pytest.raises(ConfigError, match=says):  # a plain dict context is made into one
        graph.invoke({"query": "add tracing"}, context={"index": sample_index, "config": config})


@pytest.mark.parametrize(
    ("reranker", "says"),
    [
        ("cross-encoder/ms-marco-MiniLM-L-6-v2", r"not the model name .*: pass reranker=CrossEncoderReranker\("),
        (object(), r"^context\.reranker takes a Reranker .*; got object"),
    ],
)
def test_a_reranker_no_search_could_run_is_refused(sample_index: Index, reranker: Any, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        RetrievalContext(index=sample_index, reranker=reranker)


def test_a_real_config_and_reranker_still_search(sample_index: Index) -> None:
    context = RetrievalContext(
        index=sample_index, config=RetrievalConfig(k=2), reranker=EmbeddingReranker(sample_index.embedder)
    )
    out = graph.invoke({"query": "add tracing to a FastAPI service"}, context=context)
    assert len(out["results"]) == 2 and not any("failed" in w for w in out["warnings"])
    assert out["reranker"] != "none"


@pytest.mark.parametrize("snapshot", ["latest", 3])
def test_a_snapshot_that_is_none_of_the_indexs_is_refused(sample_index: Index, snapshot: Any) -> None:
    """It failed every query: "plan_query failed: AttributeError: 'str' object has no
    attribute 'memo'"."""
    with pytest.raises(ConfigError, match=r"^context\.snapshot must be one its index gave \(index\.snapshot\(\)\) or None, got "):
        RetrievalContext(index=sample_index, snapshot=snapshot)
    pinned = RetrievalContext(index=sample_index, snapshot=sample_index.snapshot())
    assert graph.invoke({"query": "add tracing", "k": 1}, context=pinned)["results"]


def test_the_default_reranker_is_resolved_as_retriever_resolves_it(sample_index: Index) -> None:
    """``DEFAULT_RERANKER``, `Retriever`'s default, passed the context's check and every
    query then warned "rerank_cross_encoder failed and was skipped (AttributeError:
    'Default' object has no attribute 'score')" and ranked without it."""
    context = RetrievalContext(index=sample_index, reranker=DEFAULT_RERANKER)
    out = graph.invoke({"query": "add tracing to a FastAPI service", "k": 2}, context=context)
    assert len(out["results"]) == 2 and not any("failed" in w for w in out["warnings"]), out["warnings"]
    resolved = Retriever(sample_index).reranker  # a cross-encoder when one loads offline, else none
    assert out["reranker"] == (resolved.name if resolved else "none")


def test_the_default_reranker_is_loaded_once_a_context(sample_index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[EmbeddingReranker] = []

    def load() -> EmbeddingReranker:  # a real reranker, as a cross-encoder found offline would be
        loads.append(EmbeddingReranker(sample_index.embedder))
        return loads[-1]

    monkeypatch.setattr("skill_retriever.rerank.default_reranker", load)
    context = RetrievalContext(index=sample_index, reranker=DEFAULT_RERANKER)
    assert not loads  # at the first query, as Retriever loads it, not when the context is made
    for query in ("add tracing", "format python code"):
        out = graph.invoke({"query": query, "k": 2}, context=context)
        assert out["reranker"] == loads[0].name and not any("failed" in w for w in out["warnings"])
    assert len(loads) == 1
