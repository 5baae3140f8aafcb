"""Lines a user reads that named the wrong thing: an index run under --source-name printed
the folder's name, and a source folder given as --index-dir was told to become an index."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.indexing import sample_catalogue_path


def test_a_source_indexed_under_another_name_is_listed_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sample_catalogue_path()
    def index(into: str, *more: str) -> str:
        assert main(["index", str(source), "--index-dir", str(tmp_path / into), "--embedder", "hashing-64", *more]) == 0
        return capsys.readouterr().out

    assert f"second ({source}): " in index("ix", "--source-name", "second")
    assert index("ix2").startswith(f"{source}: ")  # under its own name: said once


def test_a_source_folder_given_as_the_index_is_not_told_to_become_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sample_catalogue_path()
    assert main(["query", "format python", "--index-dir", str(source)]) != 0
    err = capsys.readouterr().err
    assert f"no index at {source}: it holds files but no index" in err
    assert f"`skill-retriever index {source} --index-dir <new folder>`" in err
    assert main(["query", "format python", "--index-dir", str(tmp_path / "none")]) != 0
    assert "build one with `skill-retriever index <sources>" in capsys.readouterr().err  # a folder not there: as before


def test_the_commands_for_a_folder_with_a_space_are_quoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CLI audit: `skill-retriever index /tmp/my src --index-dir <new folder>` and `index
    <sources> --index-dir /tmp/my ix` were printed unquoted, which the shell splits."""
    source = tmp_path / "my src"
    (source / "skills" / "a").mkdir(parents=True)
    (source / "skills" / "a" / "SKILL.md").write_text("---\nname: a\ndescription: a skill\n---\nbody\n")
    assert main(["query", "format python", "--index-dir", str(source)]) == 2
    assert f"`skill-retriever index '{source}' --index-dir <new folder>`" in capsys.readouterr().err
    ix = tmp_path / "my ix"
    assert main(["index", str(source), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    (ix / "items.sqlite").write_bytes(b"\x07" * 8192)  # no header, no source recorded in its bytes
    for side in ("items.sqlite-wal", "items.sqlite-shm"):
        (ix / side).unlink(missing_ok=True)
    capsys.readouterr()
    assert main(["repair", "--index-dir", str(ix)]) == 2
    err = capsys.readouterr().err
    assert "no source can be read from it either" in err, err
    assert f"`skill-retriever index <sources> --index-dir '{ix}'`" in err
