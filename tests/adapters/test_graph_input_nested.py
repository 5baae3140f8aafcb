"""Bad input to the retrieval graph when the check before the run cannot see it: the graph
run as a parent's node, called from a parent's node with that node's config, and reached
through ``Send``. Real LangGraph parents on the sample index (hashing embedder); the first
node says what is wrong, in the words a direct call gets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send
from typing_extensions import TypedDict

from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.graph_input import NO_QUERY
from skill_retriever.stores.index import Index

INPUT_KEYS = ("query", "k", "token_budget", "route", "filters", "profile")


class Parent(TypedDict, total=False):
    """A parent's state: the graph's input keys, loosely typed as a parent may have them,
    and one of its own."""

    query: Any
    k: Any
    route: Any
    filters: Any
    profile: Any
    results: list[dict[str, Any]]
    task_id: str


def as_subgraph_node() -> CompiledStateGraph[Any, Any, Any, Any]:
    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", END)
    return builder.compile()


def from_a_function_node() -> CompiledStateGraph[Any, Any, Any, Any]:
    def search(state: Parent, config: RunnableConfig) -> dict[str, Any]:
        asked = {k: v for k, v in state.items() if k in INPUT_KEYS}
        return {"results": retrieval_graph.invoke(asked, config)["results"]}

    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("search", search)
    builder.add_edge(START, "search")
    builder.add_edge("search", END)
    return builder.compile()


def through_send() -> CompiledStateGraph[Any, Any, Any, Any]:
    def fan_out(state: Parent) -> list[Send]:
        return [Send("skill_retriever", {k: v for k, v in state.items() if k in INPUT_KEYS})]

    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_conditional_edges(START, fan_out, ["skill_retriever"])
    builder.add_edge("skill_retriever", END)
    return builder.compile()


PARENTS: dict[str, Callable[[], CompiledStateGraph[Any, Any, Any, Any]]] = {
    "subgraph node": as_subgraph_node,
    "function node with its config": from_a_function_node,
    "Send": through_send,
}


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index)


@pytest.mark.parametrize("how", PARENTS)
def test_a_parent_without_a_query_is_told_to_give_one(ctx: RetrievalContext, how: str) -> None:
    parent = PARENTS[how]()
    for state in ({"k": 3, "task_id": "t1"}, {"query": None, "task_id": "t1"}):
        with pytest.raises(QueryError) as caught:
            parent.invoke(state, context=ctx)
        said = str(caught.value)
        # the direct call's words (not "the query must be text, got NoneType"), and where the key goes
        assert said.startswith(NO_QUERY) and 'give that a "query" key' in said


@pytest.mark.parametrize("how", PARENTS)
@pytest.mark.parametrize(
    ("state", "error", "said"),
    [
        ({"query": "fuzzing", "k": -1}, ConfigError, "k must be > 0, got -1"),
        ({"query": "fuzzing", "k": "3"}, ConfigError, "setting 'k' has the wrong type: '3' is str, expected int"),
        ({"query": "fuzzing", "route": "fast"}, ConfigError, "route must be one of smart, ppr, quick"),
        ({"query": "fuzzing", "filters": ["skill"]}, ConfigError, "filters must be a mapping, got list"),
        ({"query": 5}, QueryError, "the query must be text, got int"),
        # a parent's own "profile" (a user's) is read as the input's: the error says whose it is
        ({"query": "fuzzing", "profile": {"name": "Ann"}}, ConfigError,
         "the input's profile: unknown setting(s) ['name']"),
        ({"query": "fuzzing", "profile": {"k": "3"}}, ConfigError,
         "the input's profile: setting 'k' has the wrong type"),
        ({"query": "fuzzing", "profile": ["ann"]}, ConfigError, "profile must be a profile name (design, multihop) or map"),
    ],
)
def test_a_bad_value_from_a_parent_is_refused_as_a_direct_call_refuses_it(
    ctx: RetrievalContext, how: str, state: dict[str, Any], error: type[Exception], said: str
) -> None:
    with pytest.raises(error) as direct:
        retrieval_graph.invoke(state, context=ctx)
    with pytest.raises(error) as nested:
        PARENTS[how]().invoke({**state, "task_id": "t1"}, context=ctx)
    assert str(nested.value) == str(direct.value) and said in str(nested.value)
    if "name" in state.get("profile", ()) or isinstance(state.get("profile"), list):  # no settings: whose key it is
        assert "a parent graph's own state key 'profile' is read as it" in str(nested.value)


@pytest.mark.parametrize("how", PARENTS)
def test_good_input_from_a_parent_searches_as_asked(ctx: RetrievalContext, how: str) -> None:
    out = PARENTS[how]().invoke({"query": "fuzzing", "k": 2, "task_id": "t1"}, context=ctx)
    direct = retrieval_graph.invoke({"query": "fuzzing", "k": 2}, context=ctx)
    assert [r["id"] for r in out["results"]] == [r["id"] for r in direct["results"]]
    assert len(out["results"]) == 2
