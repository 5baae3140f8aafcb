"""A search through a writer (an Index open for writing) whose collections are gone from
its Chroma server (deleted, or the server wiped and started empty), against real `chroma
run` servers. It raised CollectionGone, whose advice (`repair`) fails while the writer holds
the lock: the writer makes them again from items.sqlite, as its next write does, or, while
a write of its own is under way, answers from its vectors in memory and says so."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from chroma_support import ChromaServer
from server_index import index_on_server, numbered_skills, top_id

from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client

N = 6
SKILLS = numbered_skills(N)


def _delete_collections(url: str, path: Path) -> tuple[str, str]:
    prefix = mf.read_manifest(path)["collection_prefix"]
    names = f"{prefix}-nodes", f"{prefix}-edges"
    client = chroma_client(url)
    for name in names:
        client.delete_collection(name)
    return names


@contextmanager
def _writing(index: Index) -> Iterator[None]:
    """Another thread of this process in the middle of a write (it holds the write lock)."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        with index._write_lock:
            taken.set()
            done.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait(30)
    try:
        yield
    finally:
        done.set()
        thread.join(30)


def test_a_writer_s_search_makes_its_deleted_collections_again(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "S", url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        snap = writer.snapshot()
        assert snap._remote is not None and top_id(snap, "skill number 2 about topic 2") == "s2"
        names = _delete_collections(url, path)
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            assert top_id(snap, "skill number 3 about topic 3") == "s3"  # the snapshot taken before
            assert top_id(writer.snapshot(), "skill number 4 about topic 4") == "s4"
            edges = snap.search_edges(snap.embed_query("s-0 depends on s-1"), 1)
        assert [e.id for e, _ in edges] == [next(iter(snap.edges))]
        said = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
        assert said.count("made them again") == 1, said
        client = chroma_client(url)
        assert client.get_collection(names[0]).count() == N and client.get_collection(names[1]).count() == 1
        assert snap.search_notes() == [] and writer.snapshot().search_notes() == []  # the server answered
        writer.upsert(Node(id="s6", kind="skill", name="s-6", text="skill number 6 about topic 6"))
        assert top_id(writer.snapshot(), "skill number 6 about topic 6") == "s6"
        assert client.get_collection(names[0]).count() == N + 1


def test_a_writer_s_search_after_the_server_came_back_empty_makes_them_again(
    chroma_server: ChromaServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "E", chroma_server.url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        snap = writer.snapshot()
        chroma_server.stop()
        chroma_server.data.rename(tmp_path / "data-aside")
        chroma_server.data.mkdir()
        chroma_server.start()
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            assert top_id(snap, "skill number 1 about topic 1") == "s1"
        assert "made them again" in caplog.text, caplog.text
        prefix = mf.read_manifest(path)["collection_prefix"]
        assert chroma_client(chroma_server.url).get_collection(f"{prefix}-nodes").count() == N


def test_while_a_write_is_under_way_the_writer_searches_in_memory_and_says_so(url: str, tmp_path: Path) -> None:
    """A search does not wait for a write of its own process (an `index` run embeds for
    minutes under the lock): it answers from the writer's vectors, and says why and what
    makes the collections again; the next search once the write is done makes them."""
    path = index_on_server(tmp_path / "B", url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        names = _delete_collections(url, path)
        with _writing(writer):
            snap = writer.snapshot()
            assert top_id(snap, "skill number 5 about topic 5") == "s5"
            notes = snap.search_notes()
            assert len(notes) == 1 and names[0] in notes[0] and "in memory" in notes[0], notes
            assert "repair" not in notes[0], notes  # it cannot run while this process holds the lock
            assert names[0] not in {c.name for c in chroma_client(url).list_collections()}
        assert top_id(snap, "skill number 2 about topic 2") == "s2"
        assert chroma_client(url).get_collection(names[0]).count() == N
        assert snap.search_notes() == [] and writer.snapshot().search_notes() == []


def test_a_reader_s_repair_advice_names_the_writer_that_holds_the_lock(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """`repair` exits 75 while a writer lives: advice that names it says to wait for that
    writer (which makes collections gone from the server again itself)."""
    from skill_retriever.cli import main

    path = index_on_server(tmp_path / "R", url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        with Index.open(path, embedder=HashingEmbedder()) as reader:
            reader.snapshot()  # searches the server
            names = _delete_collections(url, path)
            snap = reader.snapshot()
            assert top_id(snap, "skill number 3 about topic 3") == "s3"
            notes = snap.search_notes()
        with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(path, embedder=HashingEmbedder()) as later:
            opened_note = later.snapshot().search_notes()
        said = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
        capsys.readouterr()
        assert main(["stats", "--index-dir", str(path)]) == 0
        stats = " ".join(capsys.readouterr().out.split())
        wait = f"once process {os.getpid()}, which is writing the index, is done (`--lock-wait SECONDS` waits for it"
        for text in (notes[0], opened_note[0], said, stats):
            assert "repair" in text and wait in text, text
        assert names[0] in said and "next write or search" in said, said
        assert top_id(writer.snapshot(), "skill number 1 about topic 1") == "s1"  # the writer makes them again
    with Index.open(path, embedder=HashingEmbedder()) as reader:  # no writer: no wait named
        capsys.readouterr()
        assert reader.snapshot().search_notes() == []
    _delete_collections(url, path)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        note = reader.snapshot().search_notes()
        assert len(note) == 1 and "repair" in note[0] and "once process" not in note[0], note
