"""Uninstall keeps a script that a hook left in settings.json still runs.

Found in a walkthrough on davila7's secret-scanner hook: the user changed the installed
hook (a timeout added, or a flag appended to its command), so uninstall rightly kept the
hook, but it removed the script the hook runs. ``python3`` on a missing file exits 2, and
a PreToolUse hook exiting 2 blocks the tool call: every Bash call, after an uninstall
that said it kept the hook.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import build_index

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.hook_scripts import runs
from skill_retriever.stores.index import Index

COMMAND = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py'
SCRIPT = ".claude/hooks/scan.py"
KEPT_SCRIPT = "a hook in .claude/settings.json still runs it; remove that hook, then run uninstall again"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    doc = {
        "description": "scans each Bash command for secrets",
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": COMMAND}]}]},
        "supportingFiles": [{"source": "scan.py", "destination": SCRIPT}],
    }
    (repo / "hooks" / "scanner.json").write_text(json.dumps(doc))
    (repo / "hooks" / "scan.py").write_text("import sys\nsys.exit(0)\n")
    idx = build_index(tmp_path / "index", [repo])
    yield idx
    idx.close()


@pytest.fixture
def root(index: Index, tmp_path: Path) -> Path:
    target = tmp_path / "project"
    assert install(index, ["scanner"], target).ok
    assert (target / SCRIPT).is_file()
    return target


def _edit_settings(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / ".claude/settings.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _installed_hook(data: dict[str, Any]) -> dict[str, Any]:
    hook: dict[str, Any] = data["hooks"]["PreToolUse"][0]["hooks"][0]
    return hook


def test_a_changed_hook_keeps_its_script_until_the_hook_goes(root: Path) -> None:
    _edit_settings(root, lambda d: _installed_hook(d).update(timeout=30))
    report = uninstall(["scanner"], root)
    assert not report.ok
    assert report.kept == {
        ".claude/settings.json#hooks.PreToolUse[Bash]":
            "changed since it was installed (its command is still there); remove it by hand",
        SCRIPT: KEPT_SCRIPT,
    }
    assert (root / SCRIPT).read_text() == "import sys\nsys.exit(0)\n"
    assert report.recorded == []  # undoing a change would not help: the hook must go
    # asked again with the hook still there: kept again (the record still names the script)
    assert uninstall(["scanner"], root).kept == {SCRIPT: KEPT_SCRIPT}
    assert (root / SCRIPT).is_file()
    # the user removes the hook; the next uninstall finishes
    _edit_settings(root, lambda d: d["hooks"].pop("PreToolUse"))
    done = uninstall(["scanner"], root)
    assert done.ok and done.removed == [SCRIPT]
    assert not (root / ".claude/hooks").exists()
    assert not (root / ".claude/.skill-retriever").exists()


def test_a_hook_whose_command_was_edited_is_kept_with_its_script(root: Path) -> None:
    """The edited command no longer equals the installed one: without the script check the
    hook read as removed by the user ("gone already") and the script went."""
    _edit_settings(root, lambda d: _installed_hook(d).update(command=COMMAND + " --strict"))
    report = uninstall(["scanner"], root)
    assert report.kept == {
        ".claude/settings.json#hooks.PreToolUse[Bash]":
            f"changed since it was installed (a hook there still runs {SCRIPT}); remove it by hand",
        SCRIPT: KEPT_SCRIPT,
    }
    assert report.gone == [] and (root / SCRIPT).is_file()


def test_force_does_not_remove_a_script_a_hook_runs(root: Path) -> None:
    _edit_settings(root, lambda d: _installed_hook(d).update(timeout=30))
    report = uninstall(["scanner"], root, force=True)
    assert report.kept[SCRIPT] == KEPT_SCRIPT and (root / SCRIPT).is_file()


def test_the_users_own_hook_on_the_script_keeps_it(root: Path) -> None:
    """The installed hook is unchanged and goes; a hook the user added runs the script too."""
    mine = {"matcher": "Edit", "hooks": [{"type": "command", "command": f"python3 {SCRIPT} --edit"}]}
    _edit_settings(root, lambda d: d["hooks"].setdefault("PostToolUse", []).append(mine))
    report = uninstall(["scanner"], root)
    assert report.removed == [".claude/settings.json#hooks.PreToolUse[Bash]"]
    assert report.kept == {SCRIPT: KEPT_SCRIPT}
    settings = json.loads((root / ".claude/settings.json").read_text())
    assert settings["hooks"] == {"PostToolUse": [mine]}


def test_an_unreadable_settings_file_stops_the_script_from_going(root: Path) -> None:
    """Once the hook was kept, the record holds only the script: whether a hook still runs
    it cannot be told without settings.json, so nothing is removed."""
    _edit_settings(root, lambda d: _installed_hook(d).update(timeout=30))
    uninstall(["scanner"], root)
    (root / ".claude/settings.json").write_text("{ not json")
    from skill_retriever.components.install.plan import InstallError

    with pytest.raises(InstallError, match=r"settings\.json is not valid JSON .*nothing removed"):
        uninstall(["scanner"], root)
    assert (root / SCRIPT).is_file()


@pytest.mark.parametrize(("command", "expected"), [
    (COMMAND, True),
    ('"$HOME"/.claude/hooks/scan.py', True),
    ("$CLAUDE_CONFIG_DIR/hooks/scan.py --fast", True),
    ("python3 .claude/myhooks/scan.py", False),
    ("python3 .claude/hooks/scan.pyc", False),
    ("python3 .claude/hooks/scan.py.bak", False),
])  # fmt: skip
def test_a_command_runs_the_script_only_by_its_whole_name(command: str, expected: bool) -> None:
    assert runs(SCRIPT, command) is expected
