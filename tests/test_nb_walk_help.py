"""Help texts that the notebook and docs walk-through found vague or wrong: ``index --kind``
names every suffix the document reader takes, and the two benchmark scripts run as
modules state what each option does and its default."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest

from skill_retriever import cli
from skill_retriever.bench import million_edges, query_embedding
from skill_retriever.ingest.documents import DOCUMENT_SUFFIXES


def help_text(
    main: Callable[[list[str]], int], argv: list[str], capsys: pytest.CaptureFixture[str]
) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere


def option_help(text: str, option: str) -> str:
    """One option's help: from its name in the options list to the next option."""
    options = text.partition(" options: ")[2]
    start = options.index(f"{option} ")
    rest = options[start + len(option):]
    end = rest.find(" --")
    return option + (rest if end < 0 else rest[:end])


def test_index_help_names_every_document_suffix(capsys: pytest.CaptureFixture[str]) -> None:
    # The CLI keeps its own copy (importing the reader would slow every command's start).
    assert set(cli.DOCUMENT_SUFFIXES) == set(DOCUMENT_SUFFIXES)
    line = option_help(help_text(cli.main, ["index", "--help"], capsys), "--kind")
    named = line.partition("docs: a folder of ")[2].split(" ")[0].split("/")
    assert sorted(named) == sorted(DOCUMENT_SUFFIXES)


@pytest.mark.parametrize(
    ("option", "default"),
    [("--nodes", "100000"), ("--edges", "1000000"), ("--queries", "100"), ("--embedder", "bundled"),
     ("--index", "a temporary folder"), ("--out", "print only")],
)
def test_million_edges_help_gives_each_default(
    option: str, default: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = option_help(help_text(million_edges.main, ["--help"], capsys), option)
    assert f"(default {default}" in line or f"(default: {default}" in line, line


@pytest.mark.parametrize(("option", "default"), [("--limit", "1000"), ("--index", "compare the vectors only")])
def test_query_embedding_help_gives_each_default(
    option: str, default: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_text(query_embedding.main, ["--help"], capsys)
    assert "QUERIES.jsonl one JSON object per line" in text
    line = option_help(text, option)
    assert f"(default {default}" in line or f"(default: {default}" in line, line


def test_query_embedding_help_loads_no_model_code() -> None:
    probe = (
        "import json, sys\n"
        "from skill_retriever.bench.query_embedding import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps([m for m in ('numpy', 'skill_retriever.retriever') if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
