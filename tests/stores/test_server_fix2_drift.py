"""``stats`` compares a Chroma server's ids and hashes with what ``items.sqlite`` records,
on real `chroma run` servers: a vector left stale while the server was down (the write
committed locally, its mirror failed) and an id swapped on the server both leave the
counts equal, so counting alone said the server was fine while queries took their
candidates from the old vectors; only ``repair`` noticed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from chroma_support import ChromaServer
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client

N = 8
SKILLS = numbered_skills(N)


def _node(i: int, text: str | None = None) -> Node:
    return Node(id=f"s{i}", kind="skill", name=f"s-{i}", text=text or f"skill number {i} about topic {i}")


def _stats(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[str, dict[str, object]]:
    """The ``server:`` line of ``stats`` and the ``server`` of ``stats --json``."""
    capsys.readouterr()
    assert main(["stats", "--index-dir", str(path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("server: "))
    assert main(["stats", "--index-dir", str(path), "--json"]) == 0
    return line, json.loads(capsys.readouterr().out)["server"]


def test_a_vector_left_stale_while_the_server_was_down_is_counted_by_stats(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "S", chroma_server.url, SKILLS)
    line, server = _stats(capsys, path)
    assert server["out_of_step"] == {"vectors": 0, "stale": 0, "missing": 0, "extra": 0, "first": None}
    assert "differ" not in line and "repair" not in line

    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        chroma_server.stop()
        try:  # committed locally; the mirror fails (the index is not damaged) and says to run repair
            with pytest.raises(ServerUnreachableError, match="repair"):
                writer.upsert([_node(3, "measure glacier retreat from satellite photos")])
        finally:
            chroma_server.start()

    line, server = _stats(capsys, path)
    prefix = mf.read_manifest(path)["collection_prefix"]
    assert server["collections"] == {f"{prefix}-nodes": N, f"{prefix}-edges": 1}  # the counts agree
    assert server["out_of_step"] == {"vectors": 1, "stale": 1, "missing": 0, "extra": 0, "first": "s3"}
    assert "1 vector(s) differ from the index (1 stale" in line and "first: s3" in line, line
    assert f"`skill-retriever repair --index-dir {path}`" in line

    capsys.readouterr()
    assert main(["repair", "--index-dir", str(path)]) == 0
    line, server = _stats(capsys, path)
    assert server["out_of_step"]["vectors"] == 0 and "differ" not in line, line


def test_an_id_swapped_on_the_server_is_named_though_the_counts_agree(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "W", url, SKILLS)
    nodes = chroma_client(url).get_collection(f"{mf.read_manifest(path)['collection_prefix']}-nodes")
    nodes.delete(ids=["s5"])
    nodes.add(ids=["ghost"], embeddings=np.ones((1, HashingEmbedder().dim), dtype=np.float32), metadatas=[{"hash": "x"}])
    line, server = _stats(capsys, path)
    assert server["out_of_step"] == {"vectors": 2, "stale": 0, "missing": 1, "extra": 1, "first": "s5"}
    assert "1 missing there" in line and "1 of items the index does not have" in line, line
    assert "repair --index-dir" in line


def test_a_copy_is_not_compared_with_its_originals_collections(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    original = index_on_server(tmp_path / "O", url, SKILLS)
    copy = tmp_path / "Ocopy"
    shutil.copytree(original, copy)
    line, server = _stats(capsys, copy)
    assert server["copy_of"] == str(original.resolve()) and server["out_of_step"] is None
    assert "move-to-server" in line and "differ" not in line
