"""Several kinds in one comma-separated string (``"skill, agent"``, what a model writes for
a list) are refused by the agent tool and by `SkillRetriever`'s ``kinds`` field with the
hint the search itself gives (`kind_names.several_kinds_hint`): pass them as a list. The tool
answered only "unknown kind 'skill, agent'; use one of: ..." (a walkthrough's
create_react_agent loop with a scripted model), where `Retriever.search` and
`SkillRetriever.invoke` said to pass a list; the schema's own check had no hint. Sample
index, hashing embedder, a real ToolNode."""

from __future__ import annotations

import pytest
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.index import Index

HINT = 'pass several kinds as a list, e.g. kinds=["skill", "agent"], not one comma-separated string'


@pytest.mark.parametrize("kinds", ["skill, agent", "Skill,Agent"])
def test_the_tool_says_to_pass_several_kinds_as_a_list(sample_index: Index, kinds: str) -> None:
    answer = tool_node_answer(make_search_skills_tool(sample_index, rerank=False),
                              {"query": "add tracing", "kinds": kinds})
    assert answer.status == "error"
    assert f"unknown kind {kinds!r}" in str(answer.content)
    assert HINT in str(answer.content)  # each part as the search reads its case


def test_the_retriever_field_says_it_too(sample_index: Index) -> None:
    with pytest.raises(ConfigError, match=r"unknown kind 'skill,agent'.*" + HINT.replace("[", r"\[").replace("]", r"\]")):
        SkillRetriever(index=sample_index, kinds="skill,agent")


def test_no_hint_without_a_comma(sample_index: Index) -> None:
    answer = tool_node_answer(make_search_skills_tool(sample_index, rerank=False),
                              {"query": "add tracing", "kinds": "spaceship"})
    assert answer.status == "error" and "as a list" not in str(answer.content)
