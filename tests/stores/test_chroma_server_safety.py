"""Indexes on a real `chroma run` server: copied index directories never share (and never
delete) each other's vectors, a reader creates no collection and notices a server that
lacks the index's vectors, repair says what it copied, and an unreachable server or a
bad URL is named with what to do."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from chroma_support import free_port

from skill_retriever.exceptions import ConfigError, IndexCorruptError, ServerUnreachableError
from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_vectors_to_server
from skill_retriever.stores.vectors import ChromaVectorStore, chroma_client


def _nodes(prefix: str, n: int) -> list[Node]:
    return [Node(id=f"{prefix}{i}", kind="skill", name=f"{prefix}-{i}", text=f"{prefix} skill number {i}") for i in range(n)]


def _build(path: Path, nodes: list[Node], edges: list[Edge] = ()) -> None:  # type: ignore[assignment]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, list(edges))


def _collections(url: str) -> set[str]:
    return {c.name for c in chroma_client(url).list_collections()}


def test_copied_indexes_moved_to_one_server_keep_their_own_vectors(url: str, tmp_path: Path) -> None:
    base = _nodes("a", 6)
    _build(tmp_path / "E", base, [Edge("a0", "a1", "DEPENDS_ON")])
    shutil.copytree(tmp_path / "E", tmp_path / "F1")
    shutil.copytree(tmp_path / "E", tmp_path / "F2")
    with Index.open(tmp_path / "F2", embedder=HashingEmbedder()) as f2:
        f2.upsert(_nodes("b", 4))
    move_vectors_to_server(tmp_path / "F1", url, embedder=HashingEmbedder())
    move_vectors_to_server(tmp_path / "F2", url, embedder=HashingEmbedder())
    with Index.open(tmp_path / "F1", embedder=HashingEmbedder(), writable=True):  # repair
        pass
    with Index.open(tmp_path / "F2", embedder=HashingEmbedder()) as f2:
        remote = f2.snapshot()._remote
        assert remote is not None and remote.nodes.count() == 10


def test_a_writer_refuses_collections_another_index_shares(url: str, tmp_path: Path) -> None:
    """Two indexes already sharing collection names (unmarked, as before index ids):
    the one whose sync would delete the other's vectors refuses, and says what to do."""
    _build(tmp_path / "G1", _nodes("g", 3))
    _build(tmp_path / "G2", _nodes("h", 3))
    shared = {"collection_prefix": "sr-shared-legacy", "chroma_url": url}
    client = chroma_client(url)
    for name in ("G1", "G2"):
        manifest = {k: v for k, v in mf.read_manifest(tmp_path / name).items() if k != "index_id"}
        mf.write_manifest(tmp_path / name, {**manifest, **shared})
    for name in ("sr-shared-legacy-nodes", "sr-shared-legacy-edges"):
        ChromaVectorStore(client, name, HashingEmbedder())  # unmarked, as before index ids
    with Index.open(tmp_path / "G2", embedder=HashingEmbedder(), writable=True):
        pass  # claims the empty collections and copies its vectors
    with pytest.raises(IndexCorruptError, match="move-to-server"):
        Index.open(tmp_path / "G1", embedder=HashingEmbedder(), writable=True)
    assert client.get_collection("sr-shared-legacy-nodes").count() == 3
    move_vectors_to_server(tmp_path / "G1", url, embedder=HashingEmbedder())  # its own collections now
    with Index.open(tmp_path / "G1", embedder=HashingEmbedder(), writable=True) as g1:
        assert g1.snapshot()._remote is not None
    assert client.get_collection("sr-shared-legacy-nodes").count() == 3


def test_a_reader_creates_nothing_and_warns_when_the_server_lacks_the_vectors(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _build(tmp_path / "R", _nodes("r", 5))
    before = _collections(url)
    manifest = mf.read_manifest(tmp_path / "R")
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        reader = Index.open(tmp_path / "R", embedder=HashingEmbedder(), chroma_url=url)
        snap = reader.snapshot()
        hits = snap.search_nodes(snap.embed_query("r skill number 3"), 3)
        reader.close()
    assert _collections(url) == before  # a query created no collection
    assert not any(name.startswith(manifest["collection_prefix"]) for name in _collections(url))
    assert hits and hits[0].id == "r3"  # the semantic channel still answers
    assert "repair --index-dir" in caplog.text


def test_a_reader_warns_when_the_collection_was_emptied(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _build(tmp_path / "S", _nodes("s", 5))
    move_vectors_to_server(tmp_path / "S", url, embedder=HashingEmbedder())
    prefix = mf.read_manifest(tmp_path / "S")["collection_prefix"]
    col = chroma_client(url).get_collection(f"{prefix}-nodes")
    col.delete(ids=["s0", "s1", "s2", "s3"])
    with (
        caplog.at_level(logging.WARNING, logger="skill_retriever"),
        Index.open(tmp_path / "S", embedder=HashingEmbedder()) as reader,
    ):
        assert reader.snapshot()._remote is None
    assert "holds 1 vectors" in caplog.text and "repair --index-dir" in caplog.text
    with Index.open(tmp_path / "S", embedder=HashingEmbedder(), writable=True) as writer:
        assert writer.repaired["server"] == 4  # what the repair copied back to the server
    with Index.open(tmp_path / "S", embedder=HashingEmbedder(), writable=True) as writer:
        assert writer.repaired["server"] == 0


def test_a_collection_deleted_behind_a_readers_back_is_named(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _build(tmp_path / "D", _nodes("d", 3))
    move_vectors_to_server(tmp_path / "D", url, embedder=HashingEmbedder())
    prefix = mf.read_manifest(tmp_path / "D")["collection_prefix"]
    with Index.open(tmp_path / "D", embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        chroma_client(url).delete_collection(f"{prefix}-nodes")
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):  # searched in memory, with a warning
            assert len(snap.search_nodes(snap.embed_query("d skill"), 3)) == 3
    assert f"no collection in {prefix}-nodes" in caplog.text and "repair --index-dir" in caplog.text


def test_an_unreachable_server_is_named_with_what_to_do(tmp_path: Path) -> None:
    _build(tmp_path / "U", _nodes("u", 3))
    dead = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ServerUnreachableError) as err:  # a writer needs it; a reader searches in memory
        Index.open(tmp_path / "U", embedder=HashingEmbedder(), chroma_url=dead, writable=True)
    assert dead in str(err.value) and "chroma run" in str(err.value)


@pytest.mark.parametrize("bad", ["ftp://127.0.0.1:8000", "http://127.0.0.1:8000/some/path", "http://:8000"])
def test_a_chroma_url_that_is_no_server_address_is_refused(tmp_path: Path, bad: str) -> None:
    _build(tmp_path / "B", _nodes("b", 2))
    with pytest.raises(ConfigError, match="http://host:port"):
        Index.open(tmp_path / "B", embedder=HashingEmbedder(), chroma_url=bad, writable=True)
    assert "chroma_url" not in mf.read_manifest(tmp_path / "B")
    with pytest.raises(ConfigError, match="http://host:port"):
        move_vectors_to_server(tmp_path / "B", bad, embedder=HashingEmbedder())


def test_a_server_gone_mid_process_is_named_with_what_to_do(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import httpx

    _build(tmp_path / "M", _nodes("m", 3))
    move_vectors_to_server(tmp_path / "M", url, embedder=HashingEmbedder())
    with Index.open(tmp_path / "M", embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert snap._remote is not None

        def refused(*args: object, **kwargs: object) -> object:
            raise httpx.ConnectError("[Errno 111] Connection refused")

        monkeypatch.setattr(snap._remote.nodes._col, "query", refused)  # type: ignore[attr-defined]
        assert len(snap.search_nodes(snap.embed_query("m skill"), 3)) == 3  # its own vectors, in memory
        said = " ".join(snap.search_notes())
        assert url in said and "chroma run" in said and "--chroma-url" in said, said
