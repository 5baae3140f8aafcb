"""MCP tool calls through a real MCP client connected in-process: their answers, or their
error texts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mcp import Client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def tool_errors(ix: Path, principals: list[str], calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each call's error text, as a caller holding ``principals`` reads it; a call that
    does not fail fails the test."""
    index = Index.open(ix)
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)

    async def go() -> list[str]:
        said = []
        async with Client(server) as client:
            for tool, args in calls:
                result = await client.call_tool(tool, args)
                assert result.is_error, result
                said.append(" ".join(getattr(c, "text", "") for c in result.content))
        return said

    try:
        return asyncio.run(go())
    finally:
        index.close()


def tool_answers(ix: Path, principals: list[str], calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Each named call's structured answer, as a caller holding ``principals`` gets it; a
    call that fails fails the test."""
    index = Index.open(ix)
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)

    async def go() -> dict[str, Any]:
        out = {}
        async with Client(server) as client:
            for name, (tool, args) in calls.items():
                result = await client.call_tool(tool, args)
                assert not result.is_error, result.content
                out[name] = result.structured_content
        return out

    try:
        return asyncio.run(go())
    finally:
        index.close()
