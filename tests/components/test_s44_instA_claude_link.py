"""A ``.claude`` that is a symbolic link, and a target that refuses the whole run.

- A project's (or the home folder's) ``.claude`` linked to another folder (a dotfiles
  setup) is followed, as Claude Code follows it: the plan says once where it leads, the
  files go there, and uninstall takes them back through the link. A link further in that
  leads out of both the target and that folder stays refused, naming the link; a
  ``.claude`` link to nothing, or to a folder holding the target, is refused in one line.
- A target the run cannot write (a read-only file system) makes ``install`` and
  ``uninstall`` exit 1 with a ``refused:`` line, the real run as its dry run: it is a
  refusal the user fixes in the target, not a wrong command (exit 2).

All through the CLI, on a small plugin repository indexed for the test.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from read_only_target import mount_read_only

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
AGENT = "---\nname: team-debugger\ndescription: Debugs with a team of agents.\n---\nYou debug.\n"
SKILL = "---\nname: track-management\ndescription: Tracks the work of a team.\n---\n# Track\n"


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """An index of a plugin ``teams`` holding an agent and a skill."""
    repo = tmp_path / "repo"
    write_file(repo, "plugins/teams/agents/team-debugger.md", AGENT)
    write_file(repo, "plugins/teams/skills/track-management/SKILL.md", SKILL)
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose ``.claude`` is a link to a shared folder elsewhere."""
    project, shared = tmp_path / "proj", tmp_path / "dotfiles/claude"
    project.mkdir()
    shared.mkdir(parents=True)
    (project / ".claude").symlink_to(shared, target_is_directory=True)
    return project, shared


def _install(capsys: pytest.CaptureFixture[str], ix: Path, target: Path, *more: str) -> tuple[int, str, str]:
    return run(capsys, "install", "teams", "--target", target, "--index-dir", ix, *more)


def test_a_linked_claude_folder_is_followed_and_uninstall_goes_through_it(
    index_dir: Path, linked: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, shared = linked
    code, out, err = _install(capsys, index_dir, project, "--dry-run")
    assert code == 0, out + err
    head = f"target: {project} (.claude is a link to {shared}: its .claude/... paths lie there)"
    assert out.splitlines()[0].startswith(head)
    assert out.count("is a link to") == 1  # said once, not on every file
    assert "refused" not in out
    code, out, err = _install(capsys, index_dir, project)
    assert code == 0 and err == "", out + err
    assert out.splitlines()[0] == head
    assert (shared / "agents/team-debugger.md").read_text() == AGENT
    assert (shared / "skills/track-management/SKILL.md").read_text() == SKILL
    assert (shared / ".skill-retriever/installed.json").is_file()
    assert (project / ".claude").is_symlink()  # the link stays a link
    code, out, err = run(capsys, "uninstall", "teams", "--target", project)
    assert code == 0, out + err
    assert out.splitlines()[0] == head and "removed .claude/agents/team-debugger.md" in out
    assert list(shared.iterdir()) == []  # the folders the install made in it went too
    assert (project / ".claude").is_symlink() and shared.is_dir()


def test_a_linked_home_claude_folder_takes_user_installs(
    index_dir: Path, tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``~/.claude`` kept in a dotfiles repository and linked into place: ``--user``."""
    dotfiles = tmp_path / "dotfiles/.claude"
    dotfiles.mkdir(parents=True)
    (home / ".claude").symlink_to(dotfiles, target_is_directory=True)
    code, out, err = run(capsys, "install", "teams", "--user", "--index-dir", index_dir)
    assert code == 0, out + err
    assert f"(.claude is a link to {dotfiles}: its .claude/... paths lie there)" in out.splitlines()[0]
    assert (dotfiles / "agents/team-debugger.md").is_file()
    code, out, _ = run(capsys, "uninstall", "teams", "--user")
    assert code == 0 and not (dotfiles / "agents").exists(), out


def test_the_mcp_tool_installs_through_a_linked_claude_folder(
    index_dir: Path, linked: tuple[Path, Path]
) -> None:
    project, shared = linked
    index = Index.open(index_dir)
    try:
        server = build_server(index, retriever=Retriever(index, reranker=None))
        args = {"ids": ["teams"], "target": str(project), "dry_run": False, "detail": "full"}
        answer = asyncio.run(server.call_tool("install_components", args)).structured_content
    finally:
        index.close()
    assert answer["ok"] is True and answer["applied"] is True, answer
    assert (shared / "agents/team-debugger.md").read_text() == AGENT


def test_a_link_inside_the_linked_folder_that_leads_out_is_refused_by_name(
    index_dir: Path, linked: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, shared = linked
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (shared / "agents").symlink_to(elsewhere, target_is_directory=True)
    for more in (("--dry-run",), ()):
        code, out, _ = _install(capsys, index_dir, project, *more)
        assert code == 1, out
        (refused,) = [line for line in out.splitlines() if line.startswith("  refused ")]
        assert f".claude/agents is a symbolic link to {elsewhere}" in refused
        assert f"outside the target {project} or {shared} (where .claude leads)" in refused
        assert "make .claude/agents a folder (or a link into one of those) and install again" in refused
    assert list(elsewhere.iterdir()) == []  # nothing written through it
    assert (shared / "skills/track-management/SKILL.md").is_file()  # the rest went in


@pytest.mark.parametrize("where", ["nowhere", "holder"])
def test_a_claude_link_to_nothing_or_to_a_folder_holding_the_target_is_refused_alike(
    where: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    leads = tmp_path / "not-cloned-yet" if where == "nowhere" else tmp_path
    (project / ".claude").symlink_to(leads, target_is_directory=True)
    said = []
    for more in (("--dry-run",), ()):
        code, out, err = _install(capsys, index_dir, project, *more)
        assert code == 1 and err == "", out + err
        (line,) = [x for x in out.splitlines() if x.startswith("refused: ")]
        said.append(line.rsplit(";", 1)[0])  # the end says "would write nothing" / "nothing written"
    assert said[0] == said[1]  # the dry run's words are the real run's
    if where == "nowhere":
        assert f".claude ({project}/.claude) is a symbolic link to {leads}, which does not exist" in said[0]
        assert "or remove the link (an install then makes a .claude folder of its own)" in said[0]
        assert not leads.exists()
    else:
        assert f"is a symbolic link to {leads}, which holds the target itself" in said[0]
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ix", "proj", "repo"]
    code, out, _ = _install(capsys, index_dir, project, "--json")
    assert code == 1 and json.loads(out)["refused"].startswith(said[0].removeprefix("refused: "))


def test_a_read_only_target_exits_1_with_the_same_refusal_dry_or_not(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "romnt"
    project.mkdir()
    mount_read_only(monkeypatch, project)
    code, dry, err = _install(capsys, index_dir, project, "--dry-run")
    assert code == 1 and err == ""
    (dry_line,) = [x for x in dry.splitlines() if x.startswith("refused: ")]
    code, out, err = _install(capsys, index_dir, project)
    assert code == 1 and err == "", out + err
    said = (
        f"refused: cannot write into {project} (read-only file system); remount it read-write or "
        "install somewhere else; nothing written"
    )
    assert out.splitlines() == [said]
    assert dry_line.removesuffix("an install would write nothing") == out.strip().removesuffix("nothing written")
    code, out, _ = _install(capsys, index_dir, project, "--json")
    answer = json.loads(out)
    assert code == 1 and answer["ok"] is False and answer["applied"] is False
    assert "read-only file system" in answer["refused"]
    assert list(project.iterdir()) == []


def test_uninstall_from_a_read_only_target_exits_1_as_its_dry_run(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    assert _install(capsys, index_dir, project)[0] == 0
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    mount_read_only(monkeypatch, project / ".claude/agents")
    code, dry, _ = run(capsys, "uninstall", "teams", "--target", project, "--dry-run")
    assert code == 1 and "refused: cannot write into" in dry
    code, out, err = run(capsys, "uninstall", "teams", "--target", project)
    assert code == 1 and err == "", out + err
    assert out.startswith(f"refused: cannot write into {project}/.claude/agents (read-only file system)")
    assert out.strip().endswith("and run uninstall again; nothing removed")
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before
