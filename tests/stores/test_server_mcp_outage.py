"""`skill-retriever mcp` over an index on a real `chroma run` server that is down when
the MCP server starts, driven by the official SDK's stdio client.

It exited 2 before the MCP handshake, so Claude Code showed it as failed and never tried
again, although a running MCP server outlives an outage. Now it completes the handshake;
its searches answer from the index's own copy of its vectors in memory, with a warning
naming the server and how to start it, until the server answers, then search it without
a restart (``stores.server_down``). A missing or damaged index still fails at start.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from chroma_support import ChromaServer
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from server_index import index_on_server, numbered_skills

from skill_retriever.adapters.mcp_server import STATUS_URI, build_server
from skill_retriever.adapters.mcp_status import shown_address
from skill_retriever.cli import main
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.index import Index

# the sources under test (PYTHONPATH), not only the installed package
ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"} | {
    k: v for k, v in os.environ.items() if k == "PYTHONPATH"}
SKILLS = numbered_skills(6)
LAVA = Node(id="lava", kind="skill", name="lava", text="volcano lava eruption monitoring")


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


async def _status(session: ClientSession) -> dict[str, Any]:
    status: dict[str, Any] = json.loads((await session.read_resource(STATUS_URI)).contents[0].text)
    return status


def test_mcp_starts_while_the_server_is_down_and_searches_once_it_is_up(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    path = index_on_server(tmp_path / "ix", chroma_server.url, [*SKILLS, LAVA], linked=False)
    chroma_server.stop()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(path)], env=ENV
    )
    seen: dict[str, Any] = {}

    async def session_run() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            seen["init"] = (await session.initialize()).server_info.name
            seen["tools"] = {t.name for t in (await session.list_tools()).tools}
            seen["down"] = await session.call_tool("search", {"query": "volcano lava", "k": 1})
            seen["down_get"] = await session.call_tool("get_component", {"id": "lava"})
            seen["down_status"] = await _status(session)
            await anyio.to_thread.run_sync(chroma_server.start)  # same port, same data
            seen["up"] = await session.call_tool("search", {"query": "volcano lava", "k": 1})
            seen["up_status"] = await _status(session)
            await anyio.to_thread.run_sync(chroma_server.stop)  # an outage while it serves
            seen["again_status"] = await _status(session)

    async def run() -> None:
        with anyio.fail_after(180):
            await session_run()

    anyio.run(run)
    assert seen["init"] == "skill-retriever" and "search" in seen["tools"]
    for down in (seen["down"], seen["down_get"]):
        assert not down.is_error, _text(down)
    assert [r["id"] for r in seen["down"].structured_content["results"]] == ["lava"]
    said = " ".join(seen["down"].structured_content["warnings"])
    assert f"the Chroma server at {chroma_server.url} cannot be reached" in said, said
    assert f"chroma run --path <dir> --host 127.0.0.1 --port {chroma_server.port}" in said, said
    assert "own copy of its vectors in memory" in said, said
    assert not seen["up"].is_error, _text(seen["up"])
    assert [r["id"] for r in seen["up"].structured_content["results"]] == ["lava"]
    assert seen["up_status"]["nodes"] == len(SKILLS) + 1
    # the status resource names the server and says whether it answers, and since when not
    down, up, again = (seen[k]["chroma_server"] for k in ("down_status", "up_status", "again_status"))
    assert down["url"] == up["url"] == chroma_server.url
    assert down["reachable"] is False and down["down"] is True
    assert down["error"] == f"nothing listens at 127.0.0.1:{chroma_server.port} (connection refused)"
    assert "chroma run --path <dir>" in down["advice"]
    assert datetime.fromisoformat(down["unreachable_since"]) <= datetime.now(UTC)
    assert seen["down_status"]["nodes"] == len(SKILLS) + 1  # counted from the index itself
    assert "own copy of its vectors in memory" in down["reads"] and "writes are refused" in down["reads"]
    assert up == {"url": chroma_server.url, "reachable": True}
    assert again["reachable"] is False and again["unreachable_since"] >= down["unreachable_since"]
    assert seen["again_status"]["nodes"] == len(SKILLS) + 1  # its snapshot was taken: the counts stay


def test_the_status_shows_no_credentials_of_the_address(url: str, tmp_path: Path) -> None:
    path = index_on_server(tmp_path / "ix", url, [*SKILLS, LAVA], linked=False)
    manifest = mf.read_manifest(path)
    mf.write_manifest(path, {**manifest, "chroma_url": url.replace("://", "://reader:s3cret@")})
    with Index.open(path) as index:
        server = build_server(index, retriever=Retriever(index, reranker=None))

        async def read() -> str:
            async with Client(server) as client:
                return str((await client.read_resource(STATUS_URI)).contents[0].text)  # type: ignore[union-attr]

        said = anyio.run(read)
    assert "s3cret" not in said and "reader" not in said
    assert json.loads(said)["chroma_server"] == {"url": url, "reachable": True}


@pytest.mark.parametrize(("given", "shown"), [
    ("http://u:p@h:8000/?token=x#f", "http://h:8000/"),
    ("https://tok@[::1]:9000", "https://[::1]:9000"),
    ("h:8000", "h:8000"),  # as written, less what may be secret: no scheme added
])  # fmt: skip
def test_shown_address(given: str, shown: str) -> None:
    assert shown_address(given) == shown


def test_a_missing_index_still_fails_at_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--index-dir", str(tmp_path / "none")]) == 2
    assert "no index at" in capsys.readouterr().err


def test_a_damaged_index_on_a_down_server_still_fails_at_start(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "ix", chroma_server.url, [*SKILLS, LAVA], linked=False)
    chroma_server.stop()
    (path / mf.DATABASE).unlink()
    assert main(["mcp", "--index-dir", str(path)]) == 2
    assert "the index's items are gone" in capsys.readouterr().err
