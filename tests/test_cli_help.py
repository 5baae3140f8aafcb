"""The query command's help states the defaults the code applies. The CLI writes them as
text (it imports neither ``config`` nor ``calibration`` before parsing, so ``--help``
stays fast); these tests fail when a default changes and its help line does not."""

from __future__ import annotations

import re

import pytest

from skill_retriever.calibration.defaults import CATALOGUE_SETTINGS
from skill_retriever.cli import main
from skill_retriever.config import RetrievalConfig


def query_help(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(["query", "--help"])
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere


def option_help(text: str, option: str) -> str:
    """The help of one option, after the usage line: from its name to the next option's."""
    options = text.partition(" options: ")[2]
    found = re.search(rf"{re.escape(option)}\b.*?(?= --[a-z]|$)", options)
    assert found is not None, f"{option} missing from the query help"
    return found.group(0)


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("--clause-coverage", f"{CATALOGUE_SETTINGS['clause_coverage']} for a component or tool catalogue"),
        ("--max-query-chars", f"default {RetrievalConfig().max_query_chars:,} characters"),
    ],
)
def test_query_help_states_the_default_the_code_applies(
    option: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert said in option_help(query_help(capsys), option)


@pytest.mark.parametrize(
    "argv",
    [["uninstall", "x", "--target", ".", "--index-dir", "ix"], ["mcp", "--json"]],
)
def test_an_option_a_command_would_ignore_is_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """uninstall reads the install record, not an index; mcp speaks JSON-RPC whatever
    it is told: each refuses the option instead of taking and ignoring it."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


def test_every_index_dir_help_names_the_variable_that_sets_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    # the moves said "(default .skill-retriever)" alone, the other commands the variable too
    from skill_retriever.cli import _parser

    commands = _parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name, parser in commands.items():
        action = next((a for a in parser._actions if "--index-dir" in a.option_strings), None)
        if action is None or action.help is None:
            continue
        assert "$SKILL_RETRIEVER_INDEX, else .skill-retriever" in action.help, (name, action.help)


def test_query_help_states_where_the_smart_ranking_is_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    from skill_retriever.calibration.long_items import LONG_ITEM_WORDS, MIN_LONG_SHARE

    line = option_help(query_help(capsys), "--multifactor-ranking")
    assert "{on,off}" in line
    assert f"off where at least {MIN_LONG_SHARE:.0%} of the items run past {LONG_ITEM_WORDS} words" in line
