"""Installing as a user meets it, bad input first: each refusal is one line that says
what to do, and nothing is written.

- A target inside a ``.claude`` folder (``proj/.claude``) is refused: Claude Code would
  never read ``proj/.claude/.claude/...``. Uninstalling there still works.
- A folder that cannot be written (``chmod 555``) is refused before the first write,
  with what to do, not a traceback half-way through; a write that fails later anyway
  (a disk full) is one line too, and what was written before it is recorded, so
  ``uninstall`` takes it back.
  ``uninstall`` likewise changes nothing in a folder it cannot write, and the MCP
  tool's dry run says so.
- The CLI offers ``--force`` only for what it fixes (a file that differs), not for a
  ``settings.json`` it refused to merge into, nor for two components of one install
  claiming one path (that set is refused whole, nothing written: see
  test_install_clashes); a ``settings.json`` holding a list is called that.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import files_under, sid

from skill_retriever.adapters.mcp_arguments import ToolError
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_a_target_inside_dot_claude_is_refused(hashed_index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude/commands").mkdir(parents=True)
    for target in (project / ".claude", project / ".claude/commands"):
        with pytest.raises(InstallError, match=r"inside a \.claude folder.*\(.*proj\)"):
            install(hashed_index, ["ship"], target)
        with pytest.raises(InstallError, match=r"inside a \.claude folder"):
            install(hashed_index, ["ship"], target, dry_run=True)
    assert files_under(project) == {}
    install(hashed_index, ["ship"], project)  # the project folder itself is fine
    assert (project / ".claude/commands/ship.md").is_file()
    uninstall(["ship"], project)
    assert files_under(project) == {}


def test_a_read_only_folder_is_refused_before_anything_is_written(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".claude/skills").mkdir(parents=True)
    skills = project / ".claude/skills"
    real_access = os.access
    if os.geteuid() == 0:  # root writes through chmod 555: say so the way the OS would
        monkeypatch.setattr(
            os, "access", lambda p, mode: Path(p) != skills and real_access(p, mode)
        )
    skills.chmod(0o555)
    try:
        with pytest.raises(InstallError, match=r"cannot write into .*skills.*chmod u\+w"):
            install(hashed_index, ["ship", "web-scaffold"], project)
    finally:
        skills.chmod(0o755)
    assert files_under(project) == {}  # not even ship, whose folder is writable


def test_uninstall_changes_nothing_in_a_read_only_folder(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, ["ship", "format-on-save"], project)
    before = files_under(project)
    commands = project / ".claude/commands"
    real_access = os.access
    if os.geteuid() == 0:
        monkeypatch.setattr(
            os, "access", lambda p, mode: Path(p) != commands and real_access(p, mode)
        )
    commands.chmod(0o555)
    try:
        with pytest.raises(InstallError, match=r"cannot write into .*commands.*nothing removed"):
            uninstall(["ship", "format-on-save"], project)
    finally:
        commands.chmod(0o755)
    assert files_under(project) == before  # the hook too, and the record
    monkeypatch.undo()
    assert uninstall(["ship", "format-on-save"], project).ok
    assert files_under(project) == {}


def test_the_mcp_dry_run_says_the_uninstall_would_be_refused(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MCP dry run uninstalls a copy, which it may always write: it promised what the
    real run then refused. It now says the refusal, with ok false."""
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, ["ship"], project)
    before = files_under(project)
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    args: dict[str, Any] = {"ids": ["ship"], "target": str(project)}
    commands = project / ".claude/commands"
    real_access = os.access
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != commands and real_access(p, mode))
    commands.chmod(0o555)
    try:
        plan = asyncio.run(server.call_tool("uninstall_components", args)).structured_content
        assert plan["ok"] is False and plan["applied"] is False
        refused = [line for line in plan["summary"] if line.startswith("refused: ")]
        assert refused and "cannot write into" in refused[0] and "commands" in refused[0]
        assert refused[0].endswith("an uninstall now would remove nothing")
        assert plan["next"].startswith("fix what refused says")
        with pytest.raises(ToolError, match=r"cannot write into .*commands.*nothing removed"):
            asyncio.run(server.call_tool("uninstall_components", {**args, "dry_run": False}))
    finally:
        commands.chmod(0o755)
    assert files_under(project) == before
    monkeypatch.undo()
    plan = asyncio.run(server.call_tool("uninstall_components", args)).structured_content
    assert plan["ok"] is True and not any(line.startswith("refused") for line in plan["summary"])


def test_a_write_failing_half_way_is_one_line_and_recorded(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # by its module path: the package ``skill_retriever.components`` binds ``install`` to
    # the function once any of its names was looked up, so ``import a.install.apply as m``
    # (which walks attributes) fails after another test did that
    apply_module = importlib.import_module("skill_retriever.components.install.apply")

    project = tmp_path / "proj"
    project.mkdir()
    real_write = apply_module.write_atomic
    calls: list[Path] = []

    def full_disk(dest: Path, content: bytes | str, mode: int | None = 0o644) -> None:
        calls.append(dest)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(dest))
        real_write(dest, content, mode)

    monkeypatch.setattr(apply_module, "write_atomic", full_disk)
    with pytest.raises(InstallError, match="No space left on device.*`uninstall` takes it back"):
        install(hashed_index, ["web-scaffold"], project, with_dependencies=False)
    monkeypatch.undo()
    written = files_under(project)
    assert len([p for p in written if p.startswith(".claude/skills/")]) == 2
    report = uninstall([sid("web-scaffold")], project)
    assert report.ok and files_under(project) == {} and not project.joinpath(".claude").exists()


def test_cli_offers_force_only_for_what_it_fixes(
    hashed_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(hashed_index.path)
    hashed_index.close()  # the command opens it itself
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.json").write_text("[1, 2]", encoding="utf-8")
    argv = ["install", "format-on-save", "--target", str(project), "--index-dir", index_dir]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "settings.json is a list, not a JSON object; fix or move it first" in out
    assert "--force" not in out and "see 'refused' above (fix what it says and install again)" in out
    assert files_under(project) == {".claude/settings.json": b"[1, 2]"}
    (project / ".claude/settings.json").unlink()
    (project / ".claude/commands").mkdir()
    (project / ".claude/commands/ship.md").write_text("mine\n", encoding="utf-8")
    assert main(["install", "ship", "--target", str(project), "--index-dir", index_dir]) == 1
    assert "--force overwrites" in capsys.readouterr().out


def test_cli_does_not_offer_force_for_two_components_claiming_one_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from component_catalogue import build_index

    repos = []
    for plugin in ("conductor", "ship-mate"):  # as wshobson/agents: both ship commands/setup.md
        repo = tmp_path / plugin
        (repo / "commands").mkdir(parents=True)
        (repo / "commands/setup.md").write_text(
            f"---\ndescription: Set up {plugin}.\n---\n\nSet up {plugin}.\n", encoding="utf-8"
        )
        repos.append(repo)
    index = build_index(tmp_path / "index", (repos[0], repos[1]))
    index_dir = str(index.path)
    index.close()
    ids = ["conductor/commands/setup.md", "ship-mate/commands/setup.md"]
    project = tmp_path / "proj"
    assert main(["install", *ids, "--target", str(project), "--index-dir", index_dir]) == 1
    out = capsys.readouterr().out
    assert "installs the same path" in out and "--force" not in out
    assert "leave one of each pair out" in out and not project.exists()
