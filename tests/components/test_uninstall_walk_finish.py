"""What a newcomer types after an uninstall that kept something, found walking install
and uninstall: a plugin whose hook the user edited keeps the hook and the script it runs,
saying "remove that hook, then run uninstall again"; the plugin itself is forgotten, so
``uninstall guard`` again was refused (``no component 'guard' installed``) and nothing
said what to type instead. The ``still recorded`` line, which the CLI printed for a file
changed since only, now names the command for any kept reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from guard_plugin import HOOK_ID, indexed, write_guard_plugin

from skill_retriever.components.install import InstallError, uninstall


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    write_guard_plugin(src)
    yield indexed(src, tmp_path / "index")


def _edit_hook(project: Path) -> None:
    """The user adds a timeout to the hook the plugin installed."""
    settings = project / ".claude/settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 30
    settings.write_text(json.dumps(data, indent=2), encoding="utf-8")


def test_a_kept_hook_script_says_the_command_that_finishes(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "guard", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    _edit_hook(project)
    code, out, err = run(capsys, "uninstall", "guard", "--target", project)
    assert code == 1, out + err
    assert "kept .claude/hooks/scripts/check.sh: a hook in .claude/settings.json still runs it" in out, out
    finish = f"uninstall {HOOK_ID} --target {project}"
    assert f"still recorded: {HOOK_ID}:" in out and f"run `skill-retriever {finish}`" in out, out
    # the plugin's name is gone from the record: the line above is the way on
    assert "no component 'guard' installed" in str(pytest.raises(InstallError, uninstall, ["guard"], project).value)
    (project / ".claude/settings.json").write_text("{}\n", encoding="utf-8")  # the user removes the hook
    code, out, err = run(capsys, *finish.split())
    assert code == 0, out + err
    assert "removed .claude/hooks/scripts/check.sh" in out and "still recorded" not in out, out
    assert not (project / ".claude/hooks").exists()
    assert not (project / ".claude/.skill-retriever").exists()


def test_a_dry_run_that_would_keep_the_script_says_what_would_stay_recorded(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    assert run(capsys, "install", "guard", "--target", project, "--index-dir", index_dir)[0] == 0
    _edit_hook(project)
    code, out, err = run(capsys, "uninstall", "guard", "--target", project, "--dry-run")
    assert code == 1, out + err  # as the real run: something would be kept
    assert f"would stay recorded: {HOOK_ID}:" in out, out
    assert (project / ".claude/hooks/scripts/check.sh").is_file()
