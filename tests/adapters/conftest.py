"""Shared fixtures of the adapter tests: one small real index of the bundled sample
catalogue (Chroma on disk, BM25, graph), embedded with the deterministic hashing embedder
so no model loads; and a loader for the modules under ``graphs/``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

REPO = Path(__file__).resolve().parents[2]


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


def load_graph_module(name: str) -> ModuleType:
    """Import ``graphs/<name>.py`` by path, as LangGraph Server does."""
    module_name = f"_sr_graphs_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, REPO / "graphs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def coding_agent() -> ModuleType:
    return load_graph_module("coding_agent")
