"""The example coding agent (graphs/coding_agent.py), both ways it builds, as a walkthrough
met it: unknown input keys (``topk``, ``max_tokens``) were dropped unread where the
retrieval graph refuses them; the shared-state agent without a task failed with a bare
KeyError; the served agent ran on the default index with ``context=["x"]``; neither agent
took ``budget_fill``, which the budget's warning advises; the "nothing fits" prompt urged
raising the budget to include the off-topic closest items; and ``get_context_jsonschema``
crashed on the retrieval graph and the shared-state agent."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.stores.index import Index

ON_TOPIC = "postgres migration before a deploy"
OFF_TOPIC = "a recipe for sourdough bread with a crisp crust"  # flagged on the sample catalogue
FITS = "canary rollout of a release"  # not flagged (as test_s44_agent_prompt.py relies on too)
NO_TASK = r'^the input needs "task", the coding task in plain words'


@pytest.fixture
def ctx(sample_index: Index) -> RetrievalContext:
    return RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))


@pytest.fixture(params=["wrapper", "subgraph"])
def built(request: pytest.FixtureRequest, coding_agent: ModuleType, ctx: RetrievalContext) -> Any:
    if request.param == "wrapper":
        return coding_agent.build_agent_with_wrapper_node(retrieval=ctx, checkpointer=InMemorySaver())
    return coding_agent.build_agent_with_subgraph_node(checkpointer=InMemorySaver())


@pytest.mark.parametrize(
    ("key", "said"),
    [("topk", "(did you mean 'k'?)"), ("budget", "(did you mean 'token_budget'?)"),
     ("max_tokens", "(did you mean 'token_budget'?)")],
)
def test_an_unknown_input_key_is_refused(built: Any, ctx: RetrievalContext, key: str, said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        built.invoke({"task": ON_TOPIC, key: 3}, context=ctx)
    assert str(caught.value) == (f"unknown input key {key!r} {said}; this graph's input takes "
                                 "task, k, token_budget, kinds, budget_fill")


def test_a_run_without_a_task_is_told_what_to_give(built: Any, ctx: RetrievalContext) -> None:
    for payload in ({"k": 3}, {"task": None}):
        with pytest.raises(QueryError, match=NO_TASK):
            built.invoke(payload, context=ctx)
    # on a thread the input check lets it through (its state may hold a task); a thread
    # without one is told the same, not a bare KeyError from the shared-state agent
    with pytest.raises(QueryError, match=NO_TASK):
        built.invoke({"k": 3}, {"configurable": {"thread_id": "no-task"}}, context=ctx)


def test_the_served_agent_refuses_input_and_context_it_cannot_use(coding_agent: ModuleType) -> None:
    with pytest.raises(ConfigError, match=r"^unknown input key 'topk'"):
        coding_agent.graph.invoke({"task": ON_TOPIC, "topk": 3})
    # refused as the served retrieval graph refuses it, before any index is opened
    with pytest.raises(ConfigError, match=r"runs with a JSON context such as .* or none; it got list"):
        coding_agent.graph.invoke({"task": ON_TOPIC}, context=["x"])
    assert "budget_fill" in coding_agent.graph.get_input_jsonschema()["properties"]


def test_budget_fill_passes_through_and_is_per_run(built: Any, ctx: RetrievalContext) -> None:
    thread = {"configurable": {"thread_id": "fill"}}
    sizes = [s["token_count"] for s in built.invoke({"task": ON_TOPIC, "k": 6, "token_budget": None},
                                                    thread, context=ctx)["skills"]]
    smallest_later = min(sizes[2:])
    assert len(sizes) == 6 and sizes[1] > smallest_later  # (what the test needs: filling skips the second)
    asked = {"task": ON_TOPIC, "k": 6, "token_budget": sizes[0] + smallest_later}
    cut = built.invoke(asked, thread, context=ctx)
    assert [s["token_count"] for s in cut["skills"]] == sizes[:1]
    assert any("pass budget_fill=True" in w for w in cut["warnings"])  # the advice this input follows
    filled = built.invoke({**asked, "budget_fill": True}, thread, context=ctx)
    assert [s["token_count"] for s in filled["skills"]] == [sizes[0], smallest_later]
    # the next run of the thread that leaves it out does not fill
    again = built.invoke(asked, thread, context=ctx)
    assert [s["token_count"] for s in again["skills"]] == sizes[:1]
    with pytest.raises(ConfigError, match=r"^budget_fill must be true or false \(or left out\), got 'yes'"):
        built.invoke({**asked, "budget_fill": "yes"}, thread, context=ctx)


def test_when_nothing_fits_the_budget_is_not_urged(built: Any, ctx: RetrievalContext) -> None:
    thread = {"configurable": {"thread_id": "nothing-fits"}}
    sizes = [s["token_count"] for s in built.invoke({"task": OFF_TOPIC, "k": 3, "token_budget": None},
                                                    thread, context=ctx)["skills"]]
    out = built.invoke({"task": OFF_TOPIC, "k": 3, "token_budget": sizes[0]}, thread, context=ctx)
    assert out["fit"]["nothing_fits"] is True and len(out["skills"]) == 1
    prompt = out["prompt"]
    assert "Nothing in the catalogue fits this task well." in prompt
    assert f"(2 more of the closest items did not fit the token budget of {sizes[0]} tokens.)" in prompt
    assert "raise" not in prompt and "matched this task" not in prompt
    # a task that fits still gets the advice
    sized = [s["token_count"] for s in built.invoke({"task": FITS, "k": 3, "token_budget": None},
                                                    thread, context=ctx)["skills"]]
    fits = built.invoke({"task": FITS, "k": 3, "token_budget": sized[0]}, thread, context=ctx)
    assert fits["fit"]["nothing_fits"] is False
    assert "raise the agent's token_budget input" in fits["prompt"]


def test_the_context_schema_is_given(coding_agent: ModuleType) -> None:
    shared = coding_agent.build_agent_with_subgraph_node()
    for graph in (retrieval_graph, shared):
        schema = graph.get_context_jsonschema()
        assert schema is not None and schema["title"] == "RetrievalContext"
        assert schema["required"] == ["index"]
        assert set(schema["properties"]) == {"index", "config", "reranker", "snapshot", "read_configurable"}
        assert "RetrievalContext(index=Index.open(" in schema["description"]
        json.dumps(schema)  # JSON all through
    assert "index_dir" in coding_agent.graph.get_context_jsonschema()["properties"]  # the served one's JSON context
