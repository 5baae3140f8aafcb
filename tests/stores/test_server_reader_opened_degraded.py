"""A reader opened while its Chroma server lacked the index's collections, or held another
number of vectors, against real `chroma run` servers. It searched in memory for as long as
it lived, each answer still advising the `repair` that had already run (README: "until
`skill-retriever repair` copies them again"): it now looks at the server again every
RECHECK_S while it searches in memory, and takes it up once it holds the index's vectors."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from chroma_support import ChromaServer
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client

N = 6
SKILLS = numbered_skills(N)


def _search(reader: Index, text: str) -> tuple[str, list[str]]:
    snap = reader.snapshot()
    return str(snap.search_nodes(snap.embed_query(text), 3)[0].id), snap.search_notes()


def _repair(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["repair", "--index-dir", str(path)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("damage", ["collections deleted", "an entry deleted"])
def test_a_reader_opened_while_the_server_lacked_the_vectors_takes_it_up_after_repair(
    damage: str, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str],
) -> None:
    path = index_on_server(tmp_path / "R", url, SKILLS, linked=False)
    prefix = mf.read_manifest(path)["collection_prefix"]
    client = chroma_client(url)
    if damage == "collections deleted":
        client.delete_collection(f"{prefix}-nodes")
        client.delete_collection(f"{prefix}-edges")
    else:
        client.get_collection(f"{prefix}-nodes").delete(ids=["s0"])
    monkeypatch.setattr(remote, "RECHECK_S", 1.0)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(path, embedder=HashingEmbedder()) as reader:
        top, notes = _search(reader, "skill number 2 about topic 2")
        assert top == "s2" and len(notes) == 1 and "repair" in notes[0], notes
        assert reader.snapshot()._remote is None
        time.sleep(1.1)
        top, notes = _search(reader, "skill number 3 about topic 3")  # looked again: still the same, said once
        assert top == "s3" and len(notes) == 1, notes
        warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warned) == 1, warned
        _repair(path, capsys)
        time.sleep(1.1)
        top, notes = _search(reader, "skill number 4 about topic 4")
        assert top == "s4" and notes == [], notes
        assert reader.snapshot()._remote is not None  # the server answers its searches again
        assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1


def test_a_reader_searching_in_memory_still_answers_while_its_server_is_down(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Looking again must not fail the searches it answered in memory before."""
    path = index_on_server(tmp_path / "D", chroma_server.url, SKILLS, linked=False)
    prefix = mf.read_manifest(path)["collection_prefix"]
    chroma_client(chroma_server.url).delete_collection(f"{prefix}-nodes")
    monkeypatch.setattr(remote, "RECHECK_S", 0.5)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        chroma_server.stop()
        time.sleep(0.6)
        top, notes = _search(reader, "skill number 1 about topic 1")
        assert top == "s1" and len(notes) == 1 and "no collection" in notes[0], notes
        chroma_server.start()
        _repair(path, capsys)
        time.sleep(1.1)  # twice RECHECK_S after a look that failed
        top, notes = _search(reader, "skill number 5 about topic 5")
        assert top == "s5" and notes == [] and reader.snapshot()._remote is not None, notes
