"""A hook the project's ``.claude/settings.local.json`` holds already (same event, matcher
and command): install still adds it to ``settings.json``, the file the project shares,
and its plan says where the other copy is; Claude Code runs a handler that two settings
files define once (hooks reference; anthropics/claude-code#76297). ``settings.local.json``
is never written, and an uninstall says the copy there stays and still runs. A user
install reads no local file: ``~/.claude/settings.json`` is the only user settings file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from component_catalogue import build_index

from skill_retriever.cli import main
from skill_retriever.stores.index import Index

COMMAND = "npx prettier --write ."
OTHER = "echo other"
LOCAL_TEXT = json.dumps(
    {"permissions": {"allow": ["Bash(ls)"]},
     "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": COMMAND, "timeout": 9}]}]}},
    indent=4,
)


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    hooks = [{"type": "command", "command": c} for c in (COMMAND, OTHER)]
    doc = {"description": "format on edit", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": hooks}]}}
    (repo / "hooks" / "fmt.json").write_text(json.dumps(doc))
    index: Index = build_index(tmp_path / "index", [repo])
    index.close()
    return str(tmp_path / "index")


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.local.json").write_text(LOCAL_TEXT)
    return project


def test_install_names_the_local_copy_and_never_writes_it(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path)
    assert main(["install", "fmt", "--index-dir", index_dir, "--target", str(project), "--json"]) == 0
    files = json.loads(capsys.readouterr().out)["components"][0]["files"]
    reasons = [f.get("reason", "") for f in files]
    assert reasons[0].startswith("the same hook is in .claude/settings.local.json already; Claude Code runs it once")
    assert reasons[1] == ""  # the hook the local file lacks: nothing to say
    settings = json.loads((project / ".claude/settings.json").read_text())
    group = settings["hooks"]["PostToolUse"][0]
    assert group["matcher"] == "Edit" and [h["command"] for h in group["hooks"]] == [COMMAND, OTHER]
    assert (project / ".claude/settings.local.json").read_text() == LOCAL_TEXT

    assert main(["uninstall", "fmt", "--target", str(project), "--dry-run"]) == 0
    dry = [line.strip() for line in capsys.readouterr().out.splitlines()]
    note = ("note: hook PostToolUse (tools matching Edit) stays in .claude/settings.local.json, where you have it "
            "too, and still runs from there; remove it there by hand if you meant it gone (uninstall never edits that file)")
    assert note in dry
    assert main(["uninstall", "fmt", "--target", str(project)]) == 0
    assert note in [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert (project / ".claude/settings.local.json").read_text() == LOCAL_TEXT


def test_the_plan_line_says_it_and_a_user_install_reads_no_local_file(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    assert main(["install", "fmt", "--index-dir", index_dir, "--target", str(project), "--dry-run"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert any(
        line.startswith("would add hook PostToolUse (tools matching Edit, runs npx prettier --write .) to "
                        ".claude/settings.json: the same hook is in .claude/settings.local.json already")
        for line in lines
    ), lines
    home = _project(tmp_path / "home")  # a stray local file in the user folder: not Claude Code's
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    code = main(["install", "fmt", "--index-dir", index_dir, "--user", "--json"])
    assert code == 0
    files = json.loads(capsys.readouterr().out)["components"][0]["files"]
    assert [f.get("reason", "") for f in files] == ["", ""]
