"""What a LangChain / LangGraph user meets when the model or the caller gets an argument
wrong: the agent tool answers every bad argument with an error message the model can
read, and the bigtool builders refuse a bad ``limit`` when the agent is built."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from skill_retriever.adapters.bigtool import make_bigtool_aretrieve, make_bigtool_retrieve
from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def tool(sample_index: Index) -> BaseTool:
    return make_search_skills_tool(Retriever(sample_index, reranker=None))


def _call(args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_call", "id": "call-1", "name": "search_skills", "args": args}


#: A schema violation, and what the error message must name.
SCHEMA_VIOLATIONS = [
    ({"query": "x", "k": 0}, "k: Input should be greater than or equal to 1 (got 0)"),
    ({"query": "x", "k": 100}, "k: Input should be less than or equal to 50 (got 100)"),
    ({"query": "x", "kinds": ["skil"]}, "kinds.0: unknown kind 'skil'; use one of: skill, agent"),
    ({"query": "x", "kinds": 5}, "kinds: Input should be a valid list"),
    ({"query": "x", "token_budget": -1}, "token_budget: Input should be greater than or equal to 0"),
    ({"query": "x", "top_k": 1}, "top_k: Extra inputs are not permitted"),
    ({"k": 3}, "query: Field required"),
    ({"query": 5}, "query: Input should be a valid string (got 5)"),
]


@pytest.mark.parametrize(("args", "named"), SCHEMA_VIOLATIONS)
def test_a_schema_violation_comes_back_as_a_tool_error(tool: BaseTool, args: dict[str, Any], named: str) -> None:
    """An agent loop that calls the tool itself (``tool.invoke(tool_call)``) gets an error
    ToolMessage, as for an empty query, not a pydantic ValidationError that ends the loop;
    the message is one line naming the argument, without pydantic's URL."""
    answer = tool.invoke(_call(args))
    assert isinstance(answer, ToolMessage) and answer.status == "error"
    text = str(answer.content)
    assert text.startswith("Error: invalid arguments: ") and named in text
    assert text.endswith("Fix the arguments and call the tool again.")
    assert "\n" not in text and "errors.pydantic.dev" not in text


@pytest.mark.asyncio
async def test_a_schema_violation_comes_back_as_a_tool_error_in_async(tool: BaseTool) -> None:
    answer = await tool.ainvoke(_call({"query": "x", "kinds": ["skil"]}))
    assert isinstance(answer, ToolMessage) and answer.status == "error"
    assert "kinds.0: unknown kind 'skil'" in str(answer.content)


def test_a_tool_node_reads_the_same_message(tool: BaseTool) -> None:
    """LangGraph's ToolNode answers with the tool's own readable message."""
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([tool]))
    builder.add_edge(START, "tools")
    call = AIMessage("", tool_calls=[{"id": "call-1", "name": "search_skills", "args": {"query": "x", "k": 0}}])
    answer = builder.compile().invoke({"messages": [call]})["messages"][-1]
    assert isinstance(answer, ToolMessage) and answer.status == "error"
    assert "k: Input should be greater than or equal to 1 (got 0)" in str(answer.content)


def test_good_arguments_still_answer(tool: BaseTool) -> None:
    answer = tool.invoke(_call({"query": "add tracing to a FastAPI service", "k": 2}))
    assert isinstance(answer, ToolMessage) and answer.status == "success"
    listed = [line for line in str(answer.content).splitlines() if not line.startswith("Note: ")]
    assert listed[0].startswith("2 items") and len(answer.artifact) == 2


@pytest.mark.parametrize("make", [make_bigtool_retrieve, make_bigtool_aretrieve])
@pytest.mark.parametrize("limit", [0, -1, True, 2.0])
def test_bigtool_refuses_a_bad_limit_when_built(sample_index: Index, make: Any, limit: Any) -> None:
    """Not on the model's first ``retrieve_tools`` call, with an error about ``k``."""
    with pytest.raises(ConfigError, match=r"^limit must be a positive int \(most tool ids per call\), got "):
        make(sample_index, limit=limit)


# -- the retrieval graph as a node of a checkpointed parent ----------------------------------

SIMPLE, COMPLEX = "tracing", "which agent reviews the code that the deployment engineer writes for kubernetes"


def test_a_thread_does_not_force_the_last_querys_route_onto_the_next(sample_index: Index) -> None:
    """The graph answered the route it took as ``route``, which is also the input that
    forces a route: kept in a checkpointed parent's state, it put every later query of the
    thread on the first one's route. It answers ``route_taken`` now."""
    from langgraph.checkpoint.memory import InMemorySaver
    from typing_extensions import TypedDict

    from skill_retriever.config import RetrievalConfig
    from skill_retriever.context import RetrievalContext
    from skill_retriever.graph import graph as retrieval_graph

    class Parent(TypedDict, total=False):
        query: str
        route: str | None
        route_taken: str
        results: list[dict[str, Any]]

    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval_graph)
    builder.add_edge(START, "skill_retriever")
    parent = builder.compile(checkpointer=InMemorySaver())
    # without the calibration's route the router picks by the query: two different routes
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig(use_calibration=False, rerank=False))
    alone = [retrieval_graph.invoke({"query": q}, context=ctx)["route_taken"] for q in (SIMPLE, COMPLEX)]
    assert alone[0] != alone[1], alone
    thread = {"configurable": {"thread_id": "t1"}}
    taken = [parent.invoke({"query": q}, thread, context=ctx)["route_taken"] for q in (SIMPLE, COMPLEX)]
    assert taken == alone
    assert parent.get_state(thread).values.get("route") is None  # the input was never written back


def test_studio_gets_the_input_and_output_schemas() -> None:
    """On Python 3.11 pydantic refused typing's TypedDict, so `langgraph dev` logged "Failed
    to get input schema" and Studio showed the whole internal state as the input form."""
    from skill_retriever.graph import graph as retrieval_graph

    inputs = retrieval_graph.get_input_jsonschema()["properties"]
    assert {"query", "k", "token_budget", "route", "filters", "profile"} <= set(inputs)
    assert "pin" not in inputs and "seeds" not in inputs
    outputs = retrieval_graph.get_output_jsonschema()["properties"]
    assert {"results", "route_taken", "reranker", "stats", "warnings"} <= set(outputs) and "route" not in outputs
