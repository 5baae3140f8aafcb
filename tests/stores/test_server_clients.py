"""One chromadb client per Chroma server in a process, on a real `chroma run`: opening an
index on the server again and again, and asking what ``stats`` asks, kept a client each
(three chromadb systems and two file descriptors, never released: about 500 opens used up
a default limit of 1,024 descriptors); a server restarted on the same address is searched
again through the client kept."""

from __future__ import annotations

import os
from pathlib import Path

from chroma_support import ChromaServer
from server_index import index_on_server, numbered_skills

from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_stats import server_status
from skill_retriever.stores.vectors import chroma_client

SKILLS = numbered_skills(6, prefix="n", text="skill number {i}")


def _systems() -> int:
    from chromadb.api.shared_system_client import SharedSystemClient

    return len(SharedSystemClient._identifier_to_system)


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_opening_an_index_on_a_server_again_and_again_keeps_one_client(url: str, tmp_path: Path) -> None:
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    embedder = HashingEmbedder()
    with Index.open(path, embedder=embedder) as index:  # the first open may build the client
        assert index.snapshot()._remote is not None
    systems, fds = _systems(), _fds()
    for _ in range(40):
        with Index.open(path, embedder=embedder) as index:
            assert index.snapshot()._remote is not None  # searched on the server, not in memory
        assert server_status(mf.read_manifest(path), embedder, path)["reachable"] is True
    assert _systems() == systems, "an open or a stats call kept a chromadb client of its own"
    assert _fds() <= fds + 2, f"{_fds() - fds} descriptors more after 40 opens"
    assert chroma_client(url) is chroma_client(url)


def test_a_server_restarted_on_its_address_is_searched_through_the_client_kept(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    path = index_on_server(tmp_path / "idx", chroma_server.url, SKILLS)
    kept = chroma_client(chroma_server.url)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert snap._remote is not None
        want = [h.id for h in snap.search_nodes(snap.embed_query("skill number 3"), 3)]
        chroma_server.stop()
        chroma_server.start()  # the same port and data: the pool's connections are dead
        again = [h.id for h in snap.search_nodes(snap.embed_query("skill number 3"), 3)]
        assert again == want
    with Index.open(path, embedder=HashingEmbedder()) as reopened:
        snap = reopened.snapshot()
        assert snap._remote is not None
        assert [h.id for h in snap.search_nodes(snap.embed_query("skill number 3"), 3)] == want
    assert chroma_client(chroma_server.url) is kept
