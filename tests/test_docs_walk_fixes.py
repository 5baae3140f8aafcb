"""Defects a runbook and incident assistant, built on the Python API, met:

- ``index_sources(index, [folder], kind="doc")`` (any kind not in `SOURCE_KINDS`) fell
  through to the last kind, a passage corpus, and said ``corpus.json: no such file; pass a
  corpus.json``; ``max_file_bytes=0`` (or below, or ``"10"``) skipped every file without an
  error. Each is now a `ConfigError` naming what to pass, raised before anything is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.exceptions import ConfigError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

RESTORE = "# Restore Postgres\n\nRestore the orders database from the nightly backup.\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "idx", embedder=HashingEmbedder(64), create=True)
    yield opened
    opened.close()


@pytest.fixture
def runbooks(tmp_path: Path) -> Path:
    root = tmp_path / "runbooks"
    write_file(root, "restore.md", RESTORE)
    write_file(root, "failover.md", "# Failover\n\nPromote the replica, then see [restore](restore.md).\n")
    return root


@pytest.mark.parametrize(("kind", "guess"), [("doc", "docs"), ("Docs", "docs"), ("skill", "skills"), ("pdf", None)])
def test_an_unknown_source_kind_is_refused_naming_the_kinds(
    index: Index, runbooks: Path, kind: str, guess: str | None
) -> None:
    index_sources(index, [runbooks], kind="docs")
    held = dict(index.snapshot().nodes)
    with pytest.raises(ConfigError) as info:
        index_sources(index, [runbooks], kind=kind)  # type: ignore[arg-type]
    message = str(info.value)
    assert "kind must be one of skills, docs, json, toolret, passages" in message
    assert "corpus.json" not in message
    assert (f"did you mean {guess!r}" in message) == (guess is not None)
    assert dict(index.snapshot().nodes) == held  # nothing read, nothing lost


@pytest.mark.parametrize("limit", [0, -1, "10", True, 2.5])
def test_a_file_size_limit_that_admits_nothing_is_refused(index: Index, runbooks: Path, limit: object) -> None:
    index_sources(index, runbooks)
    held = dict(index.snapshot().nodes)
    with pytest.raises(ConfigError, match=r"max_file_bytes must be a whole number of bytes above 0.*leave it out"):
        index_sources(index, runbooks, max_file_bytes=limit)  # type: ignore[arg-type]
    assert dict(index.snapshot().nodes) == held


def test_a_small_file_size_limit_still_skips_the_larger_files(index: Index, runbooks: Path) -> None:
    sizes = {p.name: p.stat().st_size for p in runbooks.iterdir()}
    small, large = sorted(sizes, key=sizes.__getitem__)
    run = index_sources(index, runbooks, max_file_bytes=sizes[small])
    assert sorted(index.snapshot().nodes) == [f"runbooks/{small}"]
    assert [Path(p.path).name for p in run.sources[0].problems if "max-file-bytes" in p.message] == [large]
