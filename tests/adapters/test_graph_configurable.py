"""The compiled retrieval graph reads a run's settings from LangGraph's
``config["configurable"]``, where LangGraph users pass per-run settings:
``graph.invoke(s, {"configurable": {"k": 3}}, context=ctx)`` searched for the default 10, the
k dropped without a word. Keys that are settings (and ``profile``) apply over the context's
config through ``RetrievalConfig.override``, with its checks; LangGraph's own keys
(``thread_id``, ``checkpoint_ns``, ``__pregel_*``) and a parent's unrelated keys are left
alone; a key one slip from a setting's name (``kk``) is left alone too and named in the
answer's warnings with that name (refused, it failed parent graphs whose own keys are
``timeout``, ``provider`` or ``budget``). The plan's
stats say which settings came from there. Real compiled graph, real LangGraph, the sample
index (hashing embedder)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from skill_retriever.adapters.langgraph_server import retrieval_context
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import build_graph
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = {"query": "postgres schema migration"}


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index)


def _taken(out: dict[str, Any]) -> Any:
    return out["stats"]["plan_query"].get("configurable")


def test_configurable_k_applies(ctx: RetrievalContext) -> None:
    assert len(retrieval_graph.invoke(QUERY, context=ctx)["results"]) > 3  # the default 10 finds more
    out = retrieval_graph.invoke(QUERY, {"configurable": {"k": 3}}, context=ctx)
    assert len(out["results"]) == 3
    assert _taken(out) == {"k": 3}
    assert _taken(retrieval_graph.invoke(QUERY, context=ctx)) is None  # said only when something came from there


def test_configurable_profile_and_settings(ctx: RetrievalContext) -> None:
    out = retrieval_graph.invoke(QUERY, {"configurable": {"profile": "multihop", "snippet_chars": 20}}, context=ctx)
    assert out["stats"]["plan_query"]["route"] == "ppr"  # the profile's route
    assert all(len(r["snippet"]) <= 21 for r in out["results"])
    assert _taken(out) == {"profile": "multihop", "snippet_chars": 20}


def test_the_inputs_own_k_wins(ctx: RetrievalContext) -> None:
    out = retrieval_graph.invoke({**QUERY, "k": 2}, {"configurable": {"k": 3}}, context=ctx)
    assert len(out["results"]) == 2


def test_async_runs_read_it_too(ctx: RetrievalContext) -> None:
    out = asyncio.run(retrieval_graph.ainvoke(QUERY, {"configurable": {"k": 3}}, context=ctx))
    assert len(out["results"]) == 3


def test_langgraphs_own_and_unrelated_keys_are_left_alone(ctx: RetrievalContext) -> None:
    graph = build_graph()
    graph.checkpointer = InMemorySaver()
    config = {"configurable": {"thread_id": "t1", "k": 3, "__pregel_anything": 1, "__private": 2, "user_id": "u",
                               "model": "gpt", "langgraph_auth_user": "x", "checkpoint_ns": ""}}
    out = graph.invoke(QUERY, config, context=ctx)  # type: ignore[arg-type]
    assert len(out["results"]) == 3
    assert _taken(out) == {"k": 3}


@pytest.mark.parametrize(("key", "meant"), [("kk", "k"), ("budgett", "budget_fill"), ("token_budgt", "token_budget"),
                                            ("rerank_topn", "rerank_top_n")])
def test_a_near_miss_is_named_in_the_warnings(ctx: RetrievalContext, key: str, meant: str) -> None:
    out = retrieval_graph.invoke(QUERY, {"configurable": {key: 3}}, context=ctx)
    (warning,) = [w for w in out["warnings"] if "configurable" in w]
    assert f"config['configurable'] key {key!r} is no setting (did you mean {meant!r}?), so it was left alone" in warning
    assert "read_configurable=False" in warning  # how to read none
    assert _taken(out) is None and len(out["results"]) > 3  # the default k: nothing was taken


@pytest.mark.parametrize("key", ["timeout", "provider", "budget", "alpha"])
def test_a_parents_own_key_near_a_setting_fails_nothing(ctx: RetrievalContext, key: str) -> None:
    out = retrieval_graph.invoke(QUERY, {"configurable": {key: 30, "k": 3}}, context=ctx)
    assert len(out["results"]) == 3 and _taken(out) == {"k": 3}


def test_read_configurable_false_reads_none(sample_index: Index) -> None:
    ctx = RetrievalContext(index=sample_index, read_configurable=False)
    out = retrieval_graph.invoke(QUERY, {"configurable": {"k": 3, "timeout": 5}}, context=ctx)
    assert len(out["results"]) > 3 and _taken(out) is None
    with pytest.raises(ConfigError, match="read_configurable must be True or False"):
        RetrievalContext(index=sample_index, read_configurable="no")  # type: ignore[arg-type]


@pytest.mark.parametrize(("configurable", "words"), [
    ({"k": 0}, "k must be > 0, got 0"),
    ({"k": "3"}, "setting 'k' has the wrong type"),
    ({"profile": "multihp"}, "unknown profile 'multihp' (did you mean 'multihop'?)"),
    ({"channels": {"graph": False, "semantic": False, "keyword": False, "temporal": False, "named": False}},
     "every channel is off"),
])
def test_a_bad_value_is_refused_as_override_refuses_it(ctx: RetrievalContext, configurable: dict[str, Any],
                                                       words: str) -> None:
    with pytest.raises(ConfigError) as err:
        retrieval_graph.invoke(QUERY, {"configurable": configurable}, context=ctx)
    assert words in str(err.value)
    assert "configurable" in str(err.value)


class Parent(TypedDict, total=False):
    query: str
    results: list[dict[str, Any]]


def test_a_parent_runs_configurable_reaches_the_subgraph(ctx: RetrievalContext) -> None:
    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", END)
    out = builder.compile().invoke(QUERY, {"configurable": {"k": 3}}, context=ctx)  # type: ignore[arg-type]
    assert len(out["results"]) == 3


def test_retriever_keeps_its_own_settings(sample_index: Index) -> None:
    """Retriever's answer cache knows a query by the settings it was given; a configurable
    it never saw (a caller's run_config, a served run's) must not change the answer."""
    with Retriever(sample_index, reranker=None) as retriever:
        assert len(retriever.search(QUERY["query"], run_config={"configurable": {"k": 3}}).results) > 3
    # the served graphs' context: what a client may set is bounded there (COST_CAPS), not here
    assert retrieval_context(None).read_configurable is False
