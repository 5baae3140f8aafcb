"""Every tool schema an agent reads is standard JSON Schema, found in a user walkthrough:
``search_skills``' ``token_budget`` said its least value as ``"ge": 0`` (pydantic's word,
not a JSON Schema keyword), so a model never saw the bound and a strict provider may
refuse the tool; ``k`` had its ``minimum``/``maximum``. The walk below checks every key of
every subschema of the LangChain tool's schema (as LangChain hands it to a model and as
OpenAI's tool format carries it) and of the MCP server's tools, and that each bound the
schema states is still enforced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

#: The keywords of JSON Schema 2020-12 (core, applicator, validation, format, content and
#: meta-data vocabularies) and draft-07's ``definitions``, which pydantic may still write.
JSON_SCHEMA_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$defs", "$comment",
    "$vocabulary", "definitions",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems",
    "items", "contains", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties",
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "format", "contentEncoding", "contentMediaType", "contentSchema",
    "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
})  # fmt: skip
#: Keywords whose value is a map of names to subschemas (the names are anyone's).
_NAMED_SCHEMAS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
#: Keywords whose value is one subschema, or a list of them.
_ONE_SCHEMA = {"items", "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties",
               "unevaluatedItems", "unevaluatedProperties", "contentSchema"}  # fmt: skip
_SCHEMA_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}


def foreign_keys(schema: Any, at: str = "#") -> Iterator[str]:
    """Where ``schema`` holds a key that is not a JSON Schema keyword, as ``path: key``.
    Data (``enum``, ``default``, ``examples``, ``const``, ``required``) is not walked."""
    if isinstance(schema, bool):  # true/false are schemas too
        return
    assert isinstance(schema, dict), f"{at} is not a schema: {schema!r:.80}"
    for key, value in schema.items():
        if key not in JSON_SCHEMA_KEYWORDS:
            yield f"{at}: {key}"
        elif key in _NAMED_SCHEMAS:
            for name, sub in value.items():
                yield from foreign_keys(sub, f"{at}/{key}/{name}")
        elif key in _ONE_SCHEMA:
            yield from foreign_keys(value, f"{at}/{key}")
        elif key in _SCHEMA_LISTS:
            for i, sub in enumerate(value):
                yield from foreign_keys(sub, f"{at}/{key}/{i}")


def test_the_walk_finds_a_foreign_key_at_any_depth() -> None:
    """The walk itself: the schema the walkthrough found is refused, a sound one passes."""
    found = {"properties": {"token_budget": {"anyOf": [{"ge": 0, "type": "integer"}, {"type": "null"}]}}}
    assert list(foreign_keys(found)) == ["#/properties/token_budget/anyOf/0: ge"]
    sound = {"type": "object", "properties": {"ge": {"type": "integer", "minimum": 0}}, "required": ["ge"],
             "additionalProperties": False, "$defs": {"x": {"items": {"enum": [{"ge": 1}]}}}}  # fmt: skip
    assert list(foreign_keys(sound)) == []  # a property named "ge" and data are not keywords


def _tool_schemas(sample_index: Index, **defaults: Any) -> dict[str, dict[str, Any]]:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None), **defaults)
    return {
        "tool_call_schema": tool.tool_call_schema.model_json_schema(),  # type: ignore[union-attr]
        "openai": convert_to_openai_tool(tool)["function"]["parameters"],
        "openai strict": convert_to_openai_tool(tool, strict=True)["function"]["parameters"],
    }


# The builder's defaults make the schema anew (`schema_with_defaults`): walked as well.
@pytest.mark.parametrize("defaults", [{}, {"k": 3, "kinds": "skill", "token_budget": 2000}])
def test_the_agent_tools_schema_is_json_schema_only(sample_index: Index, defaults: dict[str, Any]) -> None:
    for form, schema in _tool_schemas(sample_index, **defaults).items():
        assert list(foreign_keys(schema)) == [], form
        props = schema["properties"]
        assert (props["k"]["minimum"], props["k"]["maximum"]) == (1, 50), form
        budget = next(s for s in props["token_budget"]["anyOf"] if s.get("type") == "integer")
        assert budget["minimum"] == 0, form


def test_the_bounds_the_schema_states_are_still_enforced(sample_index: Index) -> None:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    assert tool.invoke({"query": "x", "token_budget": -1}).startswith(
        "Error: invalid arguments: token_budget: Input should be greater than or equal to 0 (got -1)"
    )
    for k in (0, 51):
        assert tool.invoke({"query": "x", "k": k}).startswith("Error: invalid arguments: k: ")
    assert "No items fit the token budget of 0 tokens" in tool.invoke({"query": "postgres migrations", "token_budget": 0})
    # the lax readings the tool refuses (test_search_skills_tool.py) still are refused
    assert "must be a whole number" in tool.invoke({"query": "x", "token_budget": True})
    assert "must be a whole number" in tool.invoke({"query": "x", "token_budget": 2.5})


def test_the_mcp_tools_schemas_are_json_schema_only(sample_index: Index) -> None:
    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    tools = asyncio.run(server.list_tools())
    assert {t.name for t in tools} >= {"search", "search_components", "install_components", "uninstall_components"}
    for t in tools:
        schema = t.input_schema if hasattr(t, "input_schema") else t.inputSchema  # mcp 2 / mcp 1
        assert list(foreign_keys(schema)) == [], t.name
