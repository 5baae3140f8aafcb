"""``search_components`` read its ``kinds`` more strictly than every other entry point
(found in an MCP walkthrough): ``search`` on the same server, ``Retriever.search``, the
LangChain tool and the CLI take a kind in any case (``Skill``, ``MCP_SERVER``), as the
README says of every place kinds are given, and refuse a plural naming the kind it means;
``search_components`` refused ``Skill`` and said of ``skills`` only the list of kinds, and
of ``document`` not where documents are found. It now reads the case as they do, guesses
as they do, and points an item kind it does not take at ``search``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

KINDS = "kinds[0]: input should be 'skill', 'agent', 'command', 'hook' or 'mcp_server'"


def _answer(index: Index, kinds: Any) -> Any:
    server = build_server(index, retriever=Retriever(index, reranker=None))
    return asyncio.run(server.call_tool("search_components", {"query": "format python code", "kinds": kinds}))


@pytest.mark.parametrize(("given", "kind"), [("Skill", "skill"), (["SKILL", "Hook"], "skill"), ("MCP_SERVER", "mcp_server")])
def test_a_kind_in_any_case_is_that_kind(hashed_index: Index, given: Any, kind: str) -> None:
    answer = _answer(hashed_index, given).structured_content
    lower = _answer(hashed_index, [g.lower() for g in ([given] if isinstance(given, str) else given)]).structured_content
    assert answer == lower
    if kind == "skill":
        assert answer["results"] and {r["kind"] for r in answer["results"]} <= {"skill", "hook"}


ALONE = KINDS.replace("[0]", "")  # one kind given as a string: no list's item 0


@pytest.mark.parametrize(("given", "said"), [
    ("skills", f"{ALONE} (did you mean 'skill'?)"),
    (["skills"], f"{KINDS} (did you mean 'skill'?)"),
    (["skill", "Agents"], KINDS.replace("[0]", "[1]") + " (did you mean 'agent'?)"),
    ("document", f"{ALONE}; a document item is found with search (kinds document)"),
    ("Incidents", f"{ALONE}; an incident item is found with search (kinds incident)"),
    ("plugin", f"{ALONE}; a plugin is found with search (kinds plugin) and installed whole by its id"),
    ("widget", ALONE),
    (["widget"], KINDS),
])  # fmt: skip
def test_a_kind_it_does_not_take_says_what_is_meant(hashed_index: Index, given: Any, said: str) -> None:
    with pytest.raises(Exception) as caught:  # the SDK's ToolError, the tool's words
        _answer(hashed_index, given)
    assert str(caught.value) == f"Error executing tool search_components: {said}"
