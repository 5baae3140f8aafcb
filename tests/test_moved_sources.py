"""A folder of documents renamed (or moved) and indexed at its new path.

Found in a walkthrough: ``mv runbooks runbooks-2026 && skill-retriever index
runbooks-2026`` indexed the files as a second source without a word, the old one staying
(its folder gone); every answer then led with the old copy, ``file:`` naming a file that no
longer exists and the real one only under ``also at``. Only ``stats`` said the old folder
was gone. The run now says which held source, gone from disk, it read again, and the
``remove-source`` that takes the old copy out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run, run_lines
from files import write_file

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "idx", embedder=HashingEmbedder(64), create=True)
    yield opened
    opened.close()


def _runbooks(root: Path) -> Path:
    write_file(root, "restore.md", "# Restore\n\nRestore Postgres from the nightly backup.\n")
    write_file(root, "ops/failover.md", "# Failover\n\nPromote the replica.\n")
    return root


def _notes(run_sources: list[object]) -> list[str]:
    return [p.message for r in run_sources for p in r.problems]  # type: ignore[attr-defined]


def test_a_renamed_folder_names_the_source_gone_from_disk_it_repeats(index: Index, tmp_path: Path) -> None:
    old = _runbooks(tmp_path / "runbooks")
    index_sources(index, old)
    new = old.rename(tmp_path / "runbooks-2026")
    run = index_sources(index, new)
    [note] = [m for m in _notes(run.sources) if "gone from disk" in m]
    assert "'runbooks'" in note and str(old) in note
    assert "holds 2 of the item(s) this run read" in note
    assert f"remove-source runbooks --index-dir {index.path}" in note


def test_no_note_when_the_old_folder_is_still_there_or_the_files_differ(index: Index, tmp_path: Path) -> None:
    old = _runbooks(tmp_path / "runbooks")
    index_sources(index, old)
    copy = _runbooks(tmp_path / "copy")  # a copy on purpose: the old folder is there
    assert not [m for m in _notes(index_sources(index, copy).sources) if "gone from disk" in m]
    other = tmp_path / "other"
    write_file(other, "restore.md", "# Restore\n\nRestore Redis from its snapshot.\n")  # same path, other text
    old.rename(tmp_path / "gone")
    assert not [m for m in _notes(index_sources(index, other).sources) if "gone from disk" in m]


def test_an_answer_names_the_copy_whose_file_is_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Until ``remove-source`` takes the old copy out, the two copies fold into one entry;
    they rank alike (same text), and the one whose id sorts first named it: renamed from
    a-books to z-books, ``file:`` named the file gone from disk, the real one only under
    ``also at``. The entry keeps its place; the copy that is there names it."""
    old = _runbooks(tmp_path / "a-books")
    ix = tmp_path / "ix"
    assert main(["index", str(old), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    new = old.rename(tmp_path / "z-books")
    assert main(["index", str(new), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    code, lines = run_lines(capsys, "query", "restore postgres nightly backup", "--index-dir", ix, "-k", "1")
    assert code == 0
    assert f"    file: {new / 'restore.md'}" in lines and "    also at: a-books/restore.md" in lines, lines
    assert "    id: z-books/restore.md" in lines
    code, out, _ = run(capsys, "query", "restore postgres nightly backup", "--index-dir", ix, "-k", "1", "--json")
    [entry] = json.loads(out)["results"]
    assert entry["id"] == "z-books/restore.md" and entry["also_at"] == ["a-books/restore.md"]
