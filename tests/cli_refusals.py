"""A CLI command that exits 2, as a test reads it: its one stderr line and its stdout."""

from __future__ import annotations

import pytest

from skill_retriever.cli import main


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The one stderr line and the stdout of a command that exits 2 (argparse's own
    refusals raise SystemExit, the others return 2)."""
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exited:
        code = int(exited.code or 0)
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, err)
    return lines[0], out
