"""A ``cp -r`` copy moving to another Chroma server, and the spellings of one server, on
real `chroma run` servers: a copy that ``repair --chroma-url`` moves to another server gets
collections of its own (it kept its original's names and id there, so the original,
moved to that server later, was refused as a copy of its copy, and that failing command
had already rewritten the original's ``index.json``); a copy moved off its original's
server is told to leave the original's collections there, never to delete them;
``localhost`` and ``127.0.0.1`` are one server to ``move-to-server`` as to ``repair``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from chroma_support import CHROMA, ChromaServer, free_port
from chroma_support import collection_names as _names
from chroma_support import server_collections as _collections
from cli_calls import run as _cli

from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import (
    move_index_to_server,
    move_vectors_to_server,
    saved_manifest,
    server_switch,
)
from skill_retriever.stores.vectors import OWNER_DIR_KEY, OWNER_KEY, chroma_client


@pytest.fixture(scope="module")
def other(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second `chroma run` server of this module."""
    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed")
    server = ChromaServer(tmp_path_factory.mktemp("chroma-other"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def _built(path: Path, url: str, n: int = 4) -> Path:
    nodes = [Node(id=f"n{i}", kind="skill", name=f"n-{i}", text=f"skill number {i} of {path.name}") for i in range(n)]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge("n0", "n1", "DEPENDS_ON")])
    move_vectors_to_server(path, url, embedder=HashingEmbedder())
    return path




def test_a_copy_repaired_onto_another_server_gets_its_own_collections_and_the_original_follows(
    url: str, other: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _built(tmp_path / "A", other)
    copy = tmp_path / "Acopy"
    shutil.copytree(original, copy)
    theirs = mf.read_manifest(original)
    code, out, err = _cli(capsys, "repair", "--index-dir", str(copy), "--chroma-url", url)
    assert code == 0, err
    mine = mf.read_manifest(copy)
    assert mine["chroma_url"] == url
    assert mine["collection_prefix"] != theirs["collection_prefix"] and mine["index_id"] != theirs["index_id"]
    marks = chroma_client(url).get_collection(_names(copy)[0]).metadata
    assert marks[OWNER_KEY] == mine["index_id"] and marks[OWNER_DIR_KEY] == str(copy.resolve())
    # The original's collections on its server are its own: leave them, never "delete them".
    kept = [line for line in out.splitlines() if line.startswith(f"the server at {other} keeps")]
    assert kept and f"it belongs to {original.resolve()}, of which this index is a copy); leave them" in kept[0]
    assert set(_names(original)) <= _collections(other)

    # The original now moves to the copy's server: once refused as "a copy of Acopy", with
    # its index.json rewritten all the same; now it gets collections of its own there too.
    with Index.open(original, chroma_url=url, writable=True) as index:
        assert index.status()["chroma_url"] == url
    moved = mf.read_manifest(original)
    assert moved["chroma_url"] == url and moved["collection_prefix"] not in (theirs["collection_prefix"], mine["collection_prefix"])
    for path in (original, copy):  # each searches its own collections on the server, in step
        code, out, _ = _cli(capsys, "stats", "--index-dir", str(path), "--json")
        server = json.loads(out)["server"]
        assert code == 0 and server["copy_of"] is None
        assert list(server["collections"].values()) == [4, 1]


def test_repair_says_structured_what_it_left_on_the_server_of_the_original(
    url: str, other: str, tmp_path: Path
) -> None:
    original = _built(tmp_path / "B", url)
    copy = tmp_path / "Bcopy"
    shutil.copytree(original, copy)
    before = saved_manifest(copy)
    with Index.open(copy, chroma_url=other, writable=True) as index:
        switch = server_switch(before, index.status().get("chroma_url"), index.path)
    assert switch[0] == f"the index now uses the Chroma server at {other} instead of {url}"
    assert switch.kept is not None and switch.kept["url"] == url
    assert sorted(switch.kept["collections"]) == sorted(_names(original)) == switch.kept["in_use"]


def test_a_copy_moved_to_another_server_is_told_to_leave_its_originals_collections(
    url: str, other: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _built(tmp_path / "C", url)
    copy = tmp_path / "Ccopy"
    shutil.copytree(original, copy)
    code, out, err = _cli(capsys, "move-to-server", "--index-dir", str(copy), "--chroma-url", other)
    assert code == 0, err
    kept = [line for line in out.splitlines() if line.startswith(f"the server at {url} keeps")]
    said = (
        f"the server at {url} keeps {', '.join(_names(original))} from before (it belongs to "
        f"{original.resolve()}, of which this index is a copy); leave them"
    )
    assert kept == [said]
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(original))
    assert code == 0 and f"server: {url} holds {', '.join(f'{n} ({c} vectors)' for n, c in zip(_names(original), (4, 1), strict=True))}" in out


def test_a_copy_whose_original_is_gone_is_told_its_collections_may_be_deleted(
    url: str, other: str, tmp_path: Path
) -> None:
    original = _built(tmp_path / "D", url)
    copy = tmp_path / "Dcopy"
    shutil.copytree(original, copy)
    names = _names(original)
    shutil.rmtree(original)
    moved = move_index_to_server(copy, other, embedder=HashingEmbedder())
    assert moved.previous.in_use == frozenset()
    assert moved.previous.lines()[0].endswith("delete them there if unneeded")
    assert set(moved.previous.kept) == set(names)


def test_localhost_and_127_0_0_1_are_one_server_to_move_to_server(url: str, tmp_path: Path) -> None:
    path = _built(tmp_path / "E", url)
    first = _names(path)
    port = url.rsplit(":", 1)[1]
    moved = move_index_to_server(path, f"http://localhost:{port}", embedder=HashingEmbedder())
    assert set(moved.previous.removed) == set(first) and not moved.previous.kept
    assert not set(first) & _collections(url)


def test_a_failed_switch_leaves_index_json_as_it_was(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _built(tmp_path / "F", url)
    before = (path / mf.MANIFEST).read_bytes()
    nowhere = f"http://127.0.0.1:{free_port()}"
    code, _, err = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", nowhere)
    assert code == 2 and nowhere in err
    code, _, err = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", "   ")
    assert code == 2 and "is blank" in err and len(err.strip().splitlines()) == 1
    # a blank URL is no way back to the embedded store: the line says what is
    assert "keeps the server its index.json names" in err and "skill-retriever move-to-embedded --index-dir DIR" in err
    assert (path / mf.MANIFEST).read_bytes() == before
