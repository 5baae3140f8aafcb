"""The ``search_skills`` tool as a strict function-calling model and its builder meet it.

Walkthrough: in strict mode every argument is required, so null is the model's only way
to leave one out, and null read as "every kind" / "no budget" overrode the builder's
defaults (``kinds="agent", token_budget=2000`` answered other kinds and 5,252 tokens); the
strict schema still carried ``default`` keys, which OpenAI's strict mode is reported to
refuse with a 400 ("'default' is not permitted"); and a bad setting's value
(``max_query_chars="5"``) was taken when the tool was built and then failed every call,
telling the model to fix arguments it never gave.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"
ARGUMENTS = ["query", "kinds", "k", "token_budget", "budget_fill"]


@pytest.fixture(scope="module")
def retriever(sample_index: Index) -> Retriever:
    return Retriever(sample_index, reranker=None)


def _walk(schema: Any) -> list[dict[str, Any]]:
    """Every subschema of ``schema`` (a dict), itself included."""
    if isinstance(schema, list):
        return [s for item in schema for s in _walk(item)]
    if not isinstance(schema, dict):
        return []
    return [schema, *(s for value in schema.values() for s in _walk(value))]


def test_null_means_the_builders_default(retriever: Retriever) -> None:
    unbounded = tool_node_answer(make_search_skills_tool(retriever), {"query": QUERY, "k": 3})
    assert {r["kind"] for r in unbounded.artifact} != {"skill"}  # (what the test needs: other kinds come)
    budget = sum(r["token_count"] for r in unbounded.artifact) - 1  # the three do not fit
    for strict in (False, True):
        tool = make_search_skills_tool(retriever, k=3, kinds="skill", token_budget=budget, strict=strict)
        nulls = {"query": QUERY, "kinds": None, "token_budget": None}
        if strict:  # a strict model sends every argument: null for those it leaves to the tool
            nulls |= {"k": None, "budget_fill": None}
        answer = tool_node_answer(tool, nulls)
        left_out = tool_node_answer(tool, {"query": QUERY})
        assert answer.status == "success", answer.content
        assert answer.artifact == left_out.artifact, strict
        assert {r["kind"] for r in answer.artifact} == {"skill"}
        assert 0 < len(answer.artifact) <= 3
        assert sum(r["token_count"] for r in answer.artifact) <= budget
        # a model's own value still replaces the default
        two = tool_node_answer(tool, {"query": QUERY, "k": 2, "kinds": ["skill", "agent"], "token_budget": None})
        assert len(two.artifact) <= 2


def test_the_strict_schema_has_no_default_and_requires_every_argument(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, k=3, kinds="skill", token_budget=2000, strict=True)
    for converted in (convert_to_openai_tool(tool, strict=True), convert_to_openai_tool(tool)):
        params = converted["function"]["parameters"]
        assert [s for s in _walk(params) if "default" in s] == []
        assert params["required"] == ARGUMENTS and params["additionalProperties"] is False
        props = params["properties"]
        # each nullable argument says what null gives, since no default key says it
        assert props["kinds"]["description"].endswith("null or left out: skill.")
        assert props["token_budget"]["description"].endswith("null or left out: 2000 tokens.")
        assert props["k"]["description"].endswith("Null or left out: 3.")
        assert props["budget_fill"]["description"].endswith("Null or left out: false.")
        assert {"type": "null"} in props["k"]["anyOf"] and {"type": "null"} in props["budget_fill"]["anyOf"]
        # OpenAI's supported-schema list has minimum/maximum: the bounds stay, as JSON Schema
        count = next(s for s in props["k"]["anyOf"] if s.get("type") == "integer")
        assert (count["minimum"], count["maximum"]) == (1, 50) and "ge" not in count and "le" not in count
    # the bounds the schema states are still enforced
    assert tool_node_answer(tool, {"query": QUERY, "k": 51}).status == "error"
    assert tool_node_answer(tool, {"query": QUERY, "budget_fill": "yes"}).status == "error"


def test_the_plain_schema_keeps_its_defaults(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, k=3, kinds="skill", token_budget=2000)
    params = convert_to_openai_tool(tool)["function"]["parameters"]
    props = params["properties"]
    assert params["required"] == ["query"]
    assert (props["k"]["default"], props["kinds"]["default"], props["token_budget"]["default"]) == (3, ["skill"], 2000)
    assert "null or left out: 2000 tokens" in props["token_budget"]["description"]
    # with no defaults given, null is "every kind" and "no budget": the built-in defaults
    bare = convert_to_openai_tool(make_search_skills_tool(retriever))["function"]["parameters"]["properties"]
    assert bare["kinds"]["description"].endswith("null or left out: every kind.")
    assert bare["token_budget"]["description"].endswith("null or left out: no budget.")


@pytest.mark.parametrize(
    ("overrides", "said"),
    [
        ({"max_query_chars": "5"}, "setting 'max_query_chars' has the wrong type: '5' is str, expected int"),
        ({"channel_depth": -3}, "channel_depth must be > 0, got -3"),
        ({"rerank": "no"}, "setting 'rerank' has the wrong type: 'no' is str, expected bool"),
        ({"kinds": []}, "kinds is empty, so nothing could match; leave it out for every kind"),
        ({"channels": {"sematic": False}}, "unknown channel(s) ['sematic']"),
        ({"filters": {"tags": 5}}, "filters.tags must be a list of strings, got 5"),
        ({"principals": 5}, "principals must be a list of strings, got 5"),
    ],
)
def test_a_bad_setting_value_is_the_builders_error(retriever: Retriever, overrides: dict[str, Any], said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_search_skills_tool(retriever, **overrides)
    message = str(caught.value)
    assert message.startswith(f"make_search_skills_tool: {said}") and "\n" not in message
    assert "Fix the arguments" not in message  # the builder's to fix, not a model's


def test_good_settings_still_build_and_search(retriever: Retriever) -> None:
    tool = make_search_skills_tool(retriever, rerank=False, channel_depth=30, channels={"temporal": False},
                                   filters={"tags": ["database"]}, max_query_chars=500)
    answer = tool_node_answer(tool, {"query": QUERY})
    assert answer.status == "success" and answer.artifact
