"""An MCP server whose index directory was deleted and built again says so to the agent.

The snapshot raises IndexNotFoundError ("... deleted and another index built in its place since the index was
opened; open the index again (an MCP server: restart it)"), but each tool read the view
outside its own error handling, and the SDK (mcp 2) hides any exception a tool does not
raise as ToolError behind a bare "Error executing tool <name>": the agent could not tell
that the server needed a restart (found over a real stdio client in a walkthrough).
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from skill_retriever.adapters.mcp_arguments import ResourceError, ToolError
from skill_retriever.adapters.mcp_server import STATUS_URI, build_server
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SAID = ("was deleted and another index built in its place since the index was opened; open the index again to read the "
        "new one (an MCP server: restart it)")
CALLS = {
    "search": {"query": "run migrations"},
    "search_components": {"query": "run migrations"},
    "get_component": {"id": "migrate"},
    "check_dependencies": {"ids": ["migrate"]},
    "install_components": {"ids": ["migrate"]},
}


def _build(path: Path) -> None:
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    index.upsert([Node("db/migrate", NodeKind.SKILL, "migrate", "run migrations", description="runs them")], [])
    index.close()


def test_every_tool_and_the_status_say_the_index_was_replaced(tmp_path: Path) -> None:
    path = tmp_path / "idx"
    _build(path)
    index = Index.open(path, embedder=HashingEmbedder())
    server = build_server(index, retriever=Retriever(index, reranker=None))
    assert asyncio.run(server.call_tool("get_component", {"id": "migrate"})).structured_content["name"] == "migrate"
    shutil.rmtree(path)
    _build(path)
    for tool, args in CALLS.items():
        with pytest.raises(ToolError) as caught:
            asyncio.run(server.call_tool(tool, {**args, "target": str(tmp_path)} if tool == "install_components" else args))
        assert str(caught.value) == f"Error executing tool {tool}: {path}/items.sqlite {SAID}"
    with pytest.raises(ResourceError, match=r"items\.sqlite " + SAID.replace("(", r"\(").replace(")", r"\)")):
        asyncio.run(server.read_resource(STATUS_URI))
    index.close()
