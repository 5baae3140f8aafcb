"""``move-to-server`` to a server that cannot be used, on a real `chroma run` server: it
fails in one line and records nothing (it recorded collections it never made, which
every later move then reported as an interrupted move's leftovers); ``https`` spoken to
a plain-http server is one line, not chromadb's raw ``ValueError``; a blank
``--chroma-url`` is refused; ``--json`` says that its counts are vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chroma_support import free_port
from cli_calls import run as _cli

from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.move_leftovers import PENDING_KEY


def _built(path: Path) -> Path:
    nodes = [Node(id=f"n{i}", kind="skill", name=f"n-{i}", text=f"skill number {i}") for i in range(3)]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge("n0", "n1", "DEPENDS_ON")])
    return path


def _pending(path: Path) -> str | None:
    items = ItemStore(path / mf.DATABASE, writable=False)
    try:
        return items.get_meta(PENDING_KEY)
    finally:
        items.close()


def test_a_move_to_a_server_that_cannot_be_used_records_nothing(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _built(tmp_path / "idx")
    before = (path / mf.MANIFEST).read_bytes()
    port = url.rsplit(":", 1)[1]
    for bad, said in (
        (f"http://127.0.0.1:{free_port()}", "cannot be reached"),
        ("   ", "is blank"),
        (f"https://127.0.0.1:{port}", "https"),  # the server speaks plain http
    ):
        code, out, err = _cli(capsys, "move-to-server", "--index-dir", str(path), "--chroma-url", bad)
        assert code == 2 and out == "", (bad, out)
        (line,) = err.strip().splitlines()
        # a blank address is an argument error of the command; a server that fails is not
        prefix = "skill-retriever move-to-server: error: " if not bad.strip() else "skill-retriever: error: "
        assert line.startswith(prefix) and said in line, line
        assert not _pending(path), bad  # no collections named that were never made
        assert (path / mf.MANIFEST).read_bytes() == before
    code, out, err = _cli(capsys, "move-to-server", "--index-dir", str(path), "--chroma-url", url, "--json")
    assert code == 0, err
    moved = json.loads(out)
    assert moved["leftovers"] == [] and moved["removed"] == []  # nothing from the failed tries


def test_move_json_says_its_counts_are_vectors(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _built(tmp_path / "idx")
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", str(path), "--chroma-url", url, "--json")
    moved = json.loads(out)
    assert code == 0 and (moved["node_vectors"], moved["edge_vectors"]) == (3, 1)
    assert (moved["nodes"], moved["edges"]) == (3, 1)  # the old keys, for readers of older versions
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(path), "--json")
    vectors = json.loads(out)["vectors"]
    assert (vectors["nodes"], vectors["edges"]) == (moved["node_vectors"], moved["edge_vectors"])


def test_move_json_names_the_vectors_and_the_index_apart(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "nodes" and "edges" count vectors: "edges": 0 for an index of 1231 edges, none of a
    # kind that gets a vector (MENTIONS, PART_OF); "vectors" and "index" say which is which.
    path = tmp_path / "idx"
    nodes = [Node(id=f"n{i}", kind="skill", name=f"n-{i}", text=f"skill number {i}") for i in range(3)]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge("n0", "n1", "DEPENDS_ON"), Edge("n2", "n0", "PART_OF"), Edge("n1", "n2", "MENTIONS")])
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", str(path), "--chroma-url", url, "--json")
    moved = json.loads(out)
    assert code == 0 and moved["vectors"] == {"nodes": 3, "edges": 1} and moved["index"] == {"nodes": 3, "edges": 3}, moved
    assert (moved["nodes"], moved["edges"], moved["node_vectors"], moved["edge_vectors"]) == (3, 1, 3, 1)  # kept
    code, out, _ = _cli(capsys, "move-to-server", "--index-dir", str(path), "--chroma-url", url)
    assert code == 0 and "1 edge vectors" in out and "the index's 3 nodes and 3 edges" in out, out


@pytest.mark.parametrize("command", ["stats", "query"])
def test_a_blank_chroma_url_is_refused(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _built(tmp_path / "idx")
    argv = [command, *(["anything"] if command == "query" else []), "--index-dir", str(path), "--chroma-url", "  "]
    code, _, err = _cli(capsys, *argv)
    assert code == 2 and "--chroma-url '  ' is blank" in err
