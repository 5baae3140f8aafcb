"""The phase tags reach ``astream_events``, not only tracers: a walkthrough streamed
``graph.astream_events(..., version="v2", include_tags=["skill_retriever"])``, the filter
README's LangSmith tags invite, and got no event at all. The tags were added to a phase's
run only when it ended (`tracing.annotate_phase`), through the run a ``BaseTracer`` holds;
an event stream takes a run's tags and metadata when it starts, and v2's handler is no
tracer. What a phase is called is known before it runs: each phase node carries the tags
``skill_retriever`` and ``phase:<name>`` from its start (its route, stats and ``phase``
metadata, known only at its end, still reach tracers). Real LangGraph, the sample
index with the hashing embedder."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

from skill_retriever.context import RetrievalContext
from skill_retriever.graph import graph
from skill_retriever.stores.index import Index
from skill_retriever.tracing import TAG

#: The phases every route runs (test_phase_tracing.py's COMMON).
EVERY_ROUTE = {"plan_query", "retrieve_seeds", "search_keywords", "search_temporal", "fuse_rrf",
               "cover_clauses", "rerank_cross_encoder", "apply_token_budget"}  # fmt: skip


def _events(runnable: Any, state: dict[str, Any], ctx: RetrievalContext, **kwargs: Any) -> list[dict[str, Any]]:
    async def collect() -> list[dict[str, Any]]:
        return [e async for e in runnable.astream_events(state, context=ctx, **kwargs)]

    return asyncio.run(collect())


def test_include_tags_streams_each_phase_with_its_name(sample_index: Index) -> None:
    ctx = RetrievalContext(index=sample_index)
    events = _events(graph, {"query": "add tracing to a fastapi service", "k": 3}, ctx,
                     version="v2", include_tags=[TAG])
    started = {e["name"]: e for e in events if e["event"] == "on_chain_start"}
    assert EVERY_ROUTE <= set(started)
    for name in EVERY_ROUTE:
        assert f"phase:{name}" in started[name]["tags"]
        assert started[name]["metadata"]["langgraph_node"] == name
    assert "skill_retriever" not in started  # the graph's own run is no phase


def test_a_parent_graph_streams_only_the_subgraph_phases_by_tag(sample_index: Index) -> None:
    class Parent(TypedDict, total=False):
        query: str
        results: list[Any]
        note: str

    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", graph)
    builder.add_node("answer", lambda state: {"note": f"{len(state['results'])} results"})
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", "answer")
    parent = builder.compile()
    events = _events(parent, {"query": "review a postgres migration"}, RetrievalContext(index=sample_index),
                     version="v2", include_tags=["phase:fuse_rrf"])
    assert {e["name"] for e in events} == {"fuse_rrf"}
    assert {e["event"] for e in events} >= {"on_chain_start", "on_chain_end"}


@pytest.mark.filterwarnings("ignore:astream_events version='v1' is deprecated")
def test_astream_events_v1_carries_the_phase_tags_too(sample_index: Index) -> None:
    ctx = RetrievalContext(index=sample_index)
    events = _events(graph, {"query": "format python code on save"}, ctx, version="v1")
    ended = {e["name"]: e for e in events if e["event"] == "on_chain_end" and e["name"] in EVERY_ROUTE}
    assert set(ended) == EVERY_ROUTE
    assert all({TAG, f"phase:{name}"} <= set(e["tags"]) for name, e in ended.items())
