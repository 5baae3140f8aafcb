"""What the example coding agent (graphs/coding_agent.py) tells its model and its caller,
both ways it builds. Walkthrough on a real catalogue: an off-topic task's retrieval
flagged "nothing fits" but the prompt said "Apply these 1 items", and the agent's output
carried neither the warning nor ``fit``; a budget that dropped every match read "No
skills matched this task"; the shared-state agent's state had no ``fit`` key, so the
subgraph's ``fit`` was lost."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.stores.index import Index

# On the sample catalogue these two are flagged and not flagged, as
# tests/adapters/test_checkpointed_threads.py relies on too.
OFF_TOPIC = "a recipe for sourdough bread with a crisp crust"
ON_TOPIC = "canary rollout of a release"
OUTPUT = {"skills", "prompt", "answer", "warnings", "fit"}
NOTHING_FITS = "Nothing in the catalogue fits this task well."


@pytest.fixture(params=["wrapper", "subgraph"])
def agent(request: pytest.FixtureRequest, coding_agent: ModuleType, sample_index: Index) -> Any:
    """One run of either agent in a thread of its own checkpointer, returning its output."""
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))
    if request.param == "wrapper":
        built = coding_agent.build_agent_with_wrapper_node(retrieval=ctx, checkpointer=InMemorySaver())
    else:
        built = coding_agent.build_agent_with_subgraph_node(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": request.param}}
    return lambda state: built.invoke(state, thread, context=ctx)


def test_an_off_topic_task_says_nothing_fits(agent: Any) -> None:
    out = agent({"task": OFF_TOPIC, "k": 2})
    assert set(out) == OUTPUT
    assert out["fit"]["nothing_fits"] is True
    assert any(w.startswith("nothing in the catalogue fits") for w in out["warnings"])
    prompt = out["prompt"]
    assert len(out["skills"]) == 2 and "Apply" not in prompt
    assert f"{NOTHING_FITS} The 2 closest items are shown below only in case they help" in prompt
    assert all(s["text"].strip() in prompt for s in out["skills"])  # still there, in case


def test_a_task_that_fits_is_applied_and_one_item_is_singular(agent: Any) -> None:
    out = agent({"task": ON_TOPIC, "k": 3})
    assert out["fit"]["nothing_fits"] is False
    assert not any(w.startswith("nothing in the catalogue fits") for w in out["warnings"])
    assert f"Apply these {len(out['skills'])} items (ranked by skill-retriever):" in out["prompt"]
    one = agent({"task": ON_TOPIC, "k": 1})
    assert "Apply this item (ranked by skill-retriever):" in one["prompt"]
    assert "Apply these 1" not in one["prompt"] and NOTHING_FITS not in one["prompt"]


def test_a_thread_shows_this_tasks_fit_and_warnings(agent: Any) -> None:
    assert agent({"task": OFF_TOPIC, "k": 2})["fit"]["nothing_fits"]
    out = agent({"task": ON_TOPIC, "k": 2})
    assert out["fit"]["nothing_fits"] is False
    assert not any(w.startswith("nothing in the catalogue fits") for w in out["warnings"])
    assert NOTHING_FITS not in out["prompt"]


def test_a_budget_that_drops_every_match_says_so(agent: Any, coding_agent: ModuleType) -> None:
    out = agent({"task": ON_TOPIC, "k": 3, "token_budget": 10})
    assert out["skills"] == []
    (warning,) = [w for w in out["warnings"] if w.startswith("the token budget of 10 dropped")]
    counted = re.match(r"the token budget of 10 dropped (\d+) of", warning)
    assert counted is not None
    dropped = int(counted[1])
    prompt = out["prompt"]
    assert "No skills matched" not in prompt
    said = re.search(r"No items are shown: (\d+) items matched this task but did not fit the token "
                     r"budget of 10 tokens \(the best of them needs (\d+) tokens\)", prompt)
    assert said is not None and int(said[1]) == dropped == 3
    assert int(said[2]) > 10
    assert f"raise the agent's token_budget input (default {coding_agent.DEFAULT_BUDGET})" in prompt


def test_a_budget_that_drops_some_counts_the_rest(agent: Any) -> None:
    sizes = [s["token_count"] for s in agent({"task": ON_TOPIC, "k": 3, "token_budget": None})["skills"]]
    assert len(sizes) == 3 and sizes[1] > 0  # (what the test needs: the second cannot fit)
    out = agent({"task": ON_TOPIC, "k": 3, "token_budget": sizes[0]})
    assert [s["token_count"] for s in out["skills"]] == sizes[:1]
    assert "Apply this item (ranked by skill-retriever):" in out["prompt"]
    assert f"(2 more items matched this task but did not fit the token budget of {sizes[0]} tokens;" in out["prompt"]


def test_the_shared_state_keeps_the_subgraphs_fit(coding_agent: ModuleType, sample_index: Index) -> None:
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))
    built = coding_agent.build_agent_with_subgraph_node(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "fit"}}
    out = built.invoke({"task": OFF_TOPIC, "k": 2}, thread, context=ctx)
    values = built.get_state(thread).values
    assert values["fit"] == out["fit"] and values["fit"]["nothing_fits"] is True
    assert values["warnings"] == out["warnings"]


def test_the_served_schema_names_warnings_and_fit(coding_agent: ModuleType) -> None:
    """What `langgraph dev` and Studio show a caller of the served agent."""
    properties = coding_agent.graph.get_output_jsonschema()["properties"]
    assert set(properties) == OUTPUT


def test_nothing_fits_and_a_full_budget_are_both_said(coding_agent: ModuleType) -> None:
    """Said, but not urged: when nothing fits, what the budget dropped are the closest
    items only, and advice to raise the budget to include them contradicted the verdict
    (test_s44_agents2_coding_agent.py has the run that showed it)."""
    fit = {"confidence": 0.0, "nothing_fits": True, "top_similarity": 0.1, "agree": False}
    budget = {"budget": 100, "dropped": 1, "dropped_ids": [{"id": "a", "tokens": 250}]}
    prompt = coding_agent.assemble_prompt("bake bread", [], fit=fit, budget=budget)
    assert prompt.splitlines()[2] == "Nothing in the catalogue fits this task well; work from general knowledge."
    assert prompt.endswith("\n\n(The closest item did not fit the token budget of 100 tokens.)")
    assert "raise" not in prompt and "to include" not in prompt and "matched this task" not in prompt
    plain = coding_agent.assemble_prompt("bake bread", [])
    assert plain.endswith("No skills matched this task; work from general knowledge.")
