"""The same Index against a real `chroma run` server on a free loopback port: index, query,
restart the server, query again; and mirroring an index onto the server. The index's own
items.sqlite stays the source of truth; the server holds a copy of every vector that the
writer keeps in step, and readers ask it for candidates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from chroma_support import CHROMA, ChromaServer

from skill_retriever.model import Edge, Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_vectors_to_server
from skill_retriever.stores.vectors import chroma_client


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed")
    srv = ChromaServer(tmp_path / "chroma-server-data")
    srv.start()
    yield srv
    srv.stop()


def _items() -> tuple[list[Node], list[Edge]]:
    texts = [
        "postgres migration check before every deploy",
        "deploy pipeline for the checkout-api service",
        "lint python code with ruff",
        "incident INC-1043: checkout-api latency spike after deploy-v3.5.0",
        "database schema review checklist",
    ]
    nodes = [Node(id=f"n{i}", kind="skill", name=f"skill-{i}", text=t) for i, t in enumerate(texts)]
    return nodes, [Edge("n1", "n0", "DEPENDS_ON"), Edge("n3", "n1", "RELATED_TO")]


def test_index_on_a_chroma_server_survives_a_server_restart(server: ChromaServer, tmp_path: Path) -> None:
    index = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), chroma_url=server.url, create=True)
    nodes, edges = _items()
    index.upsert(nodes, edges)
    assert not (tmp_path / "idx" / "chroma").exists()  # no embedded Chroma folder
    retriever = Retriever(index, reranker=None, cache_size=0)
    before = retriever.search("checkout-api latency INC-1043", k=3)
    assert before.ids and before.ids[0] == "n3"

    server.stop()
    server.start()

    # A fresh process-like open: the URL comes from index.json, nothing is re-embedded.
    embedder = HashingEmbedder()
    reopened = Index.open(tmp_path / "idx", embedder=embedder)
    assert embedder.texts_embedded == 0
    assert reopened.status()["vectors"] == {"nodes": 5, "edges": 2}
    remote = reopened.snapshot()._remote
    assert remote is not None and remote.nodes.count() == 5 and remote.edges.count() == 2
    assert chroma_client(server.url).get_settings().anonymized_telemetry is False
    after = Retriever(reopened, reranker=None, cache_size=0).search("checkout-api latency INC-1043", k=3)
    assert after.ids == before.ids


def test_mirror_an_index_onto_the_server(server: ChromaServer, tmp_path: Path) -> None:
    index = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    nodes, edges = _items()
    index.upsert(nodes, edges)
    query = index.snapshot().embed_query("ruff lint python")
    local = index.snapshot().search_nodes(query, 3)
    index.close()

    copied = move_vectors_to_server(tmp_path / "idx", server.url, embedder=HashingEmbedder())
    assert copied == {"nodes": 5, "edges": 2}
    embedder = HashingEmbedder()
    moved = Index.open(tmp_path / "idx", embedder=embedder)
    assert embedder.texts_embedded == 0
    remote = moved.snapshot().search_nodes(query, 3)
    assert [h.id for h in remote] == [h.id for h in local]
    assert [round(h.score, 5) for h in remote] == [round(h.score, 5) for h in local]
