"""The ``kinds`` argument's published schema says what the tools take: a list of kinds,
or one kind alone as a string. The tools took the string, but the schema allowed only a
list or null, so a client that checks its arguments against the schema before sending
refused what the README says to send (found in an MCP walkthrough)."""

from __future__ import annotations

import asyncio

import jsonschema
import pytest

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize(("tool", "one", "unknown"), [("search_components", "hook", "document"), ("search", "document", "runbook")])
def test_one_kind_alone_passes_the_schema_and_the_call(hashed_index: Index, tool: str, one: str, unknown: str) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    schema = next(t.input_schema for t in asyncio.run(server.list_tools()) if t.name == tool)
    for kinds in (one, [one], ["skill", one], None):
        jsonschema.validate({"query": "format python", "kinds": kinds}, schema)
    for kinds in (unknown, [unknown], [], 5):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"query": "format python", "kinds": kinds}, schema)
    as_string = asyncio.run(server.call_tool(tool, {"query": "format python", "kinds": one})).structured_content
    as_list = asyncio.run(server.call_tool(tool, {"query": "format python", "kinds": [one]})).structured_content
    assert as_string == as_list
