"""An index moved to a Chroma server (``skill-retriever move-to-server``, run in another
process as a user would) while this process has it open: the open index searches where
``index.json`` now says from its next snapshot on, without reopening. It finds an item
added after the move and not one removed after it, its own later write lands in the
collections the index now uses (never in ones nobody reads), and a server it cannot reach
fails its searches instead of leaving it on the old vectors (``stores.link_watch``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chroma_support import ChromaServer

from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.server_link import recorded_link
from skill_retriever.stores.server_moves import move_index_to_server
from skill_retriever.stores.vectors import chroma_client

TEXTS = {
    "alpha": "alpha apple orchard fruit",
    "beta": "beta bridge river steel",
    "gamma": "gamma galaxy star telescope",
    "delta": "delta desert sand dune",
}


def _node(node_id: str) -> Node:
    return Node(id=node_id, kind="skill", name=node_id, text=TEXTS[node_id])


def _top(index: Index, node_id: str) -> list[str]:
    """What the semantic channel of ``index`` finds first for ``node_id``'s own text."""
    snap = index.snapshot()
    return [h.id for h in snap.search_nodes(snap.embed_query(TEXTS[node_id]), 2)]


def _move(path: Path, url: str) -> str:
    """``skill-retriever move-to-server`` in another process; what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "skill_retriever.cli", "move-to-server", "--index-dir", str(path), "--chroma-url", url],
        check=False, capture_output=True, text=True, timeout=120, env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _collection_ids(url: str, name: str) -> set[str]:
    return set(chroma_client(url).get_collection(name).get(include=[])["ids"])


def _node_collection(path: Path) -> str:
    return f"{mf.read_manifest(path)['collection_prefix']}-nodes"


@pytest.mark.parametrize("start", ["embedded", "on the server"])
def test_an_open_index_follows_a_move_made_by_another_process(
    url: str, tmp_path: Path, start: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as first:
        first.upsert([_node("alpha"), _node("beta")])
    if start == "on the server":
        move_index_to_server(path, url, embedder=HashingEmbedder())
    before = _node_collection(path)
    a = Index.open(path, embedder=HashingEmbedder())  # 1. a long-lived reader (an MCP server, say)
    try:
        assert _top(a, "beta")[0] == "beta"
        said = _move(path, url)  # 2. another process moves the index (again)
        assert "search the new ones from their next query" in said or start == "embedded"
        with Index.open(path, embedder=HashingEmbedder(), writable=True) as b:  # 3. and writes
            b.upsert([_node("gamma")])
            b.delete(["beta"])
        now = _node_collection(path)
        assert now != before

        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            assert _top(a, "gamma")[0] == "gamma"  # 4. added after the move: found
            assert "beta" not in _top(a, "beta")  # removed after the move: gone
            snap = a.snapshot()
        assert snap._remote is not None and snap._remote.nodes.name == now  # through the server, as index.json says
        assert a.status()["chroma_url"] == url
        assert "repair" not in caplog.text  # the new collections are in step: no fallback, no warning

        a.upsert([_node("delta")])  # a write through A after the move
        assert _collection_ids(url, now) == {"alpha", "gamma", "delta"}  # lands where the index reads
        if start == "on the server":  # the deleted collections were not made again for it
            assert before not in {c.name for c in chroma_client(url).list_collections()}
        assert _top(a, "delta")[0] == "delta"
    finally:
        a.close()
    items = ItemStore(path / mf.DATABASE, writable=False)
    try:  # what a lost index.json would be recreated from names the new collections too
        link = recorded_link(items)
        assert link is not None and f"{link['collection_prefix']}-nodes" == now
    finally:
        items.close()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(path) as fresh:
        assert _top(fresh, "delta")[0] == "delta"
        assert fresh.snapshot()._remote is not None  # in step: the fresh reader searches the server
    assert "repair" not in caplog.text


def test_a_move_to_a_server_it_cannot_reach_searches_in_memory_saying_so_until_the_server_is_back(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as first:
        first.upsert([_node("alpha"), _node("beta")])
    with Index.open(path, embedder=HashingEmbedder()) as a:
        assert _top(a, "alpha")[0] == "alpha"
        _move(path, chroma_server.url)
        chroma_server.stop()
        down = a.snapshot()  # not silently on the vectors it searched before: each answer says why
        assert down._remote is None and f"{chroma_server.url} cannot be reached" in " ".join(down.search_notes())
        assert _top(a, "beta")[0] == "beta"
        chroma_server.start()  # the same port and data
        monkeypatch.setattr(remote, "RECHECK_S", 0.0)
        a._retake._next = 0.0  # its next look at the server is due now
        assert _top(a, "beta")[0] == "beta"
        snap = a.snapshot()
        assert snap._remote is not None and snap._remote.nodes.name == _node_collection(path)


def test_a_first_write_after_a_move_goes_where_the_index_now_reads(url: str, tmp_path: Path) -> None:
    """A reader that writes without searching after the move: it becomes the writer under
    the lock, where it reads the link again, instead of the one it opened with."""
    path = tmp_path / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as first:
        first.upsert([_node("alpha"), _node("beta")])
    move_index_to_server(path, url, embedder=HashingEmbedder())
    before = _node_collection(path)
    with Index.open(path, embedder=HashingEmbedder()) as a:
        _move(path, url)
        a.upsert([_node("gamma")])
        assert a.status()["chroma_url"] == url
    now = _node_collection(path)
    assert _collection_ids(url, now) == {"alpha", "beta", "gamma"}
    assert before not in {c.name for c in chroma_client(url).list_collections()}  # not made again
    assert mf.read_manifest(path)["collection_prefix"] == now.removesuffix("-nodes")  # nor named again
