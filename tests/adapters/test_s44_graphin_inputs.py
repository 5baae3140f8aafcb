"""What the retrieval graph and the server graph do with input LangGraph would drop unread:
a misspelled key (``topk``), a ``query_vector`` given to the served graph, no query, and a
context that is no mapping. Real graphs on the sample index (hashing embedder)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.graph import build_graph
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index

TAKEN = "this graph's input takes query, k, token_budget, route, filters, profile"


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index)


@pytest.fixture
def served(sample_index_path: Path, tmp_path: Path) -> tuple[Any, dict[str, Any]]:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    return srv.build_server_graph(), {"index_dir": str(index_dir), "cross_encoder": None, "rerank": False}


def test_a_misspelled_key_is_refused_by_name_with_the_keys_taken(ctx: RetrievalContext) -> None:
    with pytest.raises(ConfigError) as caught:
        retrieval_graph.invoke({"query": "fuzzing", "topk": 3}, context=ctx)
    said = str(caught.value)
    assert said.startswith("unknown input key 'topk' (did you mean 'k'?); ")
    assert said.endswith(f"{TAKEN}, query_vector") and "\n" not in said
    # the nearest taken key, for a slip no table lists; a filter is said to be one
    with pytest.raises(ConfigError, match=r"unknown input key 'qurey' \(did you mean 'query'\?\)"):
        retrieval_graph.invoke({"qurey": "fuzzing"}, context=ctx)
    with pytest.raises(ConfigError, match=r"'kinds' \(a filter: filters=\{\"kinds\": \.\.\.\}\)"):
        retrieval_graph.invoke({"query": "fuzzing", "kinds": ["skill"]}, context=ctx)
    # the right key still searches as asked
    assert len(retrieval_graph.invoke({"query": "fuzzing", "k": 3}, context=ctx)["results"]) == 3


def test_async_runs_and_graphs_built_again_refuse_it_too(ctx: RetrievalContext) -> None:
    with pytest.raises(ConfigError, match="unknown input key 'top_k'"):
        asyncio.run(retrieval_graph.ainvoke({"query": "fuzzing", "top_k": 3}, context=ctx))
    with pytest.raises(ConfigError, match="unknown input key 'topk'"):
        list(build_graph(name="other").stream({"query": "fuzzing", "topk": 3}, context=ctx))
    with pytest.raises(ConfigError, match="unknown input key 'topk'"):
        retrieval_graph.with_config(tags=["x"]).invoke({"query": "fuzzing", "topk": 3}, context=ctx)


def test_no_query_names_the_key_as_the_server_graph_does(ctx: RetrievalContext, served: tuple[Any, dict[str, Any]]) -> None:
    with pytest.raises(QueryError) as python_graph:
        retrieval_graph.invoke({"k": 3}, context=ctx)
    graph, context = served
    with pytest.raises(QueryError) as server_graph:
        graph.invoke({"k": 3}, context=context)
    assert str(python_graph.value) == str(server_graph.value)
    assert str(python_graph.value).startswith('the input needs "query", the text to search for')
    # a query that is there but no text keeps its own message
    with pytest.raises(QueryError, match="the query must be text, got int"):
        retrieval_graph.invoke({"query": 5}, context=ctx)


def test_a_thread_may_run_its_query_again_with_another_k(sample_index: Index) -> None:
    """On a checkpointed thread the state holds the last query: ``{"k": 3}`` alone is no
    missing query there, so it is not refused."""
    graph = build_graph()
    graph.checkpointer = InMemorySaver()
    config = {"configurable": {"thread_id": "t"}}
    ctx = RetrievalContext(index=sample_index)
    first = graph.invoke({"query": "database migration", "k": 2}, config, context=ctx)
    again = graph.invoke({"k": 3}, config, context=ctx)
    assert len(first["results"]) == 2 and len(again["results"]) == 3
    assert [r["id"] for r in again["results"]][:2] == [r["id"] for r in first["results"]]


def test_the_served_graph_refuses_a_misspelled_key_and_a_query_vector(served: tuple[Any, dict[str, Any]]) -> None:
    graph, context = served
    with pytest.raises(ConfigError) as caught:
        graph.invoke({"query": "fuzzing", "topk": 3}, context=context)
    assert str(caught.value) == f"unknown input key 'topk' (did you mean 'k'?); {TAKEN}"
    with pytest.raises(ConfigError) as vector:
        graph.invoke({"query": "fuzzing", "query_vector": [0.1] * 64}, context=context)
    assert str(vector.value).startswith("unknown input key 'query_vector': this graph searches through Retriever")
    assert len(graph.invoke({"query": "fuzzing", "k": 3}, context=context)["results"]) == 3


@pytest.mark.parametrize("context", ["notadict", 5, ["index_dir"]])
def test_the_served_graph_refuses_a_context_that_is_no_mapping(served: tuple[Any, dict[str, Any]], context: Any) -> None:
    graph, _ = served
    with pytest.raises(ConfigError) as caught:
        graph.invoke({"query": "fuzz"}, context=context)
    said = str(caught.value)
    assert said.startswith("the server graph runs with a JSON context such as {\"index_dir\"")
    assert said.endswith(f"it got {type(context).__name__}")


def test_the_served_graph_refuses_a_retrieval_context(served: tuple[Any, dict[str, Any]], ctx: RetrievalContext) -> None:
    graph, _ = served
    with pytest.raises(ConfigError, match="it got RetrievalContext"):
        graph.invoke({"query": "fuzz"}, context=ctx)


class _Parent(TypedDict, total=False):
    task: str  # the parent's own keys, which it passes to the subgraph with the rest
    notes: list[str]
    query: str
    k: int
    results: list[Any]
    warnings: list[str]


def test_a_parent_with_keys_of_its_own_still_runs_the_graph_as_its_node(ctx: RetrievalContext) -> None:
    """LangGraph hands a subgraph node the parent's whole state: the check is for direct
    calls only, so the parent's ``task`` and ``notes`` are not refused."""
    builder = StateGraph(_Parent, context_schema=RetrievalContext)
    builder.add_node("frame", lambda s: {"query": s["task"], "k": 2})
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "frame")
    builder.add_edge("frame", "skill_retriever")
    builder.add_edge("skill_retriever", END)
    out = builder.compile().invoke({"task": "database migration", "notes": ["x"]}, context=ctx)
    assert len(out["results"]) == 2 and out["notes"] == ["x"]


def test_a_node_that_invokes_the_graph_itself_is_checked(ctx: RetrievalContext) -> None:
    """A wrapper node's own ``invoke(..., context=...)`` is a direct call: its slip is refused."""

    def retrieve(state: _Parent) -> dict[str, Any]:
        return {"results": retrieval_graph.invoke({"query": state["task"], "topk": 2}, context=ctx)["results"]}

    builder = StateGraph(_Parent)
    builder.add_node(retrieve)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", END)
    with pytest.raises(ConfigError, match="unknown input key 'topk'"):
        builder.compile().invoke({"task": "database migration"})
