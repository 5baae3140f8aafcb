"""A folder that is not an index, given as --index-dir to a command that writes: refused
in one line, and nothing of the user's is changed or added there (found by a walkthrough:
``repair`` overwrote a ``write.lock`` of the user's with its process id, and left a new
one beside another program's ``items.sqlite``)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.cli import main
from skill_retriever.exceptions import (
    IndexCorruptError,
    IndexNotFoundError,
    IndexOpenError,
)
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def foreign_database(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / "items.sqlite")
    db.execute("CREATE TABLE inventory (sku TEXT, count INTEGER)")
    db.execute("INSERT INTO inventory VALUES ('a-1', 3)")
    db.commit()
    db.close()


@pytest.mark.parametrize("with_lock", [True, False], ids=["users-write.lock", "no-write.lock"])
@pytest.mark.parametrize("command", [["repair"], ["calibrate"]])
def test_a_foreign_database_is_left_as_it_was(
    tmp_path: Path, command: list[str], with_lock: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mine"
    foreign_database(folder)
    (folder / "notes.txt").write_text("important user data\n")
    if with_lock:
        (folder / "write.lock").write_text("important user data\n")
    before = snapshot(folder)
    assert main([*command, "--index-dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "delete" not in err
    assert snapshot(folder) == before  # nothing changed, nothing added (no write.lock, no -wal)


def test_repair_beside_an_empty_items_file_and_the_users_notes_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "items.sqlite").write_bytes(b"")
    (folder / "notes.txt").write_text("keep me\n")
    before = snapshot(folder)
    assert main(["repair", "--index-dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "an empty file" in err and "nothing there was changed" in err and "delete" not in err
    assert snapshot(folder) == before


def test_index_into_a_folder_of_another_programs_database_is_refused_before_any_write(tmp_path: Path) -> None:
    folder = tmp_path / "app"
    foreign_database(folder)
    before = snapshot(folder)
    with pytest.raises(IndexNotFoundError, match="a database of other tables \\(inventory\\)"):
        Index.open(folder, embedder=HashingEmbedder(), create=True)
    assert snapshot(folder) == before


def test_a_lock_file_holding_text_is_never_overwritten(tmp_path: Path) -> None:
    built = build_tiny_index(tmp_path / "ix")
    built.close()
    lock = tmp_path / "ix" / "write.lock"
    lock.write_text("my shopping list\n")
    with pytest.raises(IndexCorruptError, match=r"write.lock holds unexpected text \('my shopping list'\)"):
        Index.open(tmp_path / "ix", writable=True)
    assert lock.read_text() == "my shopping list\n"
    lock.write_text("12345")  # a pid a crashed writer left: taken over as before
    Index.open(tmp_path / "ix", writable=True).close()


def test_no_index_there_is_its_own_error_and_no_index_corrupt_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-source").mkdir()
    (tmp_path / "a-source" / "SKILL.md").write_text("# a skill\n")
    for where in (tmp_path / "nowhere", tmp_path / "a-file", tmp_path / "a-source"):
        with pytest.raises(IndexNotFoundError, match="no index at|is a file, not an index directory"):
            Index.open(where)
    # nothing there is damaged: not "corrupt, run repair"; IndexOpenError catches both
    assert not issubclass(IndexNotFoundError, IndexCorruptError) and issubclass(IndexNotFoundError, IndexOpenError)
    assert issubclass(IndexCorruptError, IndexOpenError)
    foreign_database(tmp_path / "app")
    with pytest.raises(IndexNotFoundError, match="not a skill-retriever index's"):
        Index.open(tmp_path / "app", writable=True)
