"""The bundled sample's hooks ship the scripts their commands run (scan_staged.py for
block-secrets-in-commits, migration_guard.py for migration-guard, deploy_window.py for
release-train's block-friday-deploys): installed from the
sample, each hook's command, run as Claude Code runs it (``sh -c`` from a folder below the
project, ``$CLAUDE_PROJECT_DIR`` set, the hook's JSON on stdin), exits 2 only on a
finding and 0 otherwise, outside a git repository too. Real git, real files."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install
from skill_retriever.indexing import sample_catalogue_path
from skill_retriever.stores.index import Index

SAMPLE_HOOKS = sample_catalogue_path() / "hooks"
RELEASE_HOOKS = sample_catalogue_path() / "plugins/release-train/hooks"
AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"  # in two pieces: this file holds no key-shaped string

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _installed(index: Index, project: Path, name: str, script: str, shipped: Path = SAMPLE_HOOKS) -> str:
    """Install the sample's hook ``name`` (its script in ``shipped``) into ``project``; its one command."""
    plan = install(index, [name], project, with_dependencies=False)
    assert plan.ok and [c.status for c in plan.components] == ["install"], plan.lines()
    copy = project / ".claude/hooks" / script
    assert copy.read_bytes() == (shipped / script).read_bytes()
    settings = json.loads((project / ".claude/settings.json").read_text())
    (command,) = [h["command"] for g in settings["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}' in command
    return str(command)


def _fire(command: str, project: Path, bash: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the hook's command as Claude Code does for a Bash call of ``bash``."""
    cwd = project / "src"
    cwd.mkdir(exist_ok=True)  # the agent ran `cd src`: the command must still find its script
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": bash}, "cwd": str(cwd)}
    environment = {**os.environ, "CLAUDE_PROJECT_DIR": str(project), "GIT_CEILING_DIRECTORIES": str(project.parent), **env}
    return subprocess.run(
        ["sh", "-c", command], cwd=cwd, input=json.dumps(payload), capture_output=True, text=True,
        env=environment, timeout=60, check=False,
    )  # fmt: skip


def _git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=project, check=True, capture_output=True,
    )  # fmt: skip


@needs_git
def test_the_secret_scanner_blocks_only_a_commit_whose_staged_changes_hold_a_secret(
    sample_index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    command = _installed(sample_index, project, "block-secrets-in-commits", "scan_staged.py")
    # not a git repository yet: nothing to scan, nothing blocked
    assert _fire(command, project, "git commit -m x").returncode == 0
    _git(project, "init", "-q")
    write_file(project, "src/app.py", 'KEY = os.environ["KEY"]\n')
    _git(project, "add", "src/app.py")
    assert _fire(command, project, "git commit -m clean").returncode == 0
    write_file(project, "src/settings.py", f'aws_key = "{AWS_KEY}"\n')
    _git(project, "add", "src/settings.py")
    blocked = _fire(command, project, "git add -A && git commit -m 'add settings'")
    assert blocked.returncode == 2, blocked.stderr
    assert "src/settings.py:1  AWS access key id" in blocked.stderr and AWS_KEY not in blocked.stderr
    # only a commit is judged: any other Bash call goes ahead, the secret staged or not
    assert _fire(command, project, "ls -la").returncode == 0
    # the rules file the hook names adds the team's own patterns, relative to the project
    _git(project, "reset", "-q")
    write_file(project, "security/secret-rules.toml", '[[rules]]\nname = "team token"\npattern = "tm_[0-9]{8}"\n')
    write_file(project, "src/team.py", 'TOKEN = "tm_12345678"\n')
    _git(project, "add", "src/team.py")
    team = _fire(command, project, "git commit -m team")
    assert team.returncode == 2 and "src/team.py:1  team token" in team.stderr
    # `git commit -a` takes tracked changes that are not staged: those are scanned too
    _git(project, "commit", "-q", "-m", "team")
    write_file(project, "src/team.py", 'TOKEN = "tm_87654321"\n')
    assert _fire(command, project, "git commit -m more").returncode == 0  # nothing staged
    assert _fire(command, project, "git commit -am more").returncode == 2


def test_the_migration_guard_blocks_only_a_migration_against_a_listed_production_host(
    sample_index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    command = _installed(sample_index, project, "migration-guard", "migration_guard.py")
    prod = "postgres://app@db1.prod.example.com/app"
    # no hosts file: no host is known to be production, nothing is blocked
    assert _fire(command, project, f"DATABASE_URL={prod} alembic upgrade head").returncode == 0
    write_file(project, "infra/prod-db-hosts.txt", "# production\ndb1.prod.example.com\n")
    blocked = _fire(command, project, f"DATABASE_URL={prod} alembic upgrade head")
    assert blocked.returncode == 2 and "'alembic upgrade' against production (db1.prod.example.com)" in blocked.stderr
    assert _fire(command, project, "alembic upgrade head", DATABASE_URL=prod).returncode == 2  # from the environment
    assert _fire(command, project, "alembic upgrade head", DATABASE_URL="postgres://localhost/app").returncode == 0
    assert _fire(command, project, "sqitch deploy db:pg://db1.prod.example.com.test/x").returncode == 0  # another host
    assert _fire(command, project, f"psql {prod} -c 'select 1'").returncode == 0  # no migration


def test_the_deploy_window_blocks_a_promotion_once_the_window_closes_unless_an_incident_says_so(
    sample_index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    command = _installed(sample_index, project, "block-friday-deploys", "deploy_window.py", RELEASE_HOOKS)
    # from Monday 00:00 the window is closed all week: the same command, the clock moved
    always = command.replace("'Fri 14:00'", "'Mon 00:00'")
    blocked = _fire(always, project, "promote canary")
    assert blocked.returncode == 2 and "deploys are closed from Mon 00:00" in blocked.stderr, blocked.stderr
    assert "set INCIDENT_OVERRIDE=1" in blocked.stderr
    assert _fire(always, project, "promote canary", INCIDENT_OVERRIDE="1").returncode == 0
    assert _fire(always, project, "promote canary", INCIDENT_OVERRIDE="0").returncode == 2
    unreadable = _fire(command.replace("'Fri 14:00'", "'someday'"), project, "promote canary")
    assert unreadable.returncode == 0 and "cannot read --deny-after" in unreadable.stderr
    # the window itself: Friday 13:59 open, 14:00 closed, the weekend closed, Monday open
    spec = importlib.util.spec_from_file_location("deploy_window", RELEASE_HOOKS / "deploy_window.py")
    assert spec is not None and spec.loader is not None
    window = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(window)
    fri_14 = (4, 14 * 60)
    assert not window.closed(datetime(2026, 12, 4, 13, 59), fri_14)
    assert window.closed(datetime(2026, 12, 4, 14, 0), fri_14)
    assert window.closed(datetime(2026, 12, 6, 9, 0), fri_14)  # a Sunday
    assert not window.closed(datetime(2026, 12, 7, 9, 0), fri_14)  # a Monday
