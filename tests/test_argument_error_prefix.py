"""An argument refused after argparse took it is said as argparse says the command's other
arguments: an empty query read ``skill-retriever: error: the query is empty`` where ``-k 0``
reads ``skill-retriever query: error: ...``. The query (empty, too long), ``--since``
after ``--until``, and ``index`` with nothing to index or ``--max-file-bytes 0`` now name
their command; an error of the index itself (none there) keeps ``skill-retriever: error:``.
Each exits 2 and, with ``--json``, prints ``{"error": ...}`` as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_refusals import refused
from tiny_graph import build_tiny_index


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("prefix") / "ix"
    build_tiny_index(folder).close()
    return str(folder)


@pytest.mark.parametrize(("argv", "said"), [
    (["query", ""], "the query is empty; ask for something"),
    (["query", "x" * 40, "--max-query-chars", "20"], "40 characters"),
    (["query", "x", "--since", "2026-12-01", "--until", "2026-01-01"], "--since (2026-12-01"),
    (["query", "x", "-k", "0"], "argument -k: must be 1 or more results"),  # argparse's own, for comparison
])  # fmt: skip
def test_the_querys_own_errors_name_the_query_command(
    argv: list[str], said: str, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line, _ = refused([*argv, "--index-dir", index_dir], capsys)
    assert line.startswith("skill-retriever query: error: ") and said in line, line
    assert line.endswith(" (see skill-retriever query --help)"), line
    line, out = refused([*argv, "--index-dir", index_dir, "--json"], capsys)
    message = json.loads(out)["error"]
    assert line == f"skill-retriever query: error: {message} (see skill-retriever query --help)"


@pytest.mark.parametrize(("argv", "said"), [
    (["index"], "nothing to index: give one or more paths, or --sample"),
    (["index", "--sample", "--max-file-bytes", "0"], "--max-file-bytes must be > 0, got 0"),
])  # fmt: skip
def test_indexs_own_argument_errors_name_the_index_command(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, _ = refused([*argv, "--index-dir", str(tmp_path / "ix")], capsys)
    assert line == f"skill-retriever index: error: {said}" + line.partition(said)[2], line
    assert line.endswith(" (see skill-retriever index --help)") and not (tmp_path / "ix").exists()


def test_an_error_of_the_index_keeps_the_programs_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line, _ = refused(["query", "x", "--index-dir", str(tmp_path / "none")], capsys)
    assert line.startswith(f"skill-retriever: error: no index at {tmp_path / 'none'}"), line
