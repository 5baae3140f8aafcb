"""What the LangChain faces take besides their own fields: ``make_search_skills_tool``'s
``**overrides`` and ``SkillRetriever.invoke``'s keyword arguments. Before, the tool took
``k=3`` (or ``token_budget=``, ``kinds=``, ``budget=``, ``run_config=``) when it was built and
then failed every call with a TypeError from inside (uncaught, so a ToolNode crashed), and
took ``top_k=3`` to tell the model at every call to fix arguments it never gave; the
retriever's ``invoke(q, budget=10)`` failed with a TypeError from ``Retriever.search``."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


@pytest.fixture(scope="module")
def retriever(sample_index: Index) -> Retriever:
    return Retriever(sample_index, reranker=None)




# -- make_search_skills_tool(**overrides) ----------------------------------------------


def test_the_tools_own_arguments_given_to_the_builder_are_its_defaults(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, k=3, kinds="skill", token_budget=100_000)
    props = convert_to_openai_tool(tool)["function"]["parameters"]["properties"]
    assert props["k"]["default"] == 3 and props["token_budget"]["default"] == 100_000  # what the model reads
    assert props["kinds"]["default"] == ["skill"] and "null or left out: skill" in props["kinds"]["description"]
    answer = tool_node_answer(tool, {"query": QUERY})
    assert answer.status == "success", answer.content
    assert len(answer.artifact) == 3 and {r["kind"] for r in answer.artifact} == {"skill"}
    # the model's own arguments replace the defaults
    answer = tool_node_answer(tool, {"query": QUERY, "k": 2, "kinds": ["skill", "agent"], "token_budget": None})
    assert answer.status == "success" and len(answer.artifact) == 2
    async_answer = asyncio.run(
        tool.ainvoke({"type": "tool_call", "id": "call-2", "name": tool.name, "args": {"query": QUERY}})
    )
    assert async_answer.status == "success" and len(async_answer.artifact) == 3


def test_budget_is_read_as_the_tools_token_budget(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, budget=10)
    answer = tool_node_answer(tool, {"query": QUERY})
    assert answer.status == "success" and answer.artifact == []
    assert "No items fit the token budget of 10 tokens" in str(answer.content)
    with pytest.raises(ConfigError, match="budget= and token_budget=, which are one setting"):
        make_search_skills_tool(retriever, budget=10, token_budget=20)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"top_k": 3}, r"unknown setting\(s\) \['top_k'\]; it takes the tool's default k, kinds, token_budget"),
        ({"rerank_topn": 3}, r"\['rerank_topn'\] \(did you mean 'rerank_top_n'\?\)"),
        ({"run_config": {"tags": ["x"]}}, r"takes no run_config=: callbacks and tags come with each call's own config"),
        ({"snapshot": None}, "takes no snapshot="),
        ({"query": "x"}, "takes no query="),
        ({"k": 0}, r"bad default\(s\): k: Input should be greater than or equal to 1"),
        ({"kinds": ["skil"]}, r"bad default\(s\): kinds.0: unknown kind 'skil'"),
        ({"budget_fill": "yes"}, r"bad default\(s\): budget_fill"),
        ({"filters": {"kinds": ["skill"]}}, "give the tool's default kinds as kinds=, not in filters"),
    ],
)
def test_an_override_the_tool_cannot_take_is_refused_when_it_is_built(
    retriever: Retriever, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        make_search_skills_tool(retriever, **overrides)


def test_settings_and_filters_still_reach_every_search(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, rerank=False, route="quick", filters={"tags": ["nothing-has-this"]})
    answer = tool_node_answer(tool, {"query": QUERY})
    assert answer.status == "success" and answer.artifact == []


# -- SkillRetriever.invoke(**kwargs) --------------------------------------------------------


def test_the_retriever_reads_budget_as_its_token_budget(retriever: Retriever) -> None:
    skill_retriever = SkillRetriever.from_retriever(retriever, k=5)
    assert skill_retriever.invoke(QUERY, budget=10) == []
    assert asyncio.run(skill_retriever.ainvoke(QUERY, budget=10)) == []
    unbounded = skill_retriever.invoke(QUERY, budget=100_000)
    assert [d.id for d in unbounded] == [d.id for d in skill_retriever.invoke(QUERY, token_budget=100_000)]
    assert len(unbounded) == 5
    with pytest.raises(ConfigError, match="budget= and token_budget=, which are one setting"):
        skill_retriever.invoke(QUERY, budget=10, token_budget=20)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"run_config": {"tags": ["x"]}}, r"takes no run_config=: .* invoke\(\.\.\., config=\{\.\.\.\}\)"),
        ({"snapshot": None}, "takes no snapshot="),
        ({"query": "other"}, "takes no query=: the query is each call's own first argument"),
    ],
)
def test_the_retriever_refuses_what_it_passes_itself(
    retriever: Retriever, kwargs: dict[str, object], message: str
) -> None:
    skill_retriever = SkillRetriever.from_retriever(retriever)
    with pytest.raises(ConfigError, match=message):
        skill_retriever.invoke(QUERY, **kwargs)
    with pytest.raises(ConfigError, match=message):
        asyncio.run(skill_retriever.ainvoke(QUERY, **kwargs))


def test_a_call_with_k_none_gets_the_retrievers_own_k(retriever: Retriever) -> None:
    """``invoke(q, k=None)`` returned RetrievalConfig's 10 documents from a retriever built
    with k=2: None, which the field itself refuses, means the retriever's own k, as a null
    k means the tool's default."""
    skill_retriever = SkillRetriever.from_retriever(retriever, k=2)
    assert len(skill_retriever.invoke(QUERY, k=None)) == 2
    assert len(asyncio.run(skill_retriever.ainvoke(QUERY, k=None))) == 2
    assert len(skill_retriever.invoke(QUERY, k=3)) == 3  # a call's own k still replaces it


def test_a_none_query_is_said_to_be_no_text_not_a_missing_input_key(retriever: Retriever) -> None:
    """``retriever.invoke(None)`` and ``Retriever.search(None)`` were told 'the input needs
    "query", ... e.g. {"query": "add tracing", "k": 5}' (the graph's words for a dict
    without the key), and the dict they advise is refused: the retriever takes text."""
    skill_retriever = SkillRetriever.from_retriever(retriever)
    calls = [
        lambda: skill_retriever.invoke(None),  # type: ignore[arg-type]
        lambda: asyncio.run(skill_retriever.ainvoke(None)),  # type: ignore[arg-type]
        lambda: retriever.search(None),  # type: ignore[arg-type]
        lambda: asyncio.run(retriever.asearch(None)),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(QueryError) as caught:
            call()
        assert str(caught.value) == "the query must be text, got None"
    with pytest.raises(QueryError, match=r"^query 2 of 2: the query must be text, got None$"):
        retriever.search_many([QUERY, None])  # type: ignore[list-item]
