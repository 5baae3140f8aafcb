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
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, hook in HOOKS.items():
        doc = {"description": f"the {name} hook", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [hook]}]}}
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [repo], "skills")
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
