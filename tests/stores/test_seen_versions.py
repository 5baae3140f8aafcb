"""The version a caller is shown moves only with writes of what it may see (found in a
privacy walk: the MCP status resource's ``version`` and every answer's ``snapshot_version``
counted the writes of private items too, so a caller who sees public items only watched
it move when nothing but a private item had changed). A real index (the hashing embedder),
read through a real MCP client and the Python ``Retriever``."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from mcp import Client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _node(i: str, access: tuple[str, ...] = ()) -> Node:
    return Node(id=i, kind=NodeKind.SKILL, name=i, text=f"{i}: roll back a deploy with helm", access=access)


def _shown(ix: Path, principals: list[str]) -> tuple[int, int, int, int]:
    """The status resource's version, the MCP search's and the Python search's (attribute, stats)."""
    index = Index.open(ix)
    try:
        server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)

        async def go() -> tuple[int, int]:
            async with Client(server) as client:
                status = json.loads((await client.read_resource("skill-retriever://status")).contents[0].text)
                found: dict[str, Any] = (await client.call_tool("search", {"query": "roll back", "detail": "full"})).structured_content
                return status["version"], found["snapshot_version"]

        mcp_status, mcp_search = asyncio.run(go())
        with Retriever(index, reranker=None) as retriever:
            response = retriever.search("roll back", principals=principals)
        return mcp_status, mcp_search, response.snapshot_version, response.stats["plan_query"]["snapshot"]
    finally:
        index.close()


def _write(ix: Path, *, upsert: tuple[Node, ...] = (), delete: tuple[str, ...] = ()) -> None:
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        if upsert:
            index.upsert(list(upsert))
        if delete:
            index.delete(list(delete))


def test_a_private_write_moves_no_version_a_public_caller_reads(tmp_path: Path) -> None:
    ix = tmp_path / "index"
    _write(ix, upsert=(_node("public-a"),))  # version 1
    _write(ix, upsert=(_node("secret-a", ("bob",)),))  # 2
    _write(ix, upsert=(_node("secret-a", ("bob",)).with_changes(text="secret-a: now about helm charts"),))  # 3
    _write(ix, upsert=(_node("secret-b", ("alice",)),))  # 4
    assert _shown(ix, []) == (1, 1, 1, 1)
    assert _shown(ix, ["bob"]) == (3, 3, 3, 3)
    assert _shown(ix, ["*"]) == (4, 4, 4, 4)
    _write(ix, delete=("secret-a",))  # 5: bob's item goes
    assert _shown(ix, [])[0] == 1 and _shown(ix, ["bob"])[0] == 5 and _shown(ix, ["alice"])[0] == 4
    _write(ix, upsert=(_node("public-a", ("bob",)),))  # 6: a public item made private is a change the public sees
    assert _shown(ix, [])[0] == 6 and _shown(ix, ["alice"])[0] == 6
    _write(ix, upsert=(_node("public-b"),))  # 7
    assert _shown(ix, []) == (7, 7, 7, 7)


def test_an_index_of_public_items_shows_its_own_version_to_everyone(tmp_path: Path) -> None:
    ix = tmp_path / "index"
    for i in range(3):
        _write(ix, upsert=(_node(f"public-{i}"),))
    assert _shown(ix, []) == _shown(ix, ["*"]) == (3, 3, 3, 3)


def test_an_index_written_before_shows_its_version_to_everyone_until_its_next_write(tmp_path: Path) -> None:
    ix = tmp_path / "index"
    _write(ix, upsert=(_node("public-a"), _node("secret-a", ("bob",))))
    _write(ix, upsert=(_node("secret-b", ("bob",)),))
    with sqlite3.connect(ix / "items.sqlite") as db:  # as an index written before versions were kept by access
        db.execute("DELETE FROM meta WHERE key = 'seen_versions'")
    db.close()
    assert _shown(ix, [])[0] == _shown(ix, ["bob"])[0] == 2  # every caller was shown 2 already
    _write(ix, upsert=(_node("secret-c", ("bob",)),))
    assert _shown(ix, [])[0] == 2 and _shown(ix, ["bob"])[0] == 3
