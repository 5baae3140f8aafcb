"""An index in a folder that cannot be written (a read-only mount, an archive unpacked by
another user) is read as it is: reading never needs to write. SQLite reads a WAL database
only where it can make its ``-shm`` file, so such a reader was told "not a readable index
database ... rebuild the index" about a healthy one; and ``index`` or ``repair`` there
ended in a traceback from the writer's lock instead of one line."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.stores.index import Index


def _read_only(folder: Path) -> Iterator[Path]:
    """``folder`` where it cannot be written: a read-only bind mount as root (whom file
    modes do not stop), its mode 0555 otherwise."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    mount = folder.with_name(folder.name + "-ro")
    mount.mkdir()
    made = subprocess.run(["mount", "--bind", str(folder), str(mount)], check=False, capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make a read-only mount here: {made.stderr.decode().strip()}")
    try:
        ro = subprocess.run(["mount", "-o", "remount,ro,bind", str(mount)], check=False, capture_output=True)
        if ro.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {ro.stderr.decode().strip()}")
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


@pytest.fixture
def read_only_index(tmp_path: Path) -> Iterator[Path]:
    write_file(tmp_path / "repo", "skills/pg/SKILL.md", "---\nname: pg\ndescription: postgres migrations\n---\nbody\n")
    folder = tmp_path / "ix"
    assert main(["index", str(tmp_path / "repo"), "--index-dir", str(folder), "--embedder", "hashing-64"]) == 0
    for side in ("items.sqlite-wal", "items.sqlite-shm"):  # as an archive or a checkout holds it
        (folder / side).unlink(missing_ok=True)
    yield from _read_only(folder)


def test_a_read_only_index_is_read(read_only_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Index.open(read_only_index) as index:
        assert [n.name for n in index.nodes.values()] == ["pg"]
    assert main(["query", "postgres migrations", "--index-dir", str(read_only_index)]) == 0
    assert " 1. pg [skill]" in capsys.readouterr().out
    assert main(["stats", "--index-dir", str(read_only_index)]) == 0


def test_writing_a_read_only_index_is_one_line(read_only_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["repair", "--index-dir", str(read_only_index)]) == 2
    err = capsys.readouterr().err
    assert "its folder cannot be written; make it writable, or copy the index" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
