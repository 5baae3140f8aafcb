"""Fixtures of the store tests: real `chroma run` servers (tests/chroma_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from chroma_support import CHROMA, ChromaServer


def _started(data: Path) -> ChromaServer:
    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed")
    server = ChromaServer(data)
    server.start()
    return server


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of one `chroma run` server shared by a test module."""
    server = _started(tmp_path_factory.mktemp("chroma-data"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    """A `chroma run` server of this test alone, which it may stop."""
    server = _started(tmp_path_factory.mktemp("chroma-own"))
    try:
        yield server
    finally:
        server.stop()
