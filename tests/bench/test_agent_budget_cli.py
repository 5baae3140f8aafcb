"""`python -m skill_retriever.bench.agent_budget` (the README's command behind the coding
agent's budget figures) given --help or a folder with no index.

Found by a walkthrough: ``--help`` was read as an index folder and both ended in a
Python traceback (IndexNotFoundError).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.bench import agent_budget


def test_help_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        agent_budget.cli(["--help"])
    assert done.value.code == 0 and "INDEX_DIR" in capsys.readouterr().out


def test_a_folder_with_no_index_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        agent_budget.cli([str(tmp_path / "none")])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"error: no index at {tmp_path / 'none'}" in err and "Traceback" not in err
