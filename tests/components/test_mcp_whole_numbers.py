"""The MCP tools' counts (``k``, ``budget``): JSON has one number type, and many clients
(JavaScript ones above all) send 5 as 5.0. An integral float is taken as the whole number
it is; a fraction, a boolean or text is still refused, in words that name the argument."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def call(server: Any, tool: str, args: dict[str, Any]) -> str:
    """The tool's answer, or its error's text."""
    try:
        return str(asyncio.run(server.call_tool(tool, args)))
    except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's error; its text is the answer
        return f"error: {exc}"


@pytest.mark.parametrize("args", [{"k": 2.0}, {"budget": 400.0}, {"k": 3.0, "budget": 500.0}])
def test_an_integral_float_is_a_whole_number(hashed_index: Index, args: dict[str, Any]) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    as_float = call(server, "search_components", {"query": "format python", **args})
    as_int = call(server, "search_components", {"query": "format python", **{k: int(v) for k, v in args.items()}})
    assert not as_float.startswith("error:"), as_float[:300]
    assert as_float == as_int  # 2.0 is 2: the same answer


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ({"k": 5.5}, "k must be a whole number (a valid integer such as 5), got 5.5"),
        ({"k": True}, "k must be a whole number (a valid integer such as 5), got true"),
        ({"budget": False}, "budget must be a whole number (a valid integer such as 5), got false"),
        ({"k": "5"}, "k must be a whole number (a valid integer such as 5), not the text '5'"),
        ({"budget": 99.9}, "budget must be a whole number (a valid integer such as 5), got 99.9"),
        ({"k": float("inf")}, "k must be a whole number (a valid integer such as 5), got inf"),
    ],
)
def test_a_fraction_a_boolean_or_text_is_refused_by_name(hashed_index: Index, args: dict[str, Any], said: str) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    answer = call(server, "search_components", {"query": "format python", **args})
    assert answer.startswith("error:") and said in answer, answer[:400]


def test_the_schema_still_asks_for_integers(hashed_index: Index) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    tool = next(t for t in asyncio.run(server.list_tools()) if t.name == "search_components")
    props = tool.input_schema["properties"]
    assert props["k"]["type"] == "integer" and props["k"]["default"] == 5
    assert {"type": "integer", "minimum": 0} in props["budget"]["anyOf"]


async def _over_stdio(index_dir: Path) -> tuple[Any, Any, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir)],
        env={"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"},
        cwd=str(index_dir.parent),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        query = "format python code with ruff"
        as_float = await session.call_tool("search_components", {"query": query, "k": 2.0, "budget": 800.0})
        as_int = await session.call_tool("search_components", {"query": query, "k": 2, "budget": 800})
        fraction = await session.call_tool("search_components", {"query": query, "k": 2.5})
        return as_float, as_int, fraction


def test_a_client_sending_json_floats_gets_an_answer(hashed_index: Index) -> None:
    """Through the SDK's stdio client: the numbers cross the wire as JSON (2.0, 800.0)."""
    as_float, as_int, fraction = anyio.run(_over_stdio, hashed_index.path)  # a reader: no lock
    assert not as_float.is_error, as_float.content
    assert as_float.structured_content == as_int.structured_content
    assert fraction.is_error and "k must be a whole number" in fraction.content[0].text
