"""Command hooks as Claude Code reads them (walkthrough of real hook files): ``async`` and
``statusMessage`` are real fields and a timeout may be fractional, so such a hook installs
as written (it was skipped as having "fields Claude Code does not read"), while a timeout of
0 is refused (it was written as is); a hook that only writes a log under ``~/.claude``
installs into a project (it was refused as running scripts from the home folder), and one
that runs a script from there still is not."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from claude_schema import settings_problems
from hook_repos import hooks_index, post_edit

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOKS: dict[str, dict[str, Any]] = {
    "background": {"type": "command", "command": "echo hi", "async": True, "statusMessage": "saying hi", "timeout": 1.5},
    "zero-timeout": {"type": "command", "command": "echo hi", "timeout": 0},
    "text-async": {"type": "command", "command": "echo hi", "async": "yes"},
    "home-log": {"type": "command", "command": "echo \"$(date) edit\" >> ~/.claude/changes.log"},
    "home-script": {"type": "command", "command": "bash ~/.claude/scripts/notify.sh"},
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    idx = hooks_index(tmp_path, post_edit(HOOKS))
    yield idx
    idx.close()


def test_hook_fields_as_claude_code_reads_them(index: Index, tmp_path: Path) -> None:
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    plan = install(index, [by_name[n] for n in HOOKS], project)
    status = {c.name: c for c in plan.components}
    assert {n for n, c in status.items() if c.status == "install"} == {"background", "home-log"}
    assert "timeout must be a positive number of seconds, got 0" in status["zero-timeout"].reason
    assert "async must be true or false" in status["text-async"].reason
    assert "run scripts from the home folder" in status["home-script"].reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    written = [h for g in settings["hooks"]["PostToolUse"] for h in g["hooks"]]
    assert HOOKS["background"] in written and HOOKS["home-log"] in written


def test_a_script_named_without_a_path_beside_the_hook_is_shipped(tmp_path: Path) -> None:
    """``python3 check.py`` with check.py beside the hook file: the script was not shipped
    (only a same-stem file or a path with a slash was), so the hook ran nothing."""
    repo = tmp_path / "repo"
    (repo / "hooks/misc").mkdir(parents=True)
    lint = {"description": "lint on edit", "hooks": {"PostToolUse": [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "python3 check.py"}]}]}}
    (repo / "hooks/misc/lint.json").write_text(json.dumps(lint))
    (repo / "hooks/misc/check.py").write_text("print('ok')\n")
    flat = {"name": "guard", "description": "guard bash", "event": "PreToolUse", "matcher": "Bash",
            "command": "bash guard.sh"}
    (repo / "hooks/misc/flat.json").write_text(json.dumps(flat))
    (repo / "hooks/misc/guard.sh").write_text("exit 0\n")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    plan = install(index, [by_name["lint"], by_name["guard"]], project)
    assert plan.ok, plan.lines()
    settings = json.loads((project / ".claude/settings.json").read_text())
    written = {h["command"] for g in settings["hooks"].values() for group in g for h in group["hooks"]}
    assert written == {'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py',
                       'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}
    assert (project / ".claude/hooks/check.py").read_text() == "print('ok')\n"
    assert (project / ".claude/hooks/guard.sh").is_file()
    index.close()
