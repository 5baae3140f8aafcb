"""Uninstall: what stays in the record's folder stays out of git; projects sharing one
``.claude`` through links each take back their own ``.mcp.json`` server; the report
reads as the CLI's lines and its repr is one line of counts, hooks said in words."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_calls import run, run_lines

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.plan import InstallError
from skill_retriever.stores.index import Index

FOLDER = ".claude/.skill-retriever"
AGENT = ".claude/agents/api-reviewer.md"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def test_backups_left_by_the_last_uninstall_stay_out_of_git(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = tmp_path / "project"
    (project / ".claude/agents").mkdir(parents=True)
    (project / AGENT).write_text("MY AGENT\n")
    mcp = project / ".mcp.json"
    mcp.write_text(json.dumps({"mcpServers": {"deploy-control": {"command": "mine", "env": {"KEY": "secret"}}}}))
    index_dir = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    argv = ["install", "api-reviewer", "deploy-control", "--no-deps", "--force", "--target", project,
            "--index-dir", index_dir]
    assert run_lines(capsys, *argv)[0] == 0
    (project / AGENT).write_text("MY AGENT, EDITED\n")  # the user's edits between the installs
    mcp.write_text(json.dumps({"mcpServers": {"deploy-control": {"command": "mine, edited"}}}))
    assert run_lines(capsys, *argv)[0] == 0

    code, said = run_lines(capsys, "uninstall", "api-reviewer", "deploy-control", "--target", project)
    assert code == 0 and not (project / FOLDER / "installed.json").exists()
    server_copy = project / FOLDER / "backups/mcp-servers/deploy-control.~1~.json"
    assert f"  left {FOLDER}/backups/mcp-servers/deploy-control.~1~.json: an earlier version of your .mcp.json#deploy-control that install --force replaced" in said
    assert "secret" in server_copy.read_text() and server_copy.stat().st_mode & 0o777 == 0o600
    assert (project / FOLDER / f"backups/{AGENT}.~1~").read_text() == "MY AGENT\n"
    assert (project / FOLDER / ".gitignore").is_file()
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    staged = _git(project, "diff", "--cached", "--name-only").split()
    assert sorted(staged) == sorted([".mcp.json", AGENT])  # the user's own, put back; no backup

    # the user deletes the copies; a later install and uninstall leave nothing behind
    shutil.rmtree(project / FOLDER / "backups")
    assert run_lines(capsys, "install", "api-reviewer", "--no-deps", "--force", "--target", project,
                     "--index-dir", index_dir)[0] == 0
    assert run_lines(capsys, "uninstall", "api-reviewer", "--target", project)[0] == 0
    assert not (project / FOLDER).exists()


@pytest.fixture
def shared_claude(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Two projects whose ``.claude`` links to one folder, as README names supported."""
    shared, sa, sb = tmp_path / "x/shared", tmp_path / "x/sa", tmp_path / "x/sb"
    for folder in (shared, sa, sb):
        folder.mkdir(parents=True)
    (sa / ".claude").symlink_to(shared)
    (sb / ".claude").symlink_to(shared)
    return shared, sa, sb


def test_projects_sharing_a_claude_folder_each_take_back_their_own_server(
    database_mcps_dir: Path, shared_claude: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    shared, sa, sb = shared_claude
    ix = ["--index-dir", database_mcps_dir]
    for project in (sa, sb):
        assert run_lines(capsys, "install", "postgresql", "--target", project, *ix)[0] == 0
        assert "postgresql" in json.loads((project / ".mcp.json").read_text())["mcpServers"]

    code, said = run_lines(capsys, "uninstall", "postgresql", "--target", sb)
    assert code == 0 and "  removed .mcp.json#postgresql" in said
    assert not (sb / ".mcp.json").exists()  # an install made it, and nothing else is in it
    assert "postgresql" in json.loads((sa / ".mcp.json").read_text())["mcpServers"]
    record = json.loads((shared / ".skill-retriever/installed.json").read_text())
    (entry,) = record["components"].values()
    # written by sb's uninstall: sb holds nothing of it, sa's server is carried along
    assert not entry["mcp_servers"] and "postgresql" in entry["elsewhere"][str(sa.resolve())]["mcp_servers"]

    code, said = run_lines(capsys, "uninstall", "postgresql", "--target", sb)  # nothing of it here
    assert code == 0 and any(f"its server is in {sa.resolve()}/.mcp.json" in line for line in said)
    assert "postgresql" in json.loads((sa / ".mcp.json").read_text())["mcpServers"]

    code, said = run_lines(capsys, "uninstall", "postgresql", "--target", sa, "--dry-run")
    assert code == 0 and "  would remove .mcp.json#postgresql" in said
    code, said = run_lines(capsys, "uninstall", "postgresql", "--target", sa)
    assert code == 0 and "  removed .mcp.json#postgresql" in said
    assert not (sa / ".mcp.json").exists() and list(shared.iterdir()) == []


def test_a_record_written_before_projects_were_kept_reads_as_its_own_project(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert run_lines(capsys, "install", "postgresql", "--target", project, "--index-dir", database_mcps_dir)[0] == 0
    path = project / ".claude/.skill-retriever/installed.json"
    record = json.loads(path.read_text())
    for entry in [record, *record["components"].values()]:  # as an older version wrote it
        assert entry.pop("mcp_project") == str(project.resolve())
    path.write_text(json.dumps(record))
    code, said = run_lines(capsys, "uninstall", "postgresql", "--target", project)
    assert code == 0 and "  removed .mcp.json#postgresql" in said
    assert list(project.iterdir()) == []  # the .mcp.json the install made went too


def test_the_report_prints_as_the_cli_says_it_and_hooks_in_words(
    hashed_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert install(hashed_index, ["format-on-save"], project).ok
    dry = uninstall(["format-on-save"], project, dry_run=True)
    assert str(dry) == "\n".join(dry.lines())
    hook = "  would remove hook PostToolUse (tools matching Edit|Write, runs ruff format $CLAUDE_FILE_PATHS) from"
    assert f"{hook} .claude/settings.json" in dry.lines()  # with what it ran, not a hash
    assert repr(dry) == (
        f"UninstallReport(target={str(project)!r}, applied=False, ok=True, components=1, "
        f"removed={len(dry.removed)}, restored=0, kept=0, gone=0)"
    )
    assert ".claude/settings.json#hooks.PostToolUse[Edit|Write]" in dry.to_dict()["removed"]  # the data keeps keys
    report = uninstall(["format-on-save"], project)
    print(report)
    out = capsys.readouterr().out.splitlines()
    done = hook.replace("  would remove", "  removed", 1)
    assert out == report.lines() and f"{done} .claude/settings.json" in out
    assert "\n" not in repr(report) and "ok=True" in repr(report)


def test_an_empty_uninstall_target_says_uninstall(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InstallError, match=r"^the target folder is empty; give the project folder to uninstall from$"):
        uninstall(["x"], "")
    afile = tmp_path / "afile"
    afile.write_text("")
    code, _, err = run(capsys, "uninstall", "x", "--target", afile)
    assert code == 2 and f"target {afile} is a file; give the project folder to uninstall from" in err


def test_a_moved_or_copied_project_keeps_its_servers(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record names the project folder it was written in; a project moved (its old
    folder gone) or copied with its own .claude shares nothing, so the record is its own
    (found on the session's own review: a moved project no longer took back its server)."""
    ix = ["--index-dir", database_mcps_dir]
    old = tmp_path / "old"
    old.mkdir()
    assert run_lines(capsys, "install", "postgresql", "--target", old, *ix)[0] == 0
    moved = tmp_path / "moved"
    old.rename(moved)
    copy = tmp_path / "copy"
    shutil.copytree(moved, copy)
    for project in (moved, copy):
        code, said = run_lines(capsys, "uninstall", "postgresql", "--target", project)
        assert code == 0 and "  removed .mcp.json#postgresql" in said, said
        assert not (project / ".mcp.json").exists()
