"""A script a hook command runs as its program is installed executable, whatever mode
its source has and whether or not ``supportingFiles`` says so: the command's first word,
after environment assignments, is the copy's path (``.claude/hooks/x.sh``,
``./.claude/hooks/x.sh``, ``"$CLAUDE_PROJECT_DIR"/...``, ``"$HOME"/...`` for a user
install). One an interpreter runs (``python3 x.py``, ``bash x.sh``) keeps its mode."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

#: hook name -> (its command, the script it ships beside it, run as the program)
HOOKS = {
    "bare": (".claude/hooks/bare.sh", "bare.sh", True),
    "dotted": ("./.claude/hooks/dotted.sh --fast", "dotted.sh", True),
    "project-var": ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/var.sh', "var.sh", True),
    "with-env": ('LEVEL=2 NAME="a b" .claude/hooks/env.sh', "env.sh", True),
    "relative": ("./rel.sh", "rel.sh", True),  # pointed at the copy, then run directly
    "python": ("python3 .claude/hooks/tool.py", "tool.py", False),
    "bash": ('bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/run.sh', "run.sh", False),
}  # fmt: skip


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, (command, script, _) in HOOKS.items():
        group = {"matcher": "Edit", "hooks": [{"type": "command", "command": command}]}
        doc = {
            "description": f"the {name} hook",
            "hooks": {"PostToolUse": [group]},
            # not marked executable (and the indexer finds a "$VAR"/... script only here)
            "supportingFiles": [{"source": script, "destination": f".claude/hooks/{script}"}],
        }
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
        source = repo / "hooks" / script
        source.write_text("#!/bin/sh\nexit 0\n" if script.endswith(".sh") else "print()\n")
        source.chmod(0o444)  # as a read-only checkout gives it: no execute bit to copy
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [repo], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def ids(index: Index) -> list[str]:
    by_name = {n.name: n.id for n in index.nodes.values()}
    return [by_name[n] for n in HOOKS]


def commands(settings: Path) -> list[str]:
    data = json.loads(settings.read_text())
    return [h["command"] for gs in data["hooks"].values() for g in gs for h in g["hooks"]]


@pytest.mark.parametrize("scope", ["project", "user"])
def test_a_script_a_command_runs_directly_is_executable(
    index: Index, tmp_path: Path, scope: str
) -> None:
    root = tmp_path / scope
    where = {"user": True, "home": root} if scope == "user" else {"target": root}
    plan = install(index, ids(index), **where)  # type: ignore[arg-type]
    assert plan.ok and {c.status for c in plan.components} == {"install"}
    for name, (_, script, direct) in HOOKS.items():
        mode = (root / ".claude/hooks" / script).stat().st_mode & 0o777
        assert mode == (0o755 if direct else 0o644), (name, oct(mode))
    # and each command that runs a shell script directly runs, from the project folder
    env = {"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(root), "HOME": str(root)}
    for command in commands(root / ".claude/settings.json"):
        if ".sh" in command and not command.startswith("bash"):
            done = subprocess.run(["sh", "-c", command], cwd=root, env=env, check=False)
            assert done.returncode == 0, command
    assert uninstall(ids(index), **where).ok  # type: ignore[arg-type]
    assert not root.exists()
