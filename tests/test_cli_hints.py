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
