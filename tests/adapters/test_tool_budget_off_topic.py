"""The agent tool over an answer that nothing fits and whose closest items the token budget
dropped (found by a walkthrough of the tool on real skills): it told the model to "Call
again with a larger token_budget (or none) to get them", urging a call that brings back
items that do not fit the task. It now says they do not fit the task either, and what a
larger budget would return, without urging it (``graphs/coding_agent.py`` says it alike);
a matching answer's dropped items still get that advice."""

from __future__ import annotations

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.stores.index import Index

OFF_TOPIC = "bake sourdough bread at home"


def test_off_topic_items_the_budget_dropped_are_not_worth_a_larger_budget(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    text = tool.invoke({"query": OFF_TOPIC, "k": 3, "token_budget": 1})
    lines = text.splitlines()
    assert lines[0].startswith("Note: nothing in the catalogue fits this well; the closest: ")
    assert lines[1] == (
        "No items fit the token budget of 1 tokens: it dropped the 3 closest items, "
        "which do not fit the task well either; a larger token_budget (or none) returns them all the same."
    )
    assert "Call again" not in text
    assert "note: the token budget of 1 dropped 3 of 3 results" in text  # the warning itself is kept


def test_matching_items_the_budget_dropped_still_ask_for_a_larger_budget(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    text = tool.invoke({"query": "container image hardening", "k": 3, "token_budget": 1})
    assert not text.startswith("Note: nothing")
    assert "Call again with a larger token_budget (or none) to get them." in text.splitlines()[0]
