"""Fixtures of the component tests (helpers live in component_catalogue.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, database_mcps_index, write_catalogue

from skill_retriever.stores.index import Index


@pytest.fixture
def sample_index(tmp_path: Path) -> Iterator[Index]:
    """The bundled sample catalogue (``skill-retriever index --sample``), HashingEmbedder."""
    from skill_retriever.indexing import index_sources, sample_catalogue_path
    from skill_retriever.stores.embedder import HashingEmbedder

    index = Index.open(tmp_path / "sample-index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [sample_catalogue_path()], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield index
    index.close()


@pytest.fixture
def catalogue(tmp_path: Path) -> tuple[Path, Path]:
    return write_catalogue(tmp_path / "catalogue")


@pytest.fixture
def hashed_index(tmp_path: Path, catalogue: tuple[Path, Path]) -> Iterator[Index]:
    """The fixture catalogue indexed with the fast HashingEmbedder."""
    index = build_index(tmp_path / "index", catalogue)
    yield index
    index.close()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of this test's own (never the real one), with no $CLAUDE_CONFIG_DIR."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return folder


@pytest.fixture(scope="session")
def database_mcps_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of claude-code-templates' database MCP servers (postgresql among them),
    read only by the tests that take it; skipped without the shared data."""
    built = database_mcps_index(tmp_path_factory.mktemp("cct"))
    if built is None:
        pytest.skip("shared skills data not present")
    return built
