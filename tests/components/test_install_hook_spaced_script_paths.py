"""A hook script whose name holds a space, named as the shell keeps it one word: in double
or single quotes (``python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"``,
``bash "${CLAUDE_PLUGIN_ROOT}/scripts/other helper.sh"``) or with the space escaped
(``scan\\ staged.py``). The indexer and the installer read such a path up to the space:
the hook was skipped for want of ``.claude/hooks/scan`` (or, forced, written with its
script never copied, failing on every Bash call), and a plugin's for want of
``scripts/other``. Now the script is copied and the command written as the source wrote
it, run here for real from another folder; an unquoted path still ends at the blank, as
the shell splits it there. Through `install`, as the CLI calls it, and the CLI itself."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from hook_repos import indexed_repo, only_hook_id

from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

SCRIPT = "scan staged.py"
HELPER = "scripts/other helper.sh"


def _hook(command: str) -> dict[str, object]:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    return {"description": "scan staged diff before commit", "hooks": {"PreToolUse": [group]}}


def _indexed(tmp_path: Path, rel: str, command: str) -> Path:
    """An index of a repository holding the hook file ``rel`` that runs ``command``, beside
    ``scan staged.py`` and inside a plugin holding ``scripts/other helper.sh``."""
    repo = tmp_path / "repo"
    write_file(repo, "kit/.claude-plugin/plugin.json", {"name": "kit"})
    write_file(repo, f"kit/{HELPER}", "echo helped\n")
    write_file(repo, rel, _hook(command))
    write_file(repo, f"{Path(rel).parent.as_posix()}/{SCRIPT}", "print('scanned')\n")
    return indexed_repo(repo, tmp_path / "ix")


def _install(ix: Path, project: Path, force: bool = False) -> tuple[str, str, list[str]]:
    """The hook's status and reason, and the commands written to settings.json."""
    index = Index.open(ix)
    try:
        plan = install(index, [only_hook_id(ix, index)], project, force=force)
    finally:
        index.close()
    (hook,) = plan.components
    settings = project / ".claude/settings.json"
    data = json.loads(settings.read_text()) if settings.is_file() else {"hooks": {}}
    commands = [h["command"] for gs in data["hooks"].values() for g in gs for h in g["hooks"]]
    return hook.status, hook.reason, commands


def _ran(command: str, project: Path, elsewhere: Path) -> str:
    """What ``command`` prints, run as Claude Code runs a hook: by the shell, the variable
    set, from a folder that is not the project's."""
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run(["sh", "-c", command], cwd=elsewhere, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("command", "written"),
    [
        (  # QA's case: double quotes around the variable and the path
            'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"',
            'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"',
        ),
        (  # single quotes around the path alone
            "python3 \"$CLAUDE_PROJECT_DIR\"/'.claude/hooks/scan staged.py'",
            "python3 \"$CLAUDE_PROJECT_DIR\"/'.claude/hooks/scan staged.py'",
        ),
        (  # the space escaped (the bare variable quoted, as for any hook)
            "python3 $CLAUDE_PROJECT_DIR/.claude/hooks/scan\\ staged.py",
            'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan\\ staged.py',
        ),
        (  # beside the hook, escaped: pointed at the copy, escaped still
            "python3 scan\\ staged.py --staged",
            'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan\\ staged.py --staged',
        ),
    ],
)
def test_a_project_hook_script_with_a_space_is_copied_and_run(tmp_path: Path, command: str, written: str) -> None:
    ix = _indexed(tmp_path, "src/hooks/scan.json", command)
    project = tmp_path / "My Project"
    status, reason, commands = _install(ix, project)
    assert status == "install", reason
    assert commands == [written]
    assert (project / ".claude/hooks" / SCRIPT).read_text() == "print('scanned')\n"
    assert _ran(commands[0], project, tmp_path) == "scanned"
    uninstall([only_hook_id(ix)], project)
    assert not (project / ".claude/hooks" / SCRIPT).exists()  # nothing left running it


@pytest.mark.parametrize(
    ("command", "written"),
    [
        (
            'bash "${CLAUDE_PLUGIN_ROOT}/scripts/other helper.sh"',
            'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/scripts/other helper.sh"',
        ),
        (
            "bash ${CLAUDE_PLUGIN_ROOT}/'scripts/other helper.sh'",
            "bash \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/'scripts/other helper.sh'",
        ),
        (
            "bash $CLAUDE_PLUGIN_ROOT/scripts/other\\ helper.sh",
            'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/other\\ helper.sh',
        ),
    ],
)
def test_a_plugin_hook_script_with_a_space_is_copied_and_run(tmp_path: Path, command: str, written: str) -> None:
    ix = _indexed(tmp_path, "kit/hooks/hooks.json", command)
    project = tmp_path / "proj"
    status, reason, commands = _install(ix, project)
    assert status == "install", reason
    assert commands == [written]
    assert (project / ".claude/hooks" / HELPER).read_text() == "echo helped\n"
    assert _ran(commands[0], project, tmp_path) == "helped"


def test_an_unquoted_path_still_ends_at_the_blank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the shell runs .claude/hooks/scan with the argument staged.py: that is what is missing
    ix = _indexed(tmp_path, "src/hooks/scan.json", "python3 $CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py")
    project = tmp_path / "proj"
    code, out, _ = run(capsys, "install", "scan", "--target", project, "--index-dir", ix)
    assert code == 1
    assert ": skipped - its PreToolUse commands run .claude/hooks/scan, which it does not ship" in out
    assert not (project / ".claude").exists()
    status, _, commands = _install(ix, project, force=True)
    assert status == "install"
    assert commands == ['python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan staged.py']
    assert not (project / ".claude/hooks" / SCRIPT).exists()  # not the file the shell runs


def test_the_cli_installs_qa_s_hook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ix = _indexed(tmp_path, "src/hooks/scan.json", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"')
    project = tmp_path / "proj"
    code, out, _ = run(capsys, "install", "scan", "--target", project, "--index-dir", ix)
    assert code == 0, out
    assert "create .claude/hooks/scan staged.py" in out
