"""A parent graph's ``recursion_limit`` is its subgraph's too: a parent made with
``with_config(recursion_limit=10)`` failed the retrieval graph run as its node with
LangGraph's bare "Recursion limit of 10 reached", though the parent took 1 step. The longest
route (smart, with gap filling) takes `MOST_STEPS` nodes; the error now names the limit it
needs. Real graph, the sample index (hashing embedder)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.recursion_limit import MIN_RECURSION_LIMIT, MOST_STEPS
from skill_retriever.stores.index import Index

#: A query the sample catalogue covers only in part: the smart route fills its gaps.
GAPPY = {"query": "postgres schema migration with alembic and zebra quokka", "route": "smart"}


class Parent(TypedDict, total=False):
    query: str
    route: str
    results: list[dict[str, Any]]


@pytest.fixture
def context(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


def _parent() -> Any:
    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", END)
    return builder.compile()


def test_the_longest_route_takes_most_steps(context: RetrievalContext) -> None:
    nodes = [next(iter(u)) for u in retrieval_graph.stream(GAPPY, context=context, stream_mode="updates")]
    assert "fill_gaps" in nodes  # (what the test needs: the gap-filling round)
    assert len(nodes) == MOST_STEPS
    retrieval_graph.invoke(GAPPY, {"recursion_limit": MIN_RECURSION_LIMIT}, context=context)
    with pytest.raises(GraphRecursionError):
        retrieval_graph.invoke(GAPPY, {"recursion_limit": MIN_RECURSION_LIMIT - 1}, context=context)


def test_a_parents_low_limit_is_named_with_the_one_needed(context: RetrievalContext) -> None:
    parent = _parent().with_config(recursion_limit=10)
    with pytest.raises(GraphRecursionError, match=rf"recursion_limit of {MIN_RECURSION_LIMIT} or more") as err:
        parent.invoke(GAPPY, context=context)
    assert "Recursion limit of 10 reached" in str(err.value)  # LangGraph's own words stay first
    assert len(_parent().with_config(recursion_limit=MIN_RECURSION_LIMIT).invoke(GAPPY, context=context)["results"]) > 0


@pytest.mark.asyncio
async def test_a_low_limit_is_named_async_too(context: RetrievalContext) -> None:
    with pytest.raises(GraphRecursionError, match=rf"recursion_limit of {MIN_RECURSION_LIMIT} or more"):
        await retrieval_graph.ainvoke(GAPPY, {"recursion_limit": 5}, context=context)


def test_the_coding_agents_say_it_too(coding_agent: Any, context: RetrievalContext) -> None:
    task = {"task": GAPPY["query"]}
    for agent in (coding_agent.build_agent_with_wrapper_node(retrieval=context),
                  coding_agent.build_agent_with_subgraph_node()):
        with pytest.raises(GraphRecursionError, match=rf"recursion_limit of {MIN_RECURSION_LIMIT} or more"):
            agent.with_config(recursion_limit=6).invoke(task, context=context)
