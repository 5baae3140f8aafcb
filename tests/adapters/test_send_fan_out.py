"""The retrieval graph reached through ``Send``, several queries at once from one parent
node, as an agent that splits a task into parts does: each branch answers as a search of
its own query alone, and a query the search refuses fails the parent's step (LangGraph ends
a step when any of its tasks raises), in that query's words. Real LangGraph, the sample
index (hashing embedder)."""

from __future__ import annotations

import asyncio
import json
import operator
from typing import Annotated, Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send
from typing_extensions import TypedDict

from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import QueryError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index

QUERIES = ("add tracing to a FastAPI service", "postgres migration check", "redact PII from logs",
           "review a pull request for security", "set up pre-commit hooks")


class Fan(TypedDict, total=False):
    queries: list[str]
    results: Annotated[list[dict[str, Any]], operator.add]  # every branch's, in any order
    warnings: Annotated[list[str], operator.add]


def fan_out_parent(checkpointer: InMemorySaver | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    builder = StateGraph(Fan, context_schema=RetrievalContext)
    builder.add_node("split", lambda state: {})
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "split")
    builder.add_conditional_edges(
        "split", lambda state: [Send("skill_retriever", {"query": q, "k": 3}) for q in state["queries"]],
        ["skill_retriever"],
    )
    builder.add_edge("skill_retriever", END)
    return builder.compile(checkpointer=checkpointer)


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index)


def _as_text(results: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in results)


def test_each_branch_answers_as_its_query_alone(ctx: RetrievalContext) -> None:
    alone = [r for q in QUERIES for r in retrieval_graph.invoke({"query": q, "k": 3}, context=ctx)["results"]]
    assert len(alone) == 3 * len(QUERIES)
    got = fan_out_parent().invoke({"queries": list(QUERIES)}, context=ctx)
    assert _as_text(got["results"]) == _as_text(alone)  # every field, scores too
    got = asyncio.run(fan_out_parent().ainvoke({"queries": list(QUERIES)}, context=ctx))
    assert _as_text(got["results"]) == _as_text(alone)
    assert not ctx._views  # every branch let its pinned view go


def test_a_refused_query_fails_the_step_in_its_own_words(ctx: RetrievalContext) -> None:
    saver = InMemorySaver()
    parent = fan_out_parent(saver)
    thread = {"configurable": {"thread_id": "fan"}}
    with pytest.raises(QueryError, match="the query is empty"):
        parent.invoke({"queries": [*QUERIES[:2], " ", *QUERIES[2:]]}, thread, context=ctx)
    tasks = parent.get_state(thread).tasks
    # the others' answers are kept as the step's writes; the refused one failed
    assert [bool(t.error) for t in tasks].count(True) == 1 and sum(t.result is not None for t in tasks) == len(QUERIES)
    with pytest.raises(QueryError):  # resuming sends the same payload again
        parent.invoke(None, thread, context=ctx)
    assert not ctx._views


def test_a_near_miss_configurable_key_is_named_once_per_branch(ctx: RetrievalContext) -> None:
    """Each branch is a search of its own, and its answer's warnings are complete alone: a key
    one slip from a setting (``kk``) is named once in each (never once per phase), so a
    parent that adds the branches' warnings up holds one per branch; dedupe there if wanted
    (README)."""
    got = fan_out_parent().invoke({"queries": list(QUERIES[:3])}, {"configurable": {"kk": 1}}, context=ctx)
    named = [w for w in got["warnings"] if "'kk'" in w]
    assert len(named) == 3 and len(set(named)) == 1
    assert named[0].count("kk") == 1 and "did you mean 'k'?" in named[0]
    alone = retrieval_graph.invoke({"query": QUERIES[0]}, {"configurable": {"kk": 1}}, context=ctx)
    assert [w for w in alone["warnings"] if "'kk'" in w] == named[:1]
