"""An empty path, model or server option is an argument error of its command, refused before
anything is read or written: ``benchmark --out ''`` was Path(""), the working folder, and
ran the whole benchmark into it; ``index ''`` indexed the working folder; ``index
--embedder ''`` on an existing index was read as no model named and exited 0. ``--target
''`` and ``--chroma-url ''`` were refused as ``skill-retriever: error: ...``, not in the
words of the command's other argument errors. The Python API raises what it raised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_refusals import refused
from tiny_graph import build_tiny_index

from skill_retriever.exceptions import CommandArgumentError, ConfigError
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    build_tiny_index(tmp_path / "ix").close()
    return str(tmp_path / "ix")


@pytest.mark.parametrize(("option", "value"), [
    ("--out", ""), ("--out", "  "), ("--cache", ""), ("--data", ""), ("--embedder", ""),
])  # fmt: skip
def test_an_empty_benchmark_option_is_refused_and_nothing_is_written(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where Path("") would have pointed
    line, _ = refused(["benchmark", "--quick", "--only", "battery", option, value], capsys)
    assert line.startswith(f"skill-retriever benchmark: error: argument {option}: is empty; give "), line
    assert line.endswith("(see skill-retriever benchmark --help)")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_index_path_is_refused_not_the_working_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "notes.md").write_text("# mine\n\nnot a source\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for argv in (["index", ""], ["index", str(tmp_path / "notes.md"), "--kind", "docs", ""]):
        line, _ = refused([*argv, "--index-dir", str(tmp_path / "ix")], capsys)
        assert line.startswith("skill-retriever index: error: argument paths: is empty; give a folder or file"), line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.md"]  # no index made


def test_an_empty_embedder_is_refused_on_an_existing_index(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = (Path(index_dir) / "index.json").read_bytes()
    for value in ("", "   "):
        line, _ = refused(["index", "--sample", "--embedder", value, "--index-dir", index_dir], capsys)
        assert line.startswith("skill-retriever index: error: argument --embedder: is empty; give a "
                               "sentence-transformers model name or folder, or leave --embedder out"), line
    assert (Path(index_dir) / "index.json").read_bytes() == manifest
    with Index.open(index_dir, embedder=HashingEmbedder()) as index:  # the sample was not added
        assert not any(n.id.startswith("sample_catalogue/") for n in index.snapshot().nodes.values())


@pytest.mark.parametrize("argv", [
    ["query", "deploy", "--chroma-url", ""],
    ["stats", "--chroma-url", "  "],
    ["move-to-server", "--chroma-url", ""],
    ["move-to-server", "--chroma-url", "ftp://127.0.0.1:8000"],
])  # fmt: skip
def test_a_chroma_url_that_is_no_address_names_the_command(
    argv: list[str], index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = (Path(index_dir) / "index.json").read_bytes()
    line, _ = refused([*argv, "--index-dir", index_dir], capsys)
    prefix = f"skill-retriever {argv[0]}: error: --chroma-url "
    assert line.startswith(prefix) and line.endswith(f"(see skill-retriever {argv[0]} --help)"), line
    assert ("is blank; give" if not argv[-1].strip() else "is not a Chroma server address") in line
    if argv[0] == "move-to-server":  # it is required there: no "leave the option out"
        assert "leave the option out" not in line
    line, out = refused([*argv, "--index-dir", index_dir, "--json"], capsys)
    assert line == f"skill-retriever {argv[0]}: error: {json.loads(out)['error']} (see skill-retriever {argv[0]} --help)"
    assert (Path(index_dir) / "index.json").read_bytes() == manifest  # nothing recorded


def test_the_python_api_raises_what_it_raised(index_dir: str) -> None:
    for call in (
        lambda: Index.open(index_dir, embedder=HashingEmbedder(), chroma_url=""),
        lambda: move_index_to_server(index_dir, ""),
    ):
        with pytest.raises(ConfigError, match="--chroma-url '' is") as err:
            call()
        assert not isinstance(err.value, CommandArgumentError)  # the CLI's conversion is the CLI's
