"""A config's k against an entry point's own default k (README, "Each entry point has its
own default `k`"): ``SkillRetriever(index=ix, config=RetrievalConfig(k=7))`` returned 4
documents, its own default, and ``make_search_skills_tool`` over a `Retriever` configured
with k=7 returned 5, the tool's: the k the caller set in the config was dropped without a
word. A k the config sets now wins over the entry's default when the caller passes none;
a k passed to the entry itself wins over the config's; a config that leaves k at its
default (10) leaves the entry's own."""

from __future__ import annotations

import asyncio
from typing import Any

import jsonschema
import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.adapters.mcp_arguments import MAX_K
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"config": RetrievalConfig(k=7)}, 7),  # the config's k, none passed
        ({"config": RetrievalConfig(k=7), "k": 3}, 3),  # k passed wins over the config's
        ({"config": RetrievalConfig(use_calibration=False)}, 4),  # k left at its default: the entry's
        ({}, 4),
    ],
)
def test_skill_retriever_takes_the_configs_k_unless_given_one(
    sample_index: Index, given: dict[str, object], expected: int
) -> None:
    retriever = SkillRetriever(index=sample_index, reranker=None, **given)
    assert retriever.k == expected
    assert len(retriever.invoke(QUERY)) == expected


def test_from_retriever_takes_its_configs_k(sample_index: Index) -> None:
    engine = Retriever(sample_index, RetrievalConfig(k=7), reranker=None)
    assert len(SkillRetriever.from_retriever(engine).invoke(QUERY)) == 7
    assert len(SkillRetriever.from_retriever(engine, k=2).invoke(QUERY)) == 2


def test_the_tool_over_a_configured_retriever_defaults_to_its_k(sample_index: Index) -> None:
    engine = Retriever(sample_index, RetrievalConfig(k=7), reranker=None)
    tool = make_search_skills_tool(engine)
    assert convert_to_openai_tool(tool)["function"]["parameters"]["properties"]["k"]["default"] == 7
    answer = tool_node_answer(tool, {"query": QUERY})
    assert answer.status == "success" and len(answer.artifact) == 7
    assert len(tool_node_answer(make_search_skills_tool(engine, k=3), {"query": QUERY}).artifact) == 3
    plain = make_search_skills_tool(Retriever(sample_index, reranker=None))
    assert len(tool_node_answer(plain, {"query": QUERY}).artifact) == 5


@pytest.mark.parametrize("tool", ["search", "search_components"])
@pytest.mark.parametrize(("config", "expected"), [
    (RetrievalConfig(k=7), 7),  # the config's k, none passed
    (RetrievalConfig(use_calibration=False), 5),  # k left at its default: the tool's own
    (RetrievalConfig(k=MAX_K + 10), MAX_K),  # past what a tool gives: its most, not a refusal
])  # fmt: skip
def test_the_mcp_tools_over_a_configured_retriever_default_to_its_k(
    sample_index: Index, tool: str, config: RetrievalConfig, expected: int
) -> None:
    """``build_server(index, retriever=Retriever(ix, RetrievalConfig(k=7)))`` answered 5, the
    default written in the tools' signatures, as the LangChain tool did before."""
    server = build_server(sample_index, retriever=Retriever(sample_index, config, reranker=None))
    schema = next(t.input_schema for t in asyncio.run(server.list_tools()) if t.name == tool)
    assert schema["properties"]["k"]["default"] == expected
    jsonschema.validate({"query": QUERY}, schema)

    def ids(args: dict[str, Any]) -> list[str]:
        result = asyncio.run(server.call_tool(tool, {"query": "python tests and formatting", **args}))
        assert not result.is_error, result.content
        return [r["id"] for r in result.structured_content["results"]]

    assert ids({}) == ids({"k": expected}) != ids({"k": 2})  # a k passed still wins
