"""A hook whose command runs a script that neither it ships nor the target holds is not
written: installed, ``python3`` on the missing file exits 2, which Claude Code reads as a
blocking error for a PreToolUse hook (every Bash call of the agent blocked). It is skipped,
saying which script, where to put it and to install again (and, for an event that blocks
on exit 2, what it would block); ``force`` writes it all the same, with a note. A script
the target holds, or another component of the install writes, is enough. Through the
Python API, the CLI and the MCP tool, on a small repository indexed for the test, and the
forced hook run for real to show what a missing script does."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from files import write_file
from hook_repos import indexed_repo

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.components.install import install
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

GATE = "python3 .claude/hooks/gate.py --strict"
FMT = "bash .claude/hooks/fmt.sh"


def _hook(event: str, command: str, matcher: str = "Bash") -> str:
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}
    return json.dumps({"description": f"runs {command}", "hooks": {event: [group]}})


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_file(repo, "hooks/gate.json", _hook("PreToolUse", GATE))  # gate.py: not shipped
    write_file(repo, "hooks/fmt.json", _hook("PostToolUse", FMT, "Edit"))  # fmt.sh: not shipped
    write_file(repo, "hooks/local.json", _hook("Stop", "bash checks/run.sh", ""))  # the project's
    # a hook that ships guard.py (beside it), and one elsewhere that runs it without shipping it
    write_file(repo, "hooks/guard-provider.json", _hook("PreToolUse", "python3 .claude/hooks/guard.py"))
    write_file(repo, "hooks/guard.py", "import sys\nsys.exit(0)\n")
    write_file(repo, "more/hooks/guard-user.json", _hook("Stop", "python3 .claude/hooks/guard.py", ""))
    return indexed_repo(repo, tmp_path / "ix")


@pytest.fixture
def index(index_dir: Path) -> Iterator[Index]:
    opened = Index.open(index_dir)
    yield opened
    opened.close()


def _one(plan: Any, name: str) -> Any:
    return next(c for c in plan.components if c.name == name)


def test_a_hook_whose_script_is_missing_is_skipped_saying_which_where_and_what_it_would_block(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, ["gate", "fmt"], project)
    gate, fmt = _one(plan, "gate"), _one(plan, "fmt")
    assert (gate.status, fmt.status) == ("skipped", "skipped") and not plan.ok
    assert not (project / ".claude").exists()  # nothing written
    where = project / ".claude/hooks/gate.py"
    assert gate.reason.startswith(
        f"its PreToolUse commands run .claude/hooks/gate.py, which it does not ship and is not at {where}: "
        "put that script there, then install again."
    )
    assert "a PreToolUse hook that exits 2, as python3 does on a missing file, blocks every tool call it guards" in gate.reason
    assert gate.reason.endswith("--force (force=True) writes it all the same")
    # PostToolUse does not block on exit 2: the reason says the hook fails, no more
    assert "fmt.sh, which it does not ship" in fmt.reason and "exit 2" not in fmt.reason
    assert "the hook would fail each time it runs;" in fmt.reason


def test_force_writes_it_with_a_note_and_the_forced_hook_really_blocks(index: Index, tmp_path: Path) -> None:
    """Why the rule: the forced hook's command, run as Claude Code runs it, exits 2."""
    project = tmp_path / "proj"
    plan = install(index, ["gate"], project, force=True)
    (gate,) = plan.components
    assert plan.ok and gate.status == "install"
    assert gate.reason.startswith("written as forced, but its PreToolUse commands run .claude/hooks/gate.py")
    settings = json.loads((project / ".claude/settings.json").read_text())
    (command,) = [h["command"] for g in settings["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert command == GATE
    ran = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True, text=True, check=False)
    assert ran.returncode == 2 and "gate.py" in ran.stderr  # Claude Code: a blocking error
    # installed again without force: unchanged, and the plan says the script is missing
    (again,) = install(index, ["gate"], project).components
    assert again.status == "unchanged" and again.reason.startswith("installed earlier, but its PreToolUse")
    assert "or uninstall it" in again.reason


def test_a_script_the_project_holds_or_the_install_writes_is_enough(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    held = write_file(project, ".claude/hooks/gate.py", "import sys\nsys.exit(0)\n")
    write_file(project, "checks/run.sh", "exit 0\n")
    plan = install(index, ["gate", "local", "guard-user", "guard-provider"], project)
    assert plan.ok and {c.status for c in plan.components} == {"install"}
    assert f"its commands run .claude/hooks/gate.py, which it does not ship; {held} holds it" in _one(plan, "gate").reason
    assert f"{project / 'checks/run.sh'} holds it" in _one(plan, "local").reason
    user = _one(plan, "guard-user")
    assert "its commands run .claude/hooks/guard.py, which another component of this install writes" in user.reason
    assert (project / ".claude/hooks/guard.py").is_file()
    # a Stop hook's bare script that the project lacks: skipped, and Stop blocks on exit 2
    (local,) = install(index, ["local"], tmp_path / "other").components
    assert local.status == "skipped" and "keeps Claude from stopping" in local.reason


def test_a_user_wide_hook_running_a_project_relative_script_is_skipped(
    index: Index, tmp_path: Path, home: Path
) -> None:
    (local,) = install(index, ["local"], user=True, home=home).components
    assert local.status == "skipped" and not (home / ".claude/settings.json").exists()
    assert "relative to the folder Claude Code starts them in: the open project's" in local.reason
    assert "install it into a project that holds checks/run.sh (--target) instead" in local.reason


def test_the_cli_and_the_mcp_tool_say_it_and_force_writes_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, _ = run(capsys, "install", "gate", "--target", project, "--index-dir", index_dir)
    assert code == 1 and "[hook] gate" in out and ": skipped - its PreToolUse commands run .claude/hooks/gate.py" in out
    assert not (project / ".claude").exists()
    index = Index.open(index_dir)
    try:
        server = build_server(index, retriever=Retriever(index, reranker=None))
        gate_id = next(n.id for n in index.nodes.values() if n.name == "gate")
        args = {"ids": [gate_id], "target": str(project), "dry_run": False, "detail": "full"}
        kept = asyncio.run(server.call_tool("install_components", args)).structured_content
        forced = asyncio.run(server.call_tool("install_components", {**args, "force": True})).structured_content
    finally:
        index.close()
    assert kept["ok"] is False and kept["components"][0]["status"] == "skipped"
    assert "blocks every tool call it guards" in kept["components"][0]["reason"]
    assert forced["ok"] is True and forced["components"][0]["status"] == "install"
    assert (project / ".claude/settings.json").is_file()
