"""``skill-retriever mcp`` over stdio, as a walkthrough with a real MCP client met it:

- a ``tools/call`` whose ``arguments`` is no JSON object got -32602 "Invalid request
  parameters" with empty data, naming nothing; it now says what is wrong;
- the stderr line ``ready (712 items ...)`` counted every item even for ``--principals
  alice``, who sees fewer; it now counts what the caller may see, as the status resource;
- the schemas' descriptions, bounds and the tool annotations reach a real client.
"""

from __future__ import annotations

import asyncio
import json
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp_lines import read_reply, send_line

from skill_retriever.adapters.mcp_arguments import MAX_K
from skill_retriever.adapters.mcp_bad_lines import bad_tool_call
from skill_retriever.adapters.mcp_server import STATUS_URI
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})  # fmt: skip
SKILLS = {
    "format-code": "---\nname: format-code\ndescription: Format Python code.\n---\nformat\n",
    "lint-code": "---\nname: lint-code\ndescription: Lint Python code.\n---\nlint\n",
    "vault-unseal": "---\nname: vault-unseal\ndescription: Unseal the vault.\naccess: [secops]\n---\nunseal\n",
}


def _start(index_dir: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir), *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )  # fmt: skip


@pytest.fixture(scope="module")
def private_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three skills, one behind ``access: [secops]``."""
    root = tmp_path_factory.mktemp("fix-server-stdio")
    for name, text in SKILLS.items():
        (root / "src" / "skills" / name).mkdir(parents=True)
        (root / "src" / "skills" / name / "SKILL.md").write_text(text, encoding="utf-8")
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    try:
        index_sources(index, [root / "src"], "skills")
    finally:
        index.close()
    return root / "index"


@pytest.fixture(scope="module")
def server(sample_index_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = _start(sample_index_path)
    send_line(process, INITIALIZE)
    assert read_reply(process)["id"] == 1
    send_line(process, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield process
    process.kill()
    process.wait()


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"name": "search", "arguments": "notadict"},
         ('tools/call params.arguments must be a JSON object of the tool\'s arguments by name, such as '
          '{"query": "..."}, got a string; send {} when there are none')),
        ({"name": "search", "arguments": ["docker"]}, "tools/call params.arguments must be a JSON object"),
        ({"name": "search", "arguments": 5}, "got a number; send {} when there are none"),
        ({"arguments": {"query": "docker"}},
         "tools/call needs params.name, the tool's name as a string (tools/list lists them), got none"),
        ({"name": 7, "arguments": {}}, "tools/call needs params.name, the tool's name as a string"),
    ],
)  # fmt: skip
def test_a_tool_call_with_bad_params_says_which(
    server: subprocess.Popen[bytes], params: dict[str, object], said: str
) -> None:
    send_line(server, json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params}))
    answer = read_reply(server)
    assert answer["id"] == 9 and answer["error"]["code"] == -32602, answer
    assert said in answer["error"]["message"], answer
    assert answer["error"]["message"] != "Invalid request parameters"
    call = {"name": "search", "arguments": {"query": "format python", "k": 1}}
    send_line(server, json.dumps({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": call}))
    assert read_reply(server)["result"]["structuredContent"]["results"]  # still serving


def test_good_tool_calls_and_other_messages_pass() -> None:
    from mcp import types

    def request(method: str, params: dict[str, object] | None) -> types.JSONRPCRequest:
        return types.JSONRPCRequest(jsonrpc="2.0", id=1, method=method, params=params)

    assert bad_tool_call(request("tools/call", {"name": "search", "arguments": {"query": "x"}})) is None
    assert bad_tool_call(request("tools/call", {"name": "search"})) is None  # no arguments: none
    assert bad_tool_call(request("tools/call", {"name": "search", "arguments": None})) is None
    assert bad_tool_call(request("prompts/get", {"name": "x", "arguments": "s"})) is None  # not ours to word


def _ready_line(process: subprocess.Popen[bytes], wait: float = 120) -> str:
    """The server's stderr up to its ready line."""
    assert process.stderr is not None
    seen = []
    while True:
        ready, _, _ = select.select([process.stderr], [], [], wait)
        assert ready, f"no ready line within {wait} s: {seen}"
        line = process.stderr.readline().decode()
        assert line, f"stderr closed before the ready line: {seen}"
        seen.append(line)
        if "skill-retriever: ready (" in line:
            return line


@pytest.mark.parametrize(
    ("principals", "count"),
    [(None, "3 items;"), ("alice", "2 items visible to alice;"), ("secops", "3 items visible to secops;"),
     ("", "2 items that are public;")],
)  # fmt: skip
def test_the_ready_line_counts_what_the_caller_may_see(private_index: Path, principals: str | None, count: str) -> None:
    process = _start(private_index, *(() if principals is None else ("--principals", principals)))
    try:
        send_line(process, INITIALIZE)
        assert read_reply(process)["id"] == 1
        assert f"skill-retriever: ready ({count} warmed in " in _ready_line(process)
    finally:
        process.kill()
        process.wait()


def test_a_real_client_sees_the_descriptions_bounds_and_hints(private_index: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(private_index), "--principals", "alice"],
        env=ENV,
    )

    async def run() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            assert "call search with kinds plugin" in (init.instructions or "")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            for tool in tools.values():
                assert all(p.get("description") for p in tool.input_schema["properties"].values()), tool.name
                assert tool.annotations is not None
            assert tools["search"].annotations.read_only_hint is True
            assert tools["install_components"].annotations.destructive_hint is True
            assert tools["search_components"].input_schema["properties"]["k"]["maximum"] == MAX_K
            over = await session.call_tool("search", {"query": "format python", "k": MAX_K + 1})
            assert over.is_error and f"k must be at most {MAX_K}" in over.content[0].text
            status = json.loads((await session.read_resource(STATUS_URI)).contents[0].text)
            assert status["nodes"] == 2  # what the ready line counts for alice too
            empty = await session.call_tool("get_component", {"id": ""})
            assert empty.is_error and "id is empty" in empty.content[0].text

    asyncio.run(run())
