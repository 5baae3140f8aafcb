"""Copies of an index directory, repeated moves and a server that is down, on a real
`chroma run` server: a copy (``cp -r``) never writes through its original's collections
and its readers search their own vectors; an index moved with ``mv`` takes its
collections along; a second ``move-to-server`` deletes the first move's collections
(never an original's, never those on another server); ``move-to-server --json``; and
``stats`` still shows the index when its server cannot be reached."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from chroma_support import ChromaServer
from chroma_support import collection_names as _names
from chroma_support import server_collections as _collections

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server, move_vectors_to_server
from skill_retriever.stores.vectors import (
    OWNER_DIR_KEY,
    OWNER_KEY,
    ChromaVectorStore,
    chroma_client,
)


def _nodes(prefix: str, n: int) -> list[Node]:
    return [Node(id=f"{prefix}{i}", kind="skill", name=f"{prefix}-{i}", text=f"{prefix} skill number {i}") for i in range(n)]


def _built(path: Path, nodes: list[Node], url: str | None = None) -> Path:
    """An index of ``nodes`` (and one edge) at ``path``, moved onto the server ``url``."""
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge(nodes[0].id, nodes[1].id, "DEPENDS_ON")])
    if url:
        move_vectors_to_server(path, url, embedder=HashingEmbedder())
    return path




def _count(url: str, name: str) -> int:
    return int(chroma_client(url).get_collection(name).count())


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_copy_never_writes_through_its_originals_collections(url: str, tmp_path: Path) -> None:
    original = _built(tmp_path / "A", _nodes("a", 6), url)
    shutil.copytree(original, tmp_path / "B")
    nodes, _ = _names(original)
    with pytest.raises(IndexCorruptError) as err:
        Index.open(tmp_path / "B", embedder=HashingEmbedder(), writable=True)
    message = str(err.value)
    assert "is a copy of" in message and str(original.resolve()) in message
    assert f"move-to-server --index-dir {tmp_path / 'B'} --chroma-url {url}" in message
    with Index.open(tmp_path / "B", embedder=HashingEmbedder()) as copy, pytest.raises(IndexCorruptError):
        copy.delete(["a0", "a1", "a2"])  # its first write would have deleted them from A's collections
    assert _count(url, nodes) == 6

    moved = move_index_to_server(tmp_path / "B", url, embedder=HashingEmbedder())  # the way out it names
    assert moved.previous.removed == ()  # A's collections, not the copy's to delete
    assert set(moved.previous.kept) == set(_names(original))
    assert all(str(original.resolve()) in why for why in moved.previous.kept.values())
    with Index.open(tmp_path / "B", embedder=HashingEmbedder()) as copy:
        copy.delete(["a0", "a1", "a2"])
    assert _count(url, nodes) == 6 and _count(url, _names(tmp_path / "B")[0]) == 3
    with Index.open(original, embedder=HashingEmbedder(), writable=True) as a:
        assert a.snapshot()._remote is not None and a.repaired["server"] == 0


def test_a_reader_of_a_copy_searches_its_own_vectors(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _built(tmp_path / "A", _nodes("a", 6), url)
    shutil.copytree(original, tmp_path / "B")
    changed = [Node(id=f"a{i}", kind="skill", name=f"a-{i}", text=f"copy text {i} about kites") for i in range(6)]
    with Index.open(tmp_path / "B", embedder=HashingEmbedder(), use_server=False) as copy:
        copy.upsert(changed)  # the copy's own texts, as many vectors, none of them on the server
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(tmp_path / "B") as reader:
        snap = reader.snapshot()
        assert snap._remote is None
        hits = snap.search_nodes(snap.embed_query("copy text 2 about kites"), 3)
    assert hits and hits[0].id == "a2"
    assert "is a copy of" in caplog.text and str(original.resolve()) in caplog.text
    with Index.open(original) as reader:  # the original still searches through its collections
        assert reader.snapshot()._remote is not None
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(tmp_path / "B"), "--json")
    assert code == 0 and json.loads(out)["server"]["copy_of"] == str(original.resolve())


def test_an_index_moved_with_mv_takes_its_collections_along(url: str, tmp_path: Path) -> None:
    before = _built(tmp_path / "A", _nodes("a", 4), url)
    after = tmp_path / "moved" / "A2"
    after.parent.mkdir()
    shutil.move(before, after)
    with Index.open(after, embedder=HashingEmbedder()) as reader:
        assert reader.snapshot()._remote is not None
    with Index.open(after, embedder=HashingEmbedder(), writable=True) as writer:
        writer.upsert(_nodes("c", 2))
    for name in _names(after):
        meta = chroma_client(url).get_collection(name).metadata
        assert meta[OWNER_DIR_KEY] == str(after.resolve())
    assert _count(url, _names(after)[0]) == 6


def test_collections_marked_before_directories_are_claimed_by_their_first_writer(url: str, tmp_path: Path) -> None:
    index = _built(tmp_path / "L", _nodes("l", 3))
    manifest = {**mf.read_manifest(index), "chroma_url": url}
    mf.write_manifest(index, manifest)
    client = chroma_client(url)
    for name in _names(index):  # as the version before directories were recorded left them
        ChromaVectorStore(client, name, HashingEmbedder(), owner=manifest["index_id"])
    with Index.open(index, embedder=HashingEmbedder(), writable=True) as writer:
        assert writer.repaired["server"] == 3 + 1
    for name in _names(index):
        meta = client.get_collection(name).metadata
        assert meta[OWNER_KEY] == manifest["index_id"] and meta[OWNER_DIR_KEY] == str(index.resolve())


def test_a_second_move_deletes_the_first_moves_collections(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = _built(tmp_path / "A", _nodes("a", 5), url)
    first = _names(index)
    assert set(first) <= _collections(url)
    earlier = Index.open(index, embedder=HashingEmbedder())  # a process that opened it before the move
    stale = earlier.snapshot()
    moved = move_index_to_server(index, url, embedder=HashingEmbedder())
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):  # its collections gone: searched in memory
        assert len(stale.search_nodes(stale.embed_query("a skill"), 3)) == 3
    assert "repair" not in caplog.text, caplog.text  # the next snapshot follows the move: nothing to mend
    earlier.close()
    assert set(moved.previous.removed) == set(first) and not moved.previous.kept
    assert moved.to_dict()["removed_collections"] == 2
    assert not set(first) & _collections(url)
    assert set(_names(index)) == set(moved.collections) <= _collections(url)
    with Index.open(index, embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert snap._remote is not None and snap._remote.nodes.count() == 5


def test_a_second_move_leaves_an_originals_collections(url: str, tmp_path: Path) -> None:
    """The original moves again after being copied: its first collections go, the copy's
    (own, from its own move) stay; and a copy moving again never deletes the original's."""
    original = _built(tmp_path / "A", _nodes("a", 4), url)
    shutil.copytree(original, tmp_path / "B")
    move_index_to_server(tmp_path / "B", url, embedder=HashingEmbedder())
    copy_names = _names(tmp_path / "B")
    again = move_index_to_server(original, url, embedder=HashingEmbedder())
    assert len(again.previous.removed) == 2
    assert set(copy_names) <= _collections(url)
    assert _count(url, copy_names[0]) == 4


def test_a_copy_is_told_to_leave_its_originals_collections(url: str, tmp_path: Path) -> None:
    """A copy's first move keeps the collections it was copied with, which its original
    still searches: it said "delete them there if unneeded", advice that loses the
    original's vectors."""
    original = _built(tmp_path / "A", _nodes("a", 4), url)
    shutil.copytree(original, tmp_path / "B")
    moved = move_index_to_server(tmp_path / "B", url, embedder=HashingEmbedder())
    (line,) = moved.previous.lines()
    assert "of which this index is a copy); leave them" in line and "delete" not in line
    assert moved.to_dict()["kept"]["in_use"] == sorted(_names(original))


def test_move_to_server_json_and_what_it_says_of_old_collections(
    url: str, chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(_built(tmp_path / "A", _nodes("a", 3)))
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", index, "--chroma-url", url, "--json")
    assert code == 0
    first = json.loads(out)
    assert first["nodes"] == 3 and first["edges"] == 1 and first["removed_collections"] == 0
    assert first["collections"] == list(_names(Path(index))) and first["kept"] is None
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", index, "--chroma-url", url)
    assert code == 0 and f"removed 2 collection(s) of the previous move from {url}" in out
    second = _names(Path(index))
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", index, "--chroma-url", chroma_server.url, "--json")
    assert code == 0
    moved = json.loads(out)
    assert moved["removed_collections"] == 0
    assert moved["kept"]["url"] == url and set(moved["kept"]["collections"]) == set(second)
    assert set(second) <= _collections(url)  # the old server was left alone
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", index, "--chroma-url", url)
    assert code == 0 and f"the server at {chroma_server.url} keeps" in out and "delete them there" in out


def test_stats_shows_the_index_when_its_server_is_down(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(_built(tmp_path / "A", _nodes("a", 4), chroma_server.url))
    nodes, edges = _names(Path(index))
    code, out, _ = _cli(capsys, "stats", "--index-dir", index)
    assert code == 0 and f"server: {chroma_server.url} holds {nodes} (4 vectors), {edges} (1 vectors)" in out
    code, out, _ = _cli(capsys, "stats", "--index-dir", index, "--json")
    server = json.loads(out)["server"]
    assert server["reachable"] is True and server["collections"] == {nodes: 4, edges: 1}

    chroma_server.stop()
    code, out, _ = _cli(capsys, "stats", "--index-dir", index)
    assert code == 0 and "nodes 4" in out
    assert f"the Chroma server at {chroma_server.url} cannot be reached" in out
    code, out, _ = _cli(capsys, "stats", "--index-dir", index, "--json")
    status = json.loads(out)
    assert code == 0 and status["nodes"] == 4
    assert status["server"]["url"] == chroma_server.url and status["server"]["reachable"] is False
    assert status["server"]["error"]
    code, out, _ = _cli(capsys, "query", "a skill", "--index-dir", index)  # searched in memory, saying why
    note = next(x for x in out.splitlines() if x.startswith("note: "))
    assert code == 0 and chroma_server.url in note and "chroma run" in note and "own copy of its vectors" in note
