"""The search_skills tool: typed arguments, compact model-readable output, artifact."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def tool(sample_index: Index):  # type: ignore[no-untyped-def]
    return make_search_skills_tool(Retriever(sample_index, reranker=None))


def test_schema_is_typed(tool) -> None:  # type: ignore[no-untyped-def]
    spec = convert_to_openai_tool(tool)["function"]
    assert spec["name"] == "search_skills"
    props = spec["parameters"]["properties"]
    assert set(props) == {"query", "kinds", "k", "token_budget"}
    assert spec["parameters"]["required"] == ["query"]
    assert props["query"]["type"] == "string"
    assert props["k"]["type"] == "integer" and props["k"]["minimum"] == 1
    assert "skill" in str(props["kinds"])  # the allowed kinds are listed for the model


def test_output_is_compact_and_readable(tool, sample_index: Index) -> None:  # type: ignore[no-untyped-def]
    text = tool.invoke({"query": "write a safe alembic migration", "kinds": ["skill"], "k": 3})
    lines = text.splitlines()
    assert re.match(r"^3 items \(route \w+; \d+ tokens in all\):$", lines[0])
    ranked = [line for line in lines if re.match(r"^\d+\. \[", line)]
    assert len(ranked) == 3
    for line in ranked:
        assert line.split("] ")[0].endswith("[skill")
        item_id = re.search(r"\(id: ([^)]+)\)", line).group(1)  # type: ignore[union-attr]
        assert item_id in sample_index.nodes
        assert re.search(r"score \d\.\d{4}, \d+ tokens, via \w+ #\d+", line)
    assert "migrations-alembic" in text
    assert len(text) < 2000  # a summary, not the items' full text
    assert all(len(line) < 400 for line in lines)


def test_token_budget_and_artifact(tool) -> None:  # type: ignore[no-untyped-def]
    call = {"type": "tool_call", "id": "call-1", "name": "search_skills",
            "args": {"query": "postgres migration before a deploy", "k": 8, "token_budget": 800}}  # fmt: skip
    msg = tool.invoke(call)
    assert isinstance(msg, ToolMessage) and msg.tool_call_id == "call-1"
    assert msg.artifact and sum(r["token_count"] for r in msg.artifact) <= 800
    assert {
        "id",
        "kind",
        "name",
        "fusion_score",
        "rerank_score",
        "token_count",
        "channels",
        "path",
    } <= set(msg.artifact[0])
    assert msg.artifact[0]["id"] in msg.content


def test_bad_arguments_are_rejected_before_retrieval(tool) -> None:  # type: ignore[no-untyped-def]
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        tool.invoke({"query": "x", "kinds": ["not-a-kind"]})
    with pytest.raises(ValidationError):
        tool.invoke({"query": "x", "k": 0})


def test_no_match_says_what_to_do(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    text = tool.invoke({"query": "postgres", "kinds": ["incident"]})  # the sample has no incidents
    assert text.startswith("No matching items.")


@pytest.mark.asyncio
async def test_async(tool) -> None:  # type: ignore[no-untyped-def]
    text = await tool.ainvoke({"query": "format python code", "k": 2})
    assert text.startswith("2 items")
