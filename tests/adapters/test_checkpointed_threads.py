"""A thread that a checkpointer keeps (``langgraph dev``, an agent's memory, a loop in a
parent graph) runs query after query on one state: nothing of one query may reach the next.

Before: the router's choice and the query's embedding were written into the input keys
``route`` and ``query_vector`` (the next query took that route and searched with that
vector), gap filling saw the earlier run's rounds and did not run, and the reducers added
each run's warnings and stats to the thread's, so a good match carried an earlier query's
"nothing fits". A failed query also kept its pinned snapshot in a long-lived context.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.graph import build_graph
from skill_retriever.stores.index import Index

OFF_TOPIC = "a recipe for sourdough bread with a crisp crust"
ON_TOPIC = "canary rollout of a release"
COMPARED = ("results", "route_taken", "reranker", "fit", "warnings")


def _answer(out: dict[str, Any]) -> dict[str, Any]:
    """What a run answers, without its timings (nor the server's answer-cache marker)."""
    return {**{k: out.get(k) for k in COMPARED}, "phases": sorted(set(out["stats"]) - {"cache"})}


@pytest.fixture
def context(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


def _fresh(context: RetrievalContext, state: dict[str, Any]) -> dict[str, Any]:
    return _answer(build_graph().invoke(state, context=context))


def test_a_query_in_a_thread_answers_as_it_does_alone(context: RetrievalContext) -> None:
    graph = build_graph()
    graph.checkpointer = InMemorySaver()
    thread = {"configurable": {"thread_id": "t"}}
    runs = [
        {"query": OFF_TOPIC, "k": 3, "route": "quick"},
        {"query": ON_TOPIC, "k": 3, "route": None},  # the router's choice again
        {"query": ON_TOPIC, "k": 3},  # twice: gap filling runs the second time too
        {"query": OFF_TOPIC, "k": 3, "route": "ppr"},
        {"query": ON_TOPIC, "k": 3, "route": None},
    ]
    alone = [_fresh(context, run) for run in runs]
    assert alone[0]["fit"]["nothing_fits"] and not alone[1]["fit"]["nothing_fits"]  # (what the test needs)
    assert alone[1]["route_taken"] != "quick" and alone[1]["warnings"] == []
    for run, expected in zip(runs, alone, strict=True):
        assert _answer(graph.invoke(run, thread, context=context)) == expected
    state = graph.get_state(thread).values
    assert state.get("query_vector") is None  # nothing left for the next query to search with


def test_a_given_query_vector_is_used_once(context: RetrievalContext) -> None:
    graph = build_graph()
    graph.checkpointer = InMemorySaver()
    thread = {"configurable": {"thread_id": "v"}}
    vector = [float(x) for x in context.index.snapshot().embed_query(OFF_TOPIC)]
    # ON_TOPIC's text searched with OFF_TOPIC's vector: the caller's say
    graph.invoke({"query": ON_TOPIC, "k": 3, "query_vector": vector}, thread, context=context)
    again = graph.invoke({"query": ON_TOPIC, "k": 3}, thread, context=context)
    assert _answer(again) == _fresh(context, {"query": ON_TOPIC, "k": 3})


def test_a_server_thread_answers_each_run_alone(sample_index_path: Path, tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    ctx = {"index_dir": str(index_dir), "rerank": False}
    threaded = srv.build_server_graph(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "s"}}
    runs = [
        {"query": OFF_TOPIC, "k": 2, "route": "smart"},
        {"query": ON_TOPIC, "k": 2, "route": "quick"},
        {"query": OFF_TOPIC, "k": 2, "route": "ppr"},
    ]
    for run in runs:
        got = threaded.invoke(run, thread, context=ctx)
        alone = srv.build_server_graph().invoke(run, context=ctx)
        assert _answer(got) == _answer(alone)
        assert any(w.startswith("nothing in the catalogue fits") for w in got["warnings"]) == (
            run["query"] == OFF_TOPIC
        )


def test_the_coding_agent_with_shared_keys_shows_this_tasks_warnings(
    coding_agent: ModuleType, context: RetrievalContext
) -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage(content="plan")] * 4))
    agent = coding_agent.build_agent_with_subgraph_node(model=model, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "a"}}
    agent.invoke({"task": OFF_TOPIC}, thread, context=context)
    agent.invoke({"task": ON_TOPIC}, thread, context=context)
    warnings = agent.get_state(thread).values["warnings"]
    assert not any(w.startswith("nothing in the catalogue fits") for w in warnings)


def test_a_failed_query_lets_its_snapshot_go(context: RetrievalContext, sample_index: Index) -> None:
    graph = build_graph()
    for bad in ("", "   ", "x" * 10):
        state: dict[str, Any] = {"query": bad, "k": 3}
        if bad == "x" * 10:
            state["profile"] = {"rerank_top_n": -1}  # refused when the view is pinned
        with pytest.raises(SkillRetrieverError):
            graph.invoke(state, context=context)
    graph.invoke({"query": ON_TOPIC, "k": 3}, context=context)
    assert not context._views  # what a long-lived context holds is the point


def test_the_first_phase_starts_every_key_afresh() -> None:
    """A key a phase writes that `fresh_run` forgets would carry over from the last run."""
    from typing import get_type_hints

    from skill_retriever.state import InputState, RetrievalState, fresh_run

    written_by_plan_query = {"plan", "pin", "route_taken", "stats", "warnings"}
    inputs = set(get_type_hints(InputState)) - {"query_vector"}  # the one input it clears
    assert set(fresh_run()) == set(get_type_hints(RetrievalState)) - inputs - written_by_plan_query


def test_a_query_vector_it_cannot_use_is_said_not_dropped_in_silence(context: RetrievalContext) -> None:
    """A wrong-size, NaN or non-list vector was ignored with no word (found by a walkthrough)."""
    graph = build_graph()
    dim = context.index.snapshot().dim
    for bad in ([0.1] * (dim + 1), [float("nan")] * dim, "not a vector"):
        out = graph.invoke({"query": ON_TOPIC, "k": 3, "query_vector": bad}, context=context)
        assert any(f"query_vector was not used: it must be a list of {dim} finite numbers" in w for w in out["warnings"])
        assert _answer(out)["results"] == _fresh(context, {"query": ON_TOPIC, "k": 3})["results"]
    good = [float(x) for x in context.index.snapshot().embed_query(ON_TOPIC)]
    out = graph.invoke({"query": ON_TOPIC, "k": 3, "query_vector": good}, context=context)
    assert not any("query_vector" in w for w in out["warnings"])
