"""Every subcommand's ``--help`` opens with a description of what it does, and
``skill-retriever --help`` lists every subcommand with a line: ``query``, ``index``,
``stats``, ``calibrate``, ``repair`` and ``move-to-server`` had none, so their help began
with the options."""

from __future__ import annotations

import argparse

import pytest

from skill_retriever.cli import _parser, main


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_each_subcommand_says_what_it_does(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    description = subcommands()[name].description
    assert description and description[0].isupper() and description.endswith("."), (name, description)
    text = help_of([name, "--help"], capsys)
    usage, _, rest = text.partition("\n\n")  # the usage block, then the description
    assert usage.startswith(f"usage: skill-retriever {name} ")
    assert " ".join(rest.split()).startswith(" ".join(description.split())[:60]), rest


def test_the_main_help_lists_every_subcommand_with_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(["--help"], capsys)
    listed = text.partition("positional arguments:")[2].partition("options:")[0]
    for name in subcommands():
        line = next((s for s in listed.splitlines() if s.strip().startswith(f"{name} ")), "")
        assert len(line.split()) > 2, f"{name} has no help line in skill-retriever --help"
