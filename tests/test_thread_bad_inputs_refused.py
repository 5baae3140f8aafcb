"""A refused input does not stay in a checkpointed thread and fail every later run.

Walkthrough of the graphs in checkpointed threads: ``{"query": ..., "k": 0}`` was refused
("k must be > 0, got 0") by the first phase, after LangGraph had written the input into
the thread, and a failed run keeps its inputs (so ``invoke(None, config)`` resumes it):
every later call of that thread that left ``k`` out failed with the same error, naming a
``k`` it never gave. So with a bad ``route``, ``token_budget``, ``filters`` or ``profile``,
in the retrieval graph with a checkpointer, the served graph (whose threads Studio and
``langgraph dev`` keep) and both agents of ``graphs/coding_agent.py`` (also ``kinds`` and
``budget_fill``). A direct call's values are now checked before the run, as its keys are,
so nothing of a refused input reaches the thread; in the served graph a profile's cost
setting over the limits on the index the call names too.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.graph import build_graph
from skill_retriever.stores.index import Index

QUERY = "design a postgres schema"

BAD_SEARCH = [
    ({"k": 0}, "k must be > 0"),
    ({"k": "3"}, "'k' has the wrong type"),
    ({"token_budget": -1}, "'token_budget' must be >= 0"),
    ({"route": "fast"}, "route must be one of"),
    ({"filters": {"kinds": ["nope"]}}, "unknown kind"),
    ({"filters": "skill"}, "filters must be"),
    ({"profile": "nope"}, "unknown profile"),
]
BAD_TASK = [
    ({"k": 0}, "k must be > 0"),
    ({"token_budget": "1000"}, "'token_budget' has the wrong type"),
    ({"kinds": []}, "kinds is empty"),
    ({"kinds": ["nope"]}, "unknown kind"),
    ({"budget_fill": "yes"}, "budget_fill must be true or false"),
]


@pytest.fixture(scope="module")
def context(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


def thread(name: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


@pytest.mark.parametrize(("bad", "said"), BAD_SEARCH)
def test_the_retrieval_graph_refuses_a_bad_value_before_the_thread_keeps_it(
    context: RetrievalContext, bad: dict[str, Any], said: str
) -> None:
    graph = build_graph().copy(update={"checkpointer": InMemorySaver()})
    name = f"r{bad}"
    with pytest.raises(ConfigError, match=said):
        graph.invoke({"query": QUERY, **bad}, thread(name), context=context)
    assert graph.get_state(thread(name)).values == {}  # nothing of it reached the thread
    assert graph.invoke({"query": QUERY}, thread(name), context=context)["results"]


def test_a_bad_query_is_refused_before_the_thread_keeps_it(context: RetrievalContext) -> None:
    graph = build_graph().copy(update={"checkpointer": InMemorySaver()})
    graph.invoke({"query": QUERY, "k": 2}, thread("q"), context=context)
    for bad in ("", 3):
        with pytest.raises(QueryError):
            graph.invoke({"query": bad}, thread("q"), context=context)
    assert len(graph.invoke({"k": 3}, thread("q"), context=context)["results"]) == 3  # the thread's query


#: Over the served index's limits (`server_inputs.run_profile`), which only the server
#: knows: they were checked in the run, so the thread kept the profile.
OVER_LIMITS = [
    ({"profile": {"channel_depth": 10**6}}, r"channel_depth=1000000 is over this server's limit: at most \d"),
    ({"profile": {"rrf_k": 30, "ppr_tol": 1e-30}}, r"ppr_tol=1e-30 is over this server's limit: at least "),
]


@pytest.mark.parametrize(("bad", "said"), BAD_SEARCH + OVER_LIMITS)
def test_the_served_graph_refuses_a_bad_value_before_the_thread_keeps_it(
    sample_index_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: dict[str, Any], said: str
) -> None:
    monkeypatch.setenv(srv.INDEX_DIRS_ENV, str(tmp_path))
    monkeypatch.delenv(srv.PRINCIPALS_ENV, raising=False)
    shutil.copytree(sample_index_path, tmp_path / "served")
    ctx = {"index_dir": str(tmp_path / "served"), "rerank": False}
    served = srv.build_server_graph(checkpointer=InMemorySaver())
    with pytest.raises(ConfigError, match=said):
        served.invoke({"query": QUERY, **bad}, thread("s"), context=ctx)
    assert served.get_state(thread("s")).values == {}
    assert served.invoke({"query": QUERY}, thread("s"), context=ctx)["results"]


def test_the_served_graph_takes_a_cost_setting_within_its_limits(
    sample_index_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(srv.INDEX_DIRS_ENV, str(tmp_path))
    shutil.copytree(sample_index_path, tmp_path / "served")
    ctx = {"index_dir": str(tmp_path / "served"), "rerank": False}
    served = srv.build_server_graph(checkpointer=InMemorySaver())
    answer = served.invoke({"query": QUERY, "k": 2, "profile": {"channel_depth": 1}}, thread("w"), context=ctx)
    assert len(answer["results"]) == 2
    assert served.get_state(thread("w")).values["profile"] is None  # set back, as after any run


@pytest.mark.parametrize("build", ["build_agent_with_wrapper_node", "build_agent_with_subgraph_node"])
@pytest.mark.parametrize(("bad", "said"), BAD_TASK)
def test_a_coding_agent_refuses_a_bad_value_before_the_thread_keeps_it(
    coding_agent: ModuleType, context: RetrievalContext, build: str, bad: dict[str, Any], said: str
) -> None:
    kwargs = {"retrieval": context} if build == "build_agent_with_wrapper_node" else {}
    agent = getattr(coding_agent, build)(checkpointer=InMemorySaver(), **kwargs)
    with pytest.raises(ConfigError, match=said):
        agent.invoke({"task": QUERY, **bad}, thread("a"), context=context)
    assert agent.get_state(thread("a")).values == {}
    assert agent.invoke({"task": QUERY}, thread("a"), context=context)["skills"]


@pytest.mark.parametrize("build", ["build_agent_with_wrapper_node", "build_agent_with_subgraph_node"])
def test_a_coding_agent_refuses_an_empty_task_before_the_run(
    coding_agent: ModuleType, context: RetrievalContext, build: str
) -> None:
    kwargs = {"retrieval": context} if build == "build_agent_with_wrapper_node" else {}
    agent = getattr(coding_agent, build)(checkpointer=InMemorySaver(), **kwargs)
    with pytest.raises(QueryError, match="the task is blank"):
        agent.invoke({"task": "  "}, thread("e"), context=context)
    assert agent.get_state(thread("e")).values == {}
