"""Shared fixtures: a tiny hand-made knowledge graph (tests/tiny_graph.py) indexed with
the fast HashingEmbedder, one small real index of the bundled sample catalogue, the real
bundled MiniLM (loaded once per session) and ``graphs/coding_agent.py`` imported by path
as LangGraph Server does."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from graph_modules import load_graph_module
from tiny_graph import build_tiny_index

from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.model import Node
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.stores.embedder import HashingEmbedder, SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytest_plugins = ["network_guard"]  # fail any test that opens a non-loopback socket


@pytest.fixture
def tiny_index(tmp_path: Path) -> Iterator[Index]:
    """A fresh tiny index (HashingEmbedder, on-disk Chroma) in this test's tmp_path."""
    index = build_tiny_index(tmp_path / "index")
    yield index
    index.close()


@pytest.fixture(scope="module")
def shared_tiny_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """One tiny index per test module, for tests that only read."""
    index = build_tiny_index(tmp_path_factory.mktemp("tiny") / "index")
    yield index
    index.close()


@pytest.fixture(scope="session")
def sample_index_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample catalogue indexed once a session (Chroma on disk, BM25, graph),
    with the deterministic hashing embedder so no model loads. Tests only read it; one
    that would change it copies the folder first."""
    path = tmp_path_factory.mktemp("sample-catalogue") / "sample-index"
    index = Index.open(path, embedder=HashingEmbedder(64), create=True)
    index_sources(index, [sample_catalogue_path()])
    index.close()
    return path


@pytest.fixture(scope="session")
def sample_index(sample_index_path: Path) -> Index:
    return Index.open(sample_index_path, embedder=HashingEmbedder(64), create=False)


@pytest.fixture(scope="session")
def real_embedder() -> SentenceTransformerEmbedder:
    """The bundled all-MiniLM-L6-v2, loaded once."""
    embedder = SentenceTransformerEmbedder()
    assert embedder.dim == 384
    return embedder


@pytest.fixture(scope="session")
def coding_agent() -> ModuleType:
    """``graphs/coding_agent.py``, imported by path once (tests/graph_modules.py)."""
    return load_graph_module("coding_agent")


@pytest.fixture()
def default_rerankers(shared_tiny_index: Index, monkeypatch: pytest.MonkeyPatch) -> list[EmbeddingReranker]:
    """Each reranker `Retriever` loads as its default, in order: an `EmbeddingReranker`
    stands in for the cross-encoder, which no test machine caches."""
    from skill_retriever import retriever as retriever_module

    loaded: list[EmbeddingReranker] = []

    def load() -> EmbeddingReranker:
        loaded.append(EmbeddingReranker(shared_tiny_index.embedder))
        return loaded[-1]

    monkeypatch.setattr(retriever_module, "default_reranker", load)
    return loaded


MakeIndex = Callable[[list[Node]], Index]


@pytest.fixture
def make_index(tmp_path: Path) -> Iterator[MakeIndex]:
    """Index made of the nodes given (hashing embedder), one folder each; closed after the test."""
    opened: list[Index] = []

    def make(nodes: list[Node]) -> Index:
        index = Index.open(tmp_path / f"ix{len(opened)}", embedder=HashingEmbedder(), create=True)
        index.add(nodes, [])
        opened.append(index)
        return index

    yield make
    for index in opened:
        index.close()
