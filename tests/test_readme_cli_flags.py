"""The CLI's options and the docs name the same flags: every option of every subcommand's
``--help`` is named in README.md or docs/*.md, every ``skill-retriever CMD ... --flag``
the docs write is an option of that CMD, and every ``skill-retriever`` line of their shell
blocks parses as the CLI reads it. ``query --budget-fill`` (which the budget note
itself advises), ``--no-rerank``, ``--max-query-chars``, ``benchmark --report-only`` and
``-V``/``--version`` were in ``--help`` and nowhere in the docs."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from skill_retriever.cli import _parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAG = r"(?<![\w/.-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def options_of(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings} - {"-h", "--help"}


def docs_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in DOCS)


@pytest.mark.parametrize("name", ["", *sorted(subcommands())])
def test_every_option_of_help_is_named_in_the_docs(name: str) -> None:
    parser = subcommands()[name] if name else _parser()
    text = docs_text()
    missing = sorted(f for f in options_of(parser) if not re.search(re.escape(f) + r"(?![\w-])", text))
    assert not missing, f"skill-retriever {name}: options named in no README.md or docs/*.md: {missing}"


def test_every_flag_a_documented_command_gives_is_an_option_of_that_command() -> None:
    commands = subcommands()
    names = "|".join(re.escape(n) for n in sorted(commands, key=len, reverse=True))
    wrong = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        # up to the end of the inline code, line, table cell or shell comment
        for found in re.finditer(rf"skill-retriever ({names})\b([^`\n|#]*)", text):
            allowed = options_of(commands[found.group(1)]) | {"-h", "--help"}
            for flag in re.findall(FLAG, found.group(2)):
                if flag not in allowed:
                    line = text.count("\n", 0, found.start()) + 1
                    wrong.append(f"{path.name}:{line}: {found.group(0).strip()} ({flag})")
    assert not wrong, "\n".join(wrong)


def shell_commands() -> list[tuple[str, list[str]]]:
    """Each ``skill-retriever`` command line of the docs' sh / console blocks: where, and its
    arguments (``[--json]``, an option the text marks optional, given)."""
    commands = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"^```(?:sh|console|bash)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line.removeprefix("$ "), comments=True)
                at = [i for i, w in enumerate(words) if w == "skill-retriever" or w.endswith("/skill-retriever")]
                if at:
                    argv = [w[1:-1] if w.startswith("[") and w.endswith("]") else w for w in words[at[-1] + 1 :]]
                    commands.append((f"{path.name}: {line.strip()}", argv))
    return commands


def test_the_docs_shell_blocks_run_commands() -> None:
    assert len(shell_commands()) >= 30  # the README's Use it, Skills and marketplace blocks, docs/scaling.md's


@pytest.mark.parametrize(("line", "argv"), shell_commands(), ids=lambda value: value if isinstance(value, str) else "")
def test_each_shell_command_of_the_docs_parses(line: str, argv: list[str]) -> None:
    try:
        _parser().parse_args(argv)
    except SystemExit as exited:
        pytest.fail(f"{line}: the CLI refuses it (exit {exited.code})")
