"""``skill-retriever query --profile NAME`` and ``--set NAME=VALUE``: the command line picks
a profile and any setting, as ``Retriever(index, config_for(name, **settings))`` does in
Python and a run's ``profile`` does on the LangGraph server. The query took only its own
flags, so a shell user could not reach the ``multihop`` profile or a setting such as
``snippet_chars`` at all.

Each ``--set`` value is read as JSON (``3``, ``false``, ``{"keyword": false}``,
``[0.5, 0.3]``), else as text (``quick``), and checked by ``RetrievalConfig.override``, the
one check every entry point uses; a setting that has its own flag (``k``: ``-k``) or a
filter (``kinds``: ``--kinds``) is refused, naming the flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from runbook_index import runbook_index


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return runbook_index(tmp_path, capsys)


def _answer(capsys: pytest.CaptureFixture[str], ix: str, *flags: str) -> dict[str, object]:
    code, out, err = run(capsys, "query", "restore the database", "--index-dir", ix, "--json", *flags)
    assert code == 0, err
    answer: dict[str, object] = json.loads(out)
    return answer


def _refused(capsys: pytest.CaptureFixture[str], ix: str, *flags: str) -> str:
    """The one error line of a refused query (argparse's exit, or the command's own)."""
    try:
        code, _, err = run(capsys, "query", "restore the database", "--index-dir", ix, *flags)
    except SystemExit as exit_:
        code, err = int(exit_.code or 0), capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("skill-retriever query: error: "), err
    return err


def test_profile_applies_its_settings(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    plain = _answer(capsys, ix)
    multihop = _answer(capsys, ix, "--profile", "multihop")
    assert plain["stats"]["plan_query"]["route"] == "smart"  # type: ignore[index]
    assert multihop["stats"]["plan_query"]["route"] == "ppr"  # type: ignore[index]  # the profile's route
    # the run's own --route still wins over the profile's
    assert _answer(capsys, ix, "--profile", "multihop", "--route", "quick")["stats"]["plan_query"]["route"] == "quick"  # type: ignore[index]


def test_unknown_profile_refused_with_the_close_name(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, ix, "--profile", "multihp")
    assert "unknown profile 'multihp' (did you mean 'multihop'?)" in err
    assert "'design'" in err and "'multihop'" in err


def test_set_applies_a_setting(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    short = _answer(capsys, ix, "--set", "snippet_chars=40")
    assert all(len(r["snippet"]) <= 41 for r in short["results"])  # type: ignore[attr-defined,index]
    assert any(len(r["snippet"]) > 41 for r in _answer(capsys, ix)["results"])  # type: ignore[attr-defined,index]
    # text, not JSON, is taken as text; later --set adds to earlier ones
    both = _answer(capsys, ix, "--set", "default_route=quick", "--set", 'channels={"keyword": false}')
    assert both["stats"]["plan_query"]["route"] == "quick"  # type: ignore[index]
    assert "keyword" not in both["results"][0]["channels"]  # type: ignore[index]


def test_set_over_a_profile(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    answer = _answer(capsys, ix, "--profile", "multihop", "--set", "snippet_chars=40")
    assert answer["stats"]["plan_query"]["route"] == "ppr"  # type: ignore[index]
    assert all(len(r["snippet"]) <= 41 for r in answer["results"])  # type: ignore[attr-defined,index]


@pytest.mark.parametrize(("flag", "words"), [
    ("kk=3", "--set kk=3: unknown setting(s) ['kk'] (did you mean 'k'?)"),
    ("rrf_k=0", "--set rrf_k=0: rrf_k must be > 0, got 0"),
    ("rrf_k=fast", "--set rrf_k=fast: setting 'rrf_k' has the wrong type"),
    ("seed_node_min_similarity=7", "--set seed_node_min_similarity=7: "),
    ("snippet_chars", "argument --set: expected NAME=VALUE (e.g. --set rrf_k=30), got 'snippet_chars'"),
    ("=3", "argument --set: expected NAME=VALUE (e.g. --set rrf_k=30), got '=3'"),
    ("k=3", "--set k=3: k has its own flag, -k"),
    ("token_budget=100", "--set token_budget=100: token_budget has its own flag, --budget"),
    ("rerank=false", "--set rerank=false: rerank has its own flag, --no-rerank"),
    ("kinds=skill", "--set kinds=skill: kinds is a filter: --kinds"),
])
def test_bad_set_refused_in_one_line(ix: str, capsys: pytest.CaptureFixture[str], flag: str, words: str) -> None:
    assert words in _refused(capsys, ix, "--set", flag)


def test_help_names_both(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "query", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "--profile NAME" in text and "multihop" in text
    assert "--set NAME=VALUE" in text
