"""A file the user added in a plugin's command folder an install wrote into gets the
``kept ...: your file`` line a file in a skill's folder gets (`your_files`).

``install beta`` writes ``.claude/commands/beta/deploy.md`` and ``clean.md``; a
``mine.md`` the user put beside them stayed after ``uninstall beta``, and with it the
folder, with no line saying so (seen: the report listed the removed files only).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import installed_fresh, run
from shared_root_market import shared_root_components_index

MINE = ".claude/commands/beta/mine.md"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("yours")
    return shared_root_components_index(root)


def test_your_file_in_a_plugins_command_folder_is_named_dry_run_alike(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta")
    (target / MINE).write_text("my own command\n")
    said = f"{MINE}: your file (no install wrote it), so .claude/commands/beta stays; delete it if you no longer need it"
    code, out, err = run(capsys, "uninstall", "beta", "--target", target, "--dry-run")
    assert code == 0 and f"would keep {said}" in out, out + err
    code, out, err = run(capsys, "uninstall", "beta", "--target", target)
    assert code == 0 and f"kept {said}" in out and "SKILL.md;" not in out, out + err
    assert (target / MINE).read_text() == "my own command\n"
    assert not (target / ".claude/commands/beta/deploy.md").exists()
    code, out, err = run(capsys, "install", "beta", "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "beta", "--target", target, "--json")
    assert code == 0 and json.loads(out)["kept_yours"] == {MINE: ".claude/commands/beta"}, out


def test_a_folder_still_holding_an_installed_file_names_none_of_yours(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """beta's deploy.md, changed, is kept: the folder stays for it (its own kept line), not
    for the user's file."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta")
    (target / MINE).write_text("my own command\n")
    (target / ".claude/commands/beta/deploy.md").write_text("changed\n")
    code, out, err = run(capsys, "uninstall", "beta", "--target", target)
    assert code == 1 and "kept .claude/commands/beta/deploy.md: changed since" in out, out + err
    assert "your file" not in out, out
