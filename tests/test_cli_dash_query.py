"""A query (or a source name) that begins with '-' is told how to give it.

Found in a CLI audit: ``query --no-verify --index-dir .idx`` (a skill about git's
``--no-verify``) said "the following arguments are required: query", though a query was
given, and ``query -- -fuzz -k 3`` said "unrecognized arguments: -k 3" of an option the
user had written: argparse reads one word that begins with '-' as an option, and every
word after ``--`` as a positional.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from cli_calls import run
from runbook_index import runbook_index


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return runbook_index(tmp_path, capsys)


def _advised(err: str) -> list[str]:
    """The command the error line gives, between backquotes, as its words."""
    return shlex.split(err.split("`")[1])


@pytest.mark.parametrize("word", ["--restore", "-restore"])
def test_a_one_word_query_beginning_with_a_dash_is_told_to_follow_double_dash(
    ix: str, word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "query", word, "--index-dir", ix, "-k", "2")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"{word!r} begins with '-', so it was read as an option" in err, err
    advised = _advised(err)
    assert advised[:2] == ["skill-retriever", "query"] and advised[-2:] == ["--", word]
    # the command it gives runs as printed, and searches for the word
    code, out, _ = run(capsys, *advised[1:])
    assert code == 0
    assert "runbook" in out


def test_a_missing_query_with_only_known_options_says_only_that(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "query", "--index-dir", ix, "-k", "2", "--json")
    err = capsys.readouterr().err
    assert "the following arguments are required: query (see" in err
    assert "begins with '-'" not in err


def test_options_after_double_dash_are_said_to_be_read_as_the_query(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "query", "--", "-restore", "--index-dir", ix)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"unrecognized arguments: --index-dir {ix}; every word after '--' is read as the query" in err
    assert "put the options before '--'" in err


def test_a_source_name_beginning_with_a_dash_is_told_too(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "remove-source", "-old", "--index-dir", ix, "--dry-run")
    advised = _advised(capsys.readouterr().err)
    assert advised[-2:] == ["--", "-old"] and "--dry-run" in advised
