"""Installing a hook again after the user changed the installed one in settings.json.

QA found it: ``fmt``'s hook installed, the user gave it ``"timeout": 5``, and ``install fmt``
again said ``add hook PostToolUse ... in the existing PostToolUse group for Edit``: the
file then held the command twice (Claude Code runs both), and ``uninstall fmt`` took back
the copy just added and exited 1 over the user's. An edited file is left as the user made
it (``yours, changed since it was installed``); the install record tells the hook apart
the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

COMMAND = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh'
INSTALLED = {"type": "command", "command": COMMAND}
WORDS = "hook PostToolUse (tools matching Edit)"
HOOK = f"{WORDS} in .claude/settings.json"
YOURS = f"unchanged {HOOK}: yours, changed since it was installed"
KEPT = "kept hook PostToolUse (tools matching Edit, runs"


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    write_file(src, "hooks/fmt.sh", "#!/bin/sh\necho fmt\n", mode=0o755)
    hooks = {"PostToolUse": [{"matcher": "Edit", "hooks": [dict(INSTALLED)]}]}
    write_file(src, "hooks/fmt.json", {"description": "format after edits", "hooks": hooks})
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    yield tmp_path / "index"


def _installed(capsys: pytest.CaptureFixture[str], project: Path, index_dir: Path) -> Path:
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    return project / ".claude/settings.json"


def _edit(settings: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(settings.read_text())
    change(data["hooks"]["PostToolUse"][0]["hooks"][0])
    settings.write_text(json.dumps(data, indent=2))


def _hooks(settings: Path) -> list[tuple[str, dict[str, Any]]]:
    data = json.loads(settings.read_text())
    return [(g.get("matcher", ""), h) for g in data["hooks"]["PostToolUse"] for h in g["hooks"]]


def _timeout(hook: dict[str, Any]) -> None:
    hook["timeout"] = 5


def _quiet(hook: dict[str, Any]) -> None:
    hook["command"] = f"{COMMAND} --quiet"


def _uninstalled(capsys: pytest.CaptureFixture[str], project: Path) -> tuple[int, list[str]]:
    code, out, _ = run(capsys, "uninstall", "fmt", "--target", project)
    return code, [line.replace(str(project), "<target>") for line in out.splitlines()]


@pytest.mark.parametrize("change", [_timeout, _quiet], ids=["timeout", "command"])
def test_reinstall_leaves_the_changed_hook_as_it_is_and_adds_no_copy(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[dict[str, Any]], None]
) -> None:
    project = tmp_path / "proj"
    settings = _installed(capsys, project, index_dir)
    _edit(settings, change)
    edited = settings.read_bytes()
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir)
    assert code == 0 and YOURS in out and "add hook" not in out, out + err
    assert settings.read_bytes() == edited
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir, "--json")
    assert code == 0, out + err
    (hook,) = [f for c in json.loads(out)["components"] for f in c["files"] if "#hooks." in f["path"]]
    assert hook["action"] == "unchanged" and hook["reason"].startswith("yours, changed since it was installed")
    # Uninstall then reads as after the install and the edit alone: the hook is the user's.
    plain = tmp_path / "plain"
    _edit(_installed(capsys, plain, index_dir), change)
    code, lines = _uninstalled(capsys, project)
    assert (code, lines) == _uninstalled(capsys, plain), lines
    assert code == 1 and any(line.startswith(f"  {KEPT}") for line in lines), lines
    assert settings.read_bytes() == edited


def test_force_puts_the_installed_hook_back_in_its_place(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    settings = _installed(capsys, project, index_dir)
    data = json.loads(settings.read_text())
    data["hooks"]["PostToolUse"][0]["hooks"].append({"type": "command", "command": "echo mine"})
    settings.write_text(json.dumps(data))
    _edit(settings, _timeout)
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir, "--force")
    assert code == 0 and f"  replace {HOOK}: changed since it was installed" in out, out + err
    assert _hooks(settings) == [("Edit", INSTALLED), ("Edit", {"type": "command", "command": "echo mine"})]
    code, lines = _uninstalled(capsys, project)
    assert code == 0 and "  removed .claude/hooks/fmt.sh" in lines, lines
    assert _hooks(settings) == [("Edit", {"type": "command", "command": "echo mine"})]


def test_a_hook_moved_to_another_matcher_is_the_installed_one_too(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    settings = _installed(capsys, project, index_dir)
    settings.write_text(settings.read_text().replace('"Edit"', '"Edit|Write"'))
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir)
    assert code == 0 and YOURS in out, out + err
    assert _hooks(settings) == [("Edit|Write", INSTALLED)]
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir, "--force")
    assert code == 0, out + err
    assert _hooks(settings) == [("Edit", INSTALLED)]


def test_a_hook_the_user_added_without_an_install_is_not_taken_for_one(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the record says a hook was installed: a project holding the user's own hook
    that runs the same command gets the component's added (as before)."""
    project = tmp_path / "proj"
    mine = {"type": "command", "command": COMMAND, "timeout": 5}
    write_file(project, ".claude/settings.json", {"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [mine]}]}})
    code, out, err = run(capsys, "install", "fmt", "--target", project, "--index-dir", index_dir)
    assert code == 0 and f"add {WORDS} to .claude/settings.json, in the existing PostToolUse group for Edit" in out, out + err
    assert _hooks(project / ".claude/settings.json") == [("Edit", mine), ("Edit", INSTALLED)]
