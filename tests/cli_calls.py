"""The CLI called in-process, as the tests call it: its exit status and what it printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """main's exit status, stdout and stderr."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_lines(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str]]:
    """main's exit status and stdout's lines."""
    code, out, _ = run(capsys, *argv)
    return code, out.splitlines()
