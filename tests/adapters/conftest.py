"""Shared fixtures of the adapter tests; the index of the bundled sample catalogue
(``sample_index_path``, ``sample_index``) and ``graphs/coding_agent.py``
(``coding_agent``) are fixtures of tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def offered_index_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server runs of these tests name indexes under ``tmp_path``: the deployment
    offers that folder (`adapters.server_index_dirs`; its own tests unset it)."""
    monkeypatch.setenv("SKILL_RETRIEVER_INDEX_DIRS", str(tmp_path))
