"""A hook installed where the target's settings turn every hook off
(``"disableAllHooks": true``): Claude Code runs none of them, this one included. The plan
says which file does it and what to change; the hook is written all the same (the user may
turn hooks back on). The project's ``settings.local.json`` is read over its
``settings.json``, as Claude Code reads one key set in both.

Before, the plan said "add hook" with nothing more, for a hook that would never run
(seen: installing davila7's prevent-direct-push into a project whose
``.claude/settings.json`` holds ``{"disableAllHooks": true}``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

NOTE = ('{file} sets "disableAllHooks": true, so Claude Code runs no hook, this one included: '
        "remove that key (or set it to false) for it to run")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    (repo / "hooks" / "stop-note.json").write_text(json.dumps({
        "description": "Say when Claude stops.",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stopped"}]}]},
    }), encoding="utf-8")  # fmt: skip
    (repo / "mcps").mkdir()
    (repo / "mcps" / "servers.json").write_text(
        json.dumps({"mcpServers": {"files": {"command": "npx", "args": ["-y", "files-mcp"]}}}), encoding="utf-8"
    )
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(idx, [repo], "skills", calibrate=False)
        yield idx
    finally:
        idx.close()


def _project(tmp_path: Path, **files: dict[str, object]) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    for name, data in files.items():
        (project / ".claude" / f"{name.replace('_', '.')}.json").write_text(json.dumps(data), encoding="utf-8")
    return project


def _reasons(index: Index, project: Path) -> dict[str, str]:
    plan = install(index, sorted(index.snapshot().nodes), project)
    assert plan.ok
    return {c.name: c.reason for c in plan.components}


def test_settings_that_turn_hooks_off_are_named(index: Index, tmp_path: Path) -> None:
    project = _project(tmp_path, settings={"disableAllHooks": True, "permissions": {"allow": []}})
    got = _reasons(index, project)
    assert got["stop-note"] == NOTE.format(file=".claude/settings.json"), got
    assert "disableAllHooks" not in got["files"], got  # a server is no hook
    hooks = json.loads((project / ".claude" / "settings.json").read_text())
    assert hooks["disableAllHooks"] is True and "Stop" in hooks["hooks"]  # written all the same


def test_the_local_file_is_read_over_the_shared_one(index: Index, tmp_path: Path) -> None:
    project = _project(tmp_path, settings={"disableAllHooks": True}, settings_local={"disableAllHooks": False})
    assert "disableAllHooks" not in _reasons(index, project)["stop-note"]
    project = _project(tmp_path / "2", settings={}, settings_local={"disableAllHooks": True})
    assert _reasons(index, project)["stop-note"] == NOTE.format(file=".claude/settings.local.json")


def test_hooks_left_on_say_nothing(index: Index, tmp_path: Path) -> None:
    project = _project(tmp_path, settings={"disableAllHooks": False})
    assert _reasons(index, project)["stop-note"] == ""
