"""Shared fixtures of the adapter tests: one small real index of the bundled sample
catalogue (Chroma on disk, BM25, graph), embedded with the deterministic hashing embedder
so no model loads (``graphs/coding_agent.py`` is the ``coding_agent`` fixture of
tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture(autouse=True)
def offered_index_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server runs of these tests name indexes under ``tmp_path``: the deployment
    offers that folder (`adapters.server_index_dirs`; its own tests unset it)."""
    monkeypatch.setenv("SKILL_RETRIEVER_INDEX_DIRS", str(tmp_path))


@pytest.fixture(scope="session")
def sample_index_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("adapters") / "sample-index"
    index = Index.open(path, embedder=HashingEmbedder(64), create=True)
    index_sources(index, [sample_catalogue_path()])
    index.close()
    return path


@pytest.fixture(scope="session")
def sample_index(sample_index_path: Path) -> Index:
    return Index.open(sample_index_path, embedder=HashingEmbedder(64), create=False)
