"""One run's inputs do not steer the next run of a checkpointed thread.

Found in a walkthrough of the retrieval graph inside checkpointed LangGraph agents:

* a ``query_vector`` given with one call stayed in a parent graph's state (the retrieval
  graph cleared it only in its own), and the next call, with another query and no vector,
  was searched with it, in silence;
* ``graphs/coding_agent.py`` (both agents) and the served retrieval graph kept ``kinds``,
  ``k``, ``token_budget`` (the served one also ``route``, ``filters``, ``profile``) from
  one run for the next: ``{"kinds": "hook", "k": 1}`` once, and every later task got one
  hook; a budget of 50 once, and later answers were empty.

A run that succeeded now sets its inputs back (the output's ``query_vector`` is None; the
last node of those graphs writes the defaults), while a failed run keeps them, so that
``invoke(None, config)`` resumes it as it was asked.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import IndexNotFoundError
from skill_retriever.graph import build_graph
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index

HOOK_TASK = {"task": "block secrets before commit", "kinds": "hook", "k": 1, "token_budget": 300}
SCHEMA_TASK = {"task": "design a postgres schema"}
MCP = "build an MCP server for an external API"
GIF = "make an animated gif for slack"


@pytest.fixture
def context(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


@pytest.fixture
def served_dir(sample_index_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the index that the served graphs may open (the deployment offers
    ``tmp_path``), searched as public callers."""
    monkeypatch.setenv(srv.INDEX_DIRS_ENV, str(tmp_path))
    monkeypatch.delenv(srv.PRINCIPALS_ENV, raising=False)
    shutil.copytree(sample_index_path, tmp_path / "served")
    return tmp_path / "served"


def thread(name: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


def ids(out: dict[str, Any], key: str = "results") -> list[str]:
    return [r["id"] for r in out[key]]


# -- 1. query_vector ------------------------------------------------------------------


class Parent(TypedDict, total=False):
    query: str
    k: int
    query_vector: list[float] | None
    results: list[dict[str, Any]]
    warnings: list[str]


def test_a_query_vector_steers_only_the_call_it_came_with(context: RetrievalContext) -> None:
    builder = StateGraph(Parent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", build_graph())
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", END)
    parent = builder.compile(checkpointer=InMemorySaver())
    gif_vector = [float(x) for x in context.index.snapshot().embed_query(GIF)]
    alone = retrieval_graph.invoke({"query": MCP, "k": 3}, context=context)
    steered = retrieval_graph.invoke({"query": MCP, "k": 3, "query_vector": gif_vector}, context=context)
    assert ids(steered) != ids(alone)  # what a stale vector does (the test needs it)

    first = parent.invoke({"query": GIF, "k": 3, "query_vector": gif_vector}, thread("v"), context=context)
    assert ids(first) == ids(retrieval_graph.invoke({"query": GIF, "k": 3}, context=context))  # used for its call
    assert parent.get_state(thread("v")).values["query_vector"] is None  # and cleared in the parent too
    second = parent.invoke({"query": MCP, "k": 3}, thread("v"), context=context)
    assert ids(second) == ids(alone)


def test_the_served_graph_offers_no_query_vector_it_would_drop() -> None:
    """The served graph searches through ``Retriever``, which takes no vector: its input
    schema (what Studio shows) listed one that was never read."""
    served = srv.build_server_graph()
    assert "query_vector" not in served.get_input_jsonschema()["properties"]
    assert "query_vector" not in served.get_output_jsonschema()["properties"]
    assert "query_vector" in retrieval_graph.get_input_jsonschema()["properties"]  # the graph's own takes one


# -- 2. per-call inputs -----------------------------------------------------------------


def _names_kinds(out: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["name"], s["kind"]) for s in out["skills"]]


@pytest.mark.parametrize("build", ["build_agent_with_wrapper_node", "build_agent_with_subgraph_node"])
def test_a_coding_agent_task_gets_the_defaults_not_the_last_tasks_inputs(
    coding_agent: ModuleType, context: RetrievalContext, build: str
) -> None:
    builder: Callable[..., Any] = getattr(coding_agent, build)
    kwargs = {"retrieval": context} if build == "build_agent_with_wrapper_node" else {}
    agent = builder(checkpointer=InMemorySaver(), **kwargs)
    fresh = _names_kinds(agent.invoke(SCHEMA_TASK, thread("fresh"), context=context))
    assert len(fresh) == coding_agent.DEFAULT_K and {k for _, k in fresh} != {"hook"}  # (what the test needs)

    first = agent.invoke(HOOK_TASK, thread("t"), context=context)
    assert [k for _, k in _names_kinds(first)] == ["hook"]
    assert _names_kinds(agent.invoke(SCHEMA_TASK, thread("t"), context=context)) == fresh
    values = agent.get_state(thread("t")).values
    assert (values["k"], values["token_budget"], values["kinds"]) == (None, coding_agent.DEFAULT_BUDGET, None)  # null k: DEFAULT_K


@pytest.mark.parametrize("build", ["build_agent_with_wrapper_node", "build_agent_with_subgraph_node"])
def test_a_task_after_one_paused_before_act_gets_the_defaults(
    coding_agent: ModuleType, context: RetrievalContext, build: str
) -> None:
    """A thread paused before ``act`` (a person reviews the skills found before the model
    acts) and given a new task: the defaults were written back only by ``act``, so the new
    task searched as the paused one asked, one hook for a schema design."""
    builder: Callable[..., Any] = getattr(coding_agent, build)
    kwargs = {"retrieval": context} if build == "build_agent_with_wrapper_node" else {}
    agent = builder(checkpointer=InMemorySaver(), **kwargs)
    fresh = _names_kinds(agent.invoke(SCHEMA_TASK, thread("fresh"), context=context))

    agent.invoke(HOOK_TASK, thread("p"), context=context, interrupt_before=["act"])
    paused = agent.get_state(thread("p"))
    assert paused.next == ("act",) and [k for _, k in _names_kinds(paused.values)] == ["hook"]
    agent.invoke(SCHEMA_TASK, thread("p"), context=context, interrupt_before=["act"])
    assert _names_kinds(agent.get_state(thread("p")).values) == fresh
    resumed = agent.invoke(None, thread("p"), context=context)  # the review done: act runs on what was found
    assert _names_kinds(resumed) == fresh and SCHEMA_TASK["task"] in resumed["prompt"]


def test_a_failed_coding_agent_run_resumes_with_its_own_inputs(coding_agent: ModuleType, served_dir: Path) -> None:
    agent = coding_agent.build_agent_with_wrapper_node(checkpointer=InMemorySaver())  # as served
    good = {"index_dir": str(served_dir), "rerank": False}
    with pytest.raises(IndexNotFoundError):
        agent.invoke(HOOK_TASK, thread("r"), context={**good, "index_dir": str(served_dir.parent / "missing")})
    resumed = agent.invoke(None, thread("r"), context=good)
    assert [k for _, k in _names_kinds(resumed)] == ["hook"]  # the failed run's kinds and k
    later = agent.invoke(SCHEMA_TASK, thread("r"), context=good)
    assert len(later["skills"]) == coding_agent.DEFAULT_K


def test_a_served_retrieval_run_gets_the_defaults_not_the_last_runs_inputs(served_dir: Path) -> None:
    ctx = {"index_dir": str(served_dir), "rerank": False}
    served = srv.build_server_graph(checkpointer=InMemorySaver())
    asked = {"query": MCP, "k": 1, "token_budget": 50, "route": "quick", "filters": {"kinds": ["hook"]}, "profile": "multihop"}
    alone = srv.build_server_graph().invoke({"query": GIF}, context=ctx)
    assert len(alone["results"]) > 1  # (what the test needs)

    served.invoke(asked, thread("s"), context=ctx)
    again = served.invoke({"query": GIF}, thread("s"), context=ctx)
    assert ids(again) == ids(alone) and again["route_taken"] == alone["route_taken"]
    assert again["stats"]["apply_token_budget"]["budget"] == alone["stats"]["apply_token_budget"]["budget"]


def test_a_failed_served_run_resumes_with_its_own_inputs(served_dir: Path) -> None:
    served = srv.build_server_graph(checkpointer=InMemorySaver())
    ctx = {"index_dir": str(served_dir), "rerank": False}
    asked = {"query": MCP, "k": 1, "route": "quick"}
    with pytest.raises(IndexNotFoundError):
        served.invoke(asked, thread("f"), context={**ctx, "index_dir": str(served_dir.parent / "missing")})
    resumed = served.invoke(None, thread("f"), context=ctx)
    alone = srv.build_server_graph().invoke(asked, context=ctx)
    assert ids(resumed) == ids(alone) and len(resumed["results"]) == 1 and resumed["route_taken"] == "quick"


# -- 3. a new input after a run paused (or failed) before its retrieval read the inputs ------


@pytest.mark.parametrize(
    ("build", "node"),
    [("build_agent_with_wrapper_node", "retrieve_skills"), ("build_agent_with_subgraph_node", "skill_retriever")],
)
def test_a_task_after_one_paused_before_retrieval_gets_the_defaults(
    coding_agent: ModuleType, context: RetrievalContext, build: str, node: str
) -> None:
    """Paused before the node that reads the inputs, no node had written the defaults back:
    a new task on the thread searched as the paused one asked (one hook for a schema)."""
    builder: Callable[..., Any] = getattr(coding_agent, build)
    kwargs = {"retrieval": context} if build == "build_agent_with_wrapper_node" else {}
    agent = builder(checkpointer=InMemorySaver(), **kwargs)
    fresh = _names_kinds(agent.invoke(SCHEMA_TASK, thread("fresh"), context=context))

    agent.invoke(HOOK_TASK, thread("b"), context=context, interrupt_before=[node])
    assert agent.get_state(thread("b")).next == (node,)
    assert _names_kinds(agent.invoke(SCHEMA_TASK, thread("b"), context=context)) == fresh


@pytest.mark.asyncio
async def test_a_task_after_one_paused_before_retrieval_gets_the_defaults_async(
    coding_agent: ModuleType, context: RetrievalContext
) -> None:
    agent = coding_agent.build_agent_with_wrapper_node(checkpointer=InMemorySaver(), retrieval=context)
    fresh = _names_kinds(await agent.ainvoke(SCHEMA_TASK, thread("fresh"), context=context))
    await agent.ainvoke(HOOK_TASK, thread("a"), context=context, interrupt_before=["retrieve_skills"])
    assert _names_kinds(await agent.ainvoke(SCHEMA_TASK, thread("a"), context=context)) == fresh


def test_a_task_after_a_failed_one_gets_the_defaults(coding_agent: ModuleType, served_dir: Path) -> None:
    """A failed run keeps its inputs for ``invoke(None)``; a new task is not that resume."""
    agent = coding_agent.build_agent_with_wrapper_node(checkpointer=InMemorySaver())  # as served
    good = {"index_dir": str(served_dir), "rerank": False}
    with pytest.raises(IndexNotFoundError):
        agent.invoke(HOOK_TASK, thread("x"), context={**good, "index_dir": str(served_dir.parent / "missing")})
    later = agent.invoke(SCHEMA_TASK, thread("x"), context=good)
    assert len(later["skills"]) == coding_agent.DEFAULT_K and {s["kind"] for s in later["skills"]} != {"hook"}


def test_a_served_run_after_one_paused_before_retrieve_gets_the_defaults(served_dir: Path) -> None:
    ctx = {"index_dir": str(served_dir), "rerank": False}
    served = srv.build_server_graph(checkpointer=InMemorySaver())
    asked = {"query": MCP, "k": 1, "token_budget": 50, "route": "quick", "filters": {"kinds": ["hook"]}}
    alone = srv.build_server_graph().invoke({"query": GIF}, context=ctx)

    served.invoke(asked, thread("sp"), context=ctx, interrupt_before=["retrieve"])
    assert served.get_state(thread("sp")).next == ("retrieve",)
    again = served.invoke({"query": GIF}, thread("sp"), context=ctx)
    assert ids(again) == ids(alone) and again["route_taken"] == alone["route_taken"]
    # a resume is not a new input: it runs as it was asked
    served.invoke(asked, thread("sr"), context=ctx, interrupt_before=["retrieve"])
    resumed = served.invoke(None, thread("sr"), context=ctx)
    assert len(resumed["results"]) <= 1 and resumed["route_taken"] == "quick"
