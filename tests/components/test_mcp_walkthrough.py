"""The MCP tools as an agent meets them: an argument a tool does not take is refused, not
dropped; a wrong type, a missing argument or an empty list is said in one line that
names the argument; the schemas say what the tools accept (an enum of kinds, no extra
properties, at least one id); a dry-run install says how to write. Through the SDK's
stdio client as well, where the server must keep serving after each refusal."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from component_catalogue import sid
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

SEARCH_TAKES = "search_components takes query (required), kinds, k, budget, target, drop_conflicts, detail"


def server_of(index: Index) -> Any:
    return build_server(index, retriever=Retriever(index, reranker=None))


def call(server: Any, tool: str, args: dict[str, Any]) -> str:
    """The tool's answer, or its error's text."""
    try:
        return str(asyncio.run(server.call_tool(tool, args)))
    except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's error; its text is the answer
        return f"error: {exc}"


@pytest.mark.parametrize("extra", [{"top_k": 3}, {"kind": "skill"}, {"kinds": ["skill"], "filter": "x"}])
def test_an_argument_the_tool_does_not_take_is_refused(hashed_index: Index, extra: dict[str, Any]) -> None:
    """``kind`` for ``kinds`` was dropped without a word: the agent got hooks and agents
    back and took them for the skills it asked for."""
    answer = call(server_of(hashed_index), "search_components", {"query": "format python", **extra})
    unknown = next(k for k in extra if k not in ("kinds",))
    assert answer.startswith("error:") and f"unknown argument(s) {unknown!r}" in answer, answer[:300]
    assert answer.endswith(SEARCH_TAKES) and "\n" not in answer


@pytest.mark.parametrize(
    ("tool", "args", "said"),
    [
        ("search_components", {}, f"query is required; {SEARCH_TAKES}"),
        ("search_components", {"query": 5}, "query: input should be a valid string"),
        ("search_components", {"query": "x", "detail": "short"}, "detail: input should be 'brief' or 'full'"),
        ("search_components", {"query": "x", "kinds": ["skills"]}, "kinds[0]: input should be 'skill', 'agent'"),
        ("search_components", {"query": "x", "kinds": []}, "kinds is empty; pass at least one"),
        ("search_components", {"query": "x", "k": 2.5}, "k must be a whole number (a valid integer such as 5)"),
        ("get_component", {"id": ["a"]}, "id: input should be a valid string"),
        ("check_dependencies", {"ids": []}, "ids is empty; pass at least one"),
        ("check_dependencies", {"ids": "ruff-lint"}, "ids: input should be a valid list"),
        ("install_components", {"ids": [sid("ruff-lint")]}, "target is required; install_components takes ids (required), target (required)"),
    ],
)  # fmt: skip
def test_a_bad_argument_is_said_in_one_line_that_names_it(
    hashed_index: Index, tool: str, args: dict[str, Any], said: str
) -> None:
    """pydantic's own text ran over four lines and ended in a URL; ``ids: []`` checked
    nothing and answered as if all were well."""
    answer = call(server_of(hashed_index), tool, args)
    assert answer.startswith(f"error: Error executing tool {tool}: {said}"), answer[:400]
    assert "\n" not in answer
    assert "errors.pydantic.dev" not in answer


def test_the_schemas_say_what_the_tools_accept(hashed_index: Index) -> None:
    tools = {t.name: t.input_schema for t in asyncio.run(server_of(hashed_index).list_tools())}
    assert all(schema["additionalProperties"] is False for schema in tools.values())
    kinds = next(s for s in tools["search_components"]["properties"]["kinds"]["anyOf"] if s.get("type") == "array")
    assert set(kinds["items"]["enum"]) == {"skill", "agent", "command", "hook", "mcp_server"}
    assert tools["check_dependencies"]["properties"]["ids"]["minItems"] == 1
    assert tools["install_components"]["properties"]["ids"]["minItems"] == 1


def test_one_kind_alone_is_a_list_of_one(hashed_index: Index) -> None:
    server = server_of(hashed_index)
    alone = asyncio.run(server.call_tool("search_components", {"query": "format python", "kinds": "skill"}))
    listed = asyncio.run(server.call_tool("search_components", {"query": "format python", "kinds": ["skill"]}))
    assert alone.structured_content == listed.structured_content
    assert {r["kind"] for r in alone.structured_content["results"]} == {"skill"}


def test_a_dry_run_says_how_to_write(hashed_index: Index, tmp_path: Path) -> None:
    server = server_of(hashed_index)
    args = {"ids": [sid("json-logging")], "target": str(tmp_path)}
    plan = asyncio.run(server.call_tool("install_components", args)).structured_content
    assert plan["applied"] is False and plan["ok"] is True
    assert plan["next"] == "call install_components again with dry_run false to write these files"
    done = asyncio.run(server.call_tool("install_components", {**args, "dry_run": False})).structured_content
    assert done["applied"] is True and "next" not in done
    refused = asyncio.run(
        server.call_tool("install_components", {"ids": [sid("ruff-lint"), sid("black-style")], "target": str(tmp_path)})
    ).structured_content
    assert refused["ok"] is False and "next" not in refused  # its summary says what to do instead


async def _bad_then_good(index_dir: Path) -> list[Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir)],
        env={"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"},
        cwd=str(index_dir.parent),
    )
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_components", {"query": "format python", "kind": "skill"}),
        ("search_components", {}),
        ("search_components", {"query": "x " * 60_000}),
        ("get_component", {"id": "no/such/component"}),
        ("check_dependencies", {"ids": []}),
        ("search_components", {"query": "format python", "kinds": "skill", "k": 1}),
    ]
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        assert all(t.input_schema["additionalProperties"] is False for t in tools)
        return [await session.call_tool(tool, args) for tool, args in calls]


def test_over_stdio_each_refusal_is_one_line_and_the_server_keeps_serving(hashed_index: Index) -> None:
    *bad, good = anyio.run(_bad_then_good, hashed_index.path)  # a reader: no lock
    assert all(r.is_error and "\n" not in r.content[0].text for r in bad), [r.content[0].text[:200] for r in bad]
    assert "unknown argument(s) 'kind'" in bad[0].content[0].text
    assert "query is required" in bad[1].content[0].text
    assert "over this tool's limit" in bad[2].content[0].text
    assert not good.is_error and {r["kind"] for r in good.structured_content["results"]} == {"skill"}


def test_a_brief_reason_is_cut_at_a_word_and_nothing_fits_is_said_once(hashed_index: Index) -> None:
    """The brief `why` was cut mid-word ("keyword #…"), and a brief answer nothing fits
    said so twice, as its note and again among its warnings."""
    from skill_retriever.components.results import _cut
    from skill_retriever.components.service import ComponentService

    cut = _cut("found by graph #2, semantic #3, keyword #14, temporal #40", 44)
    assert cut == "found by graph #2, semantic #3, keyword #14…"
    assert _cut("x" * 50, 10) == "x" * 9 + "…"  # one long word: cut where it must be
    # A clause cut to its first word says nothing: the cut ends before it.
    why = "found by semantic #1, graph #2, keyword #2; words: format, code, indentation; 1 conflict: tabs"
    assert _cut(why, 80) == "found by semantic #1, graph #2, keyword #2; words: format, code, indentation…"
    service = ComponentService(hashed_index, Retriever(hashed_index, reranker=None))
    answer = service.search("bake sourdough bread at home").brief(len)
    assert answer["nothing_fits"] and "nothing in the catalogue fits" in answer["note"]
    assert not any("fits this well" in w for w in answer.get("warnings", []))
