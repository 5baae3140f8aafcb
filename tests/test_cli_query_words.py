"""The query command speaks the CLI's terms, for what a shell user gets wrong.

Found in a walkthrough: ``query audit contract`` (unquoted) said only "unrecognized
arguments: contract"; ``--index-dir "$UNSET"`` read the current folder as the index; the
budget note advised ``budget_fill=True``, a Python argument, on the command line.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_calls import run
from runbook_index import runbook_index


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return runbook_index(tmp_path, capsys)


def test_an_unquoted_query_is_told_to_quote(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "query", "restore", "the", "database", "--index-dir", ix)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: the database; quote the query as one argument: 'restore the database'" in err


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_index_dir_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["query", "x"], ["stats"], ["move-to-server", "--chroma-url", "http://127.0.0.1:1"]):
        with pytest.raises(SystemExit) as exit_:
            run(capsys, *argv, "--index-dir", value)
        assert exit_.value.code == 2
        assert "argument --index-dir: is empty" in capsys.readouterr().err


def test_the_budget_note_names_the_cli_flag(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "restore the database", "--index-dir", ix, "--budget", "60", "--json")
    assert code == 0
    notes = [w for w in json.loads(out)["warnings"] if "budget" in w]
    assert notes and all("budget_fill=True" not in n for n in notes)


def test_a_budget_that_holds_nothing_says_what_the_smallest_needs(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "restore the database", "--index-dir", ix, "--budget", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["results"] == []
    (note,) = [w for w in data["warnings"] if "token budget" in w]
    dropped = data["stats"]["apply_token_budget"]["dropped_ids"]
    smallest, first = min(d["tokens"] for d in dropped), dropped[0]["tokens"]
    # it named the smallest alone, not what the best result needs: the budget that returns it
    assert note.endswith(
        f"; nothing came back: the first alone needs {first} tokens (a budget of {first} or more returns it), "
        f"the smallest of them {smallest}"
    ), note


def test_a_query_of_dash_is_read_from_stdin(
    ix: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long task (an agent's whole prompt, emoji and all) can pass the OS's limit on one
    argument: ``query -`` reads it from stdin."""
    task = "restore the database 🗄️ " * 3000  # 72,000 characters: under the 100,000 limit
    monkeypatch.setattr("sys.stdin", io.StringIO(task))
    code, out, _ = run(capsys, "query", "-", "--index-dir", ix, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["results"] and any("long query" in w for w in data["warnings"])
