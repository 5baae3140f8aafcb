"""Fixtures shared by the ingest tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    """An empty index folder (the small deterministic embedder), for `index_sources` and
    the CLI to write into."""
    path = tmp_path / "index"
    Index.open(path, embedder=HashingEmbedder(), create=True).close()
    return path
