"""An empty or unknown ``kinds=`` is refused naming ``kinds``, the argument the caller
gave, at every entry point that takes it: ``SkillRetriever(...).invoke(q, kinds=[])`` said
"filters.kinds is empty" (its constructor says "kinds is empty"), as did
``Retriever.search(q, kinds=[])`` and the agent tool given ``kinds: []`` by a model, which
has no ``filters`` argument at all. Kinds given inside ``filters`` are still named so."""

from __future__ import annotations

import asyncio

import pytest
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "fuzz"
EMPTY = "kinds is empty, so nothing could match; leave it out for every kind"


def test_the_retriever_names_the_kinds_argument_of_a_call(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index, reranker=None)
    with pytest.raises(ConfigError, match=f"^{EMPTY}$"):
        retriever.invoke(QUERY, kinds=[])
    with pytest.raises(ConfigError, match=f"^{EMPTY}$"):
        asyncio.run(retriever.ainvoke(QUERY, kinds=[]))
    with pytest.raises(ConfigError, match=r"^kinds: unknown kind\(s\) \['widget'\]; use any of \['agent', "):
        retriever.invoke(QUERY, kinds=["widget"])
    with pytest.raises(ConfigError, match=f"^filters.{EMPTY}$"):  # given in filters: named so
        retriever.invoke(QUERY, filters={"kinds": []})


def test_search_names_its_kinds_shortcut(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=None)
    with pytest.raises(ConfigError, match=f"^{EMPTY}$"):
        retriever.search(QUERY, kinds=[])
    with pytest.raises(ConfigError, match=f"^{EMPTY}$"):  # also beside filters' own kinds
        retriever.search(QUERY, kinds=[], filters={"kinds": ["skill"]})
    with pytest.raises(ConfigError, match=r"^kinds: unknown kind\(s\) \['skils'\]; .*did you mean 'skill'"):
        retriever.search(QUERY, kinds=["skils"])
    with pytest.raises(ConfigError, match=f"^filters.{EMPTY}$"):
        retriever.search(QUERY, filters={"kinds": []})
    assert retriever.search(QUERY, kinds=["Skill"]).results  # any case is still a kind


def test_the_tool_tells_the_model_the_argument_it_gave(sample_index: Index) -> None:
    answer = tool_node_answer(make_search_skills_tool(sample_index, rerank=False), {"query": QUERY, "kinds": []})
    assert answer.status == "error" and str(answer.content).startswith(f"Error: {EMPTY}."), answer.content
