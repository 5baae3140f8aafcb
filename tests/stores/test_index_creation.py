"""Creating a new index: nothing is written for a run that cannot finish the create.

- An embedder that cannot load used to be named in the new manifest, so that every later
  run failed on it; it is loaded before anything is written, and the directory the failed
  run would have made is not there.
- An index directory that cannot be made (a file on its path, a folder of /proc) is one
  ``error:`` line, not a NotADirectoryError or FileNotFoundError traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.exceptions import ConfigError, IndexLocationError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder, SentenceTransformerEmbedder, Vectors
from skill_retriever.stores.index import Index


class _Unloadable:
    """An embedder whose model cannot load (the first use raises, as a real one does)."""

    name = "no-such/model"

    @property
    def dim(self) -> int:
        raise ConfigError("cannot load embedding model 'no-such/model' offline")

    def embed(self, texts: Sequence[str]) -> Vectors:
        raise ConfigError("cannot load embedding model 'no-such/model' offline")


def test_an_embedder_that_cannot_load_leaves_no_index_behind(tmp_path: Path) -> None:
    where = tmp_path / "new" / "ix"
    with pytest.raises(ConfigError, match="no-such/model"):
        Index.open(where, embedder=_Unloadable(), create=True)
    assert not (tmp_path / "new").exists()  # the folders the failed run would have made
    Index.open(where, embedder=HashingEmbedder(), create=True).close()  # the next run is not stuck
    assert mf.read_manifest(where)["embedder"] == "hashing-64"


def test_an_existing_index_is_left_as_it_was(tmp_path: Path) -> None:
    where = tmp_path / "ix"
    Index.open(where, embedder=HashingEmbedder(), create=True).close()
    before = sorted(p.name for p in where.iterdir())
    with pytest.raises(ConfigError):
        Index.open(where, embedder=_Unloadable(), create=True)
    assert sorted(p.name for p in where.iterdir()) == before
    assert mf.read_manifest(where)["embedder"] == "hashing-64"


def test_a_create_that_fails_before_its_manifest_removes_the_directory_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(path: Path, manifest: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mf, "write_manifest", full_disk)
    with pytest.raises(OSError, match="No space left"):
        Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    assert not (tmp_path / "ix").exists()
    (tmp_path / "there").mkdir()  # one that was there before the run stays
    with pytest.raises(OSError, match="No space left"):
        Index.open(tmp_path / "there", embedder=HashingEmbedder(), create=True)
    assert (tmp_path / "there").is_dir()


def test_a_folder_that_is_not_a_model_is_a_one_line_config_error(tmp_path: Path) -> None:
    (tmp_path / "not-a-model").mkdir()
    with pytest.raises(ConfigError) as caught:
        SentenceTransformerEmbedder(str(tmp_path / "not-a-model")).dim  # noqa: B018  (loads it)
    message = str(caught.value)
    assert "is a folder, but not a model sentence-transformers can load" in message
    assert "\n" not in message


def test_a_model_folder_with_damaged_weights_is_a_one_line_config_error(tmp_path: Path) -> None:
    """safetensors' SafetensorError ("header too large") came out as a traceback."""
    import shutil

    from skill_retriever.stores.embedder import bundled_model_path

    folder = tmp_path / "model"
    shutil.copytree(bundled_model_path(), folder, ignore=shutil.ignore_patterns("model.safetensors"))
    (folder / "model.safetensors").write_bytes(b"\xff" * 1000)  # garbage: a header length past the file
    with pytest.raises(ConfigError) as caught:
        SentenceTransformerEmbedder(str(folder)).embed(["hello"])
    message = str(caught.value)
    assert message.startswith(f"embedding model {str(folder)!r} is a folder, but not a model sentence-transformers can load")
    assert "header" in message and "\n" not in message


def test_an_index_directory_under_a_file_is_refused(tmp_path: Path) -> None:
    file = write_file(tmp_path, "m1/a/SKILL.md", "---\nname: a\ndescription: a\n---\n")
    with pytest.raises(IndexLocationError, match=r"is a file, not a directory; choose a directory that can be created"):
        Index.open(file / "sub", embedder=HashingEmbedder(), create=True)


@pytest.mark.parametrize("where", ["m1/a/SKILL.md/sub", "/proc/no-such-index"])
def test_the_cli_says_why_an_index_directory_cannot_be_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(tmp_path)
    write_file(tmp_path, "m1/a/SKILL.md", "---\nname: a\ndescription: a\n---\n")
    assert main(["index", "m1", "--index-dir", where, "--embedder", "hashing-64"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skill-retriever: error: cannot create the index directory {where}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_first_run_that_reads_nothing_leaves_no_index(tmp_path: Path) -> None:
    """A failed or empty first `index` left an index naming its embedder: a later run
    with another --embedder was refused for an index that was never built."""
    from skill_retriever.cli import main

    (tmp_path / "empty").mkdir()
    (tmp_path / "table.csv").write_text("hi")  # a file no source kind reads: refused
    fresh, kept = tmp_path / "fresh", tmp_path / "kept"
    kept.mkdir()
    assert main(["index", str(tmp_path / "empty"), "--index-dir", str(fresh), "--embedder", "hashing-64"]) == 1
    assert not fresh.exists()
    assert main(["index", str(tmp_path / "table.csv"), "--index-dir", str(kept), "--embedder", "hashing-64"]) == 2
    assert kept.is_dir() and not list(kept.iterdir())  # its folder was there: it stays, emptied
    write_file(tmp_path / "repo", "skills/a/SKILL.md", "---\nname: a\ndescription: a skill\n---\nbody\n")
    assert main(["index", str(tmp_path / "repo"), "--index-dir", str(fresh), "--embedder", "hashing-32"]) == 0
    assert main(["index", str(tmp_path / "empty"), "--index-dir", str(fresh)]) == 1  # not new: kept whole
    assert (fresh / "index.json").is_file()
