"""A lost ``index.json`` of an index on a real `chroma run` server: ``repair`` (or a
writer's open) recreates it with the server link ``items.sqlite`` records, so the index
keeps searching through its collections; an explicit ``--chroma-url`` still wins; a
copied directory recovered never takes its original's collections; an index written
before the record existed is told how to get back onto its server."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from chroma_support import ChromaServer

from skill_retriever.cli import main
from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_link import SERVER_KEY
from skill_retriever.stores.server_moves import move_index_to_server, move_vectors_to_server
from skill_retriever.stores.vectors import OWNER_DIR_KEY, ChromaVectorStore, chroma_client


def _nodes(prefix: str, n: int) -> list[Node]:
    return [Node(id=f"{prefix}{i}", kind="skill", name=f"{prefix}-{i}", text=f"{prefix} skill number {i}") for i in range(n)]


def _built(path: Path, n: int, url: str | None = None) -> Path:
    nodes = _nodes(path.name.lower(), n)
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge(nodes[0].id, nodes[1].id, "DEPENDS_ON")])
    if url:
        move_vectors_to_server(path, url, embedder=HashingEmbedder())
    return path


def _names(manifest: dict[str, Any]) -> tuple[str, str]:
    prefix = manifest["collection_prefix"]
    return f"{prefix}-nodes", f"{prefix}-edges"


def _server(url: str) -> dict[str, tuple[int, str]]:
    """Every collection on the server: its vector count and owner directory."""
    client = chroma_client(url)
    out = {}
    for c in client.list_collections():
        col = client.get_collection(c.name)
        out[c.name] = (int(col.count()), str((col.metadata or {}).get(OWNER_DIR_KEY)))
    return out


def _repair(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> int:
    code = main(["repair", "--index-dir", str(path), *extra])
    capsys.readouterr()
    return code


def _warnings(caplog: pytest.LogCaptureFixture) -> str:
    return " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)


def test_repair_restores_the_server_link_and_searches_through_it(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _built(tmp_path / "A", 5, url)
    before, held = mf.read_manifest(index), _server(url)
    (index / mf.MANIFEST).unlink()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert _repair(capsys, index) == 0
    after = mf.read_manifest(index)
    for key in ("chroma_url", "collection_prefix", "index_id"):
        assert after[key] == before[key]
    assert f"restored its link to the Chroma server at {url}" in _warnings(caplog)
    assert _server(url) == held  # no new collections, nothing orphaned, nothing rewritten

    searched: list[str] = []
    search_many = ChromaVectorStore.search_many

    def spy(self: ChromaVectorStore, *args: Any, **kwargs: Any) -> Any:
        searched.append(self.name)
        return search_many(self, *args, **kwargs)

    monkeypatch.setattr(ChromaVectorStore, "search_many", spy)
    with Index.open(index) as reader:
        snap = reader.snapshot()
        assert snap._remote is not None
        hits = snap.search_nodes(snap.embed_query("a skill number 3"), 3)
    assert hits and searched == [_names(before)[0]]


def test_a_writers_open_restores_the_link_and_keeps_using_the_collections(url: str, tmp_path: Path) -> None:
    index = _built(tmp_path / "W", 4, url)
    before = mf.read_manifest(index)
    (index / mf.MANIFEST).unlink()
    with Index.open(index, writable=True) as writer:  # what repair does
        writer.upsert(_nodes("new", 2))
    assert mf.read_manifest(index)["collection_prefix"] == before["collection_prefix"]
    assert _server(url)[_names(before)[0]] == (6, str(index.resolve()))


def test_an_explicit_chroma_url_still_wins(
    url: str, chroma_server: ChromaServer, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    index = _built(tmp_path / "E", 3, url)
    before = mf.read_manifest(index)
    (index / mf.MANIFEST).unlink()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert _repair(capsys, index, "--chroma-url", chroma_server.url) == 0
    after = mf.read_manifest(index)
    assert after["chroma_url"] == chroma_server.url and after["collection_prefix"] != before["collection_prefix"]
    assert _server(chroma_server.url)[_names(after)[0]] == (3, str(index.resolve()))
    assert _server(url)[_names(before)[0]][0] == 3  # the other server's collections are left, and named
    assert f"the collections {' and '.join(_names(before))} on {url}" in _warnings(caplog)


def test_a_recovered_copy_never_touches_its_originals_collections(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _built(tmp_path / "O", 6, url)
    names = _names(mf.read_manifest(original))
    copy = tmp_path / "C"
    shutil.copytree(original, copy)
    (copy / mf.MANIFEST).unlink()
    held = _server(url)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert _repair(capsys, copy) == 0
    said = _warnings(caplog)
    assert "did not restore its link" in said and f"of which {copy} is a copy" in said
    assert f"move-to-server --index-dir {copy} --chroma-url {url}" in said
    assert "chroma_url" not in mf.read_manifest(copy)
    with Index.open(copy, writable=True) as writer:  # writes of the copy stay in the copy
        writer.delete(["o0", "o1", "o2"])
        writer.upsert(_nodes("copy", 2))
    assert _server(url) == held
    assert all(owner == str(original.resolve()) for name, (_, owner) in _server(url).items() if name in names)

    moved = move_index_to_server(copy, url, embedder=HashingEmbedder())  # the way out it names
    assert moved.previous.removed == () and _server(url)[names[0]] == (6, str(original.resolve()))
    (copy / mf.MANIFEST).unlink()  # now the copy's own collections come back with it
    assert _repair(capsys, copy) == 0
    assert mf.read_manifest(copy)["collection_prefix"] == moved.collections[0].removesuffix("-nodes")


def test_an_index_moved_with_mv_and_recovered_keeps_its_collections(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _built(tmp_path / "M", 4, url)
    names = _names(mf.read_manifest(before))
    after = tmp_path / "elsewhere" / "M"
    after.parent.mkdir()
    shutil.move(before, after)
    (after / mf.MANIFEST).unlink()
    assert _repair(capsys, after) == 0
    assert _names(mf.read_manifest(after)) == names
    assert _server(url)[names[0]] == (4, str(after.resolve()))


def test_an_index_that_records_no_link_is_told_how_to_get_back_onto_its_server(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    index = _built(tmp_path / "Old", 3)
    (index / mf.MANIFEST).unlink()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert _repair(capsys, index) == 0
    assert "Chroma server" not in _warnings(caplog)  # recorded as embedded: nothing to say

    db = sqlite3.connect(index / mf.DATABASE)
    with db:
        db.execute("DELETE FROM meta WHERE key = ?", (SERVER_KEY,))  # as an older version left it
    db.close()
    (index / mf.MANIFEST).unlink()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert _repair(capsys, index) == 0
    assert f"skill-retriever move-to-server --index-dir {index} --chroma-url URL" in _warnings(caplog)
    assert "chroma_url" not in mf.read_manifest(index)
