"""``--target /`` was accepted (a dry run said it would write ``/.claude/...``, and the MCP
tool too), while the home folder and ``.claude`` folders were refused. The filesystem
root and any folder that holds the home folder are now refused the same way, in one
line that says to give a project folder, by the CLI, the Python API and the MCP tool."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from component_catalogue import sid

from skill_retriever.adapters.mcp_arguments import ToolError
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

GIVE_A_PROJECT = (
    "not a project: an install there would put a .claude folder above your home folder and "
    "every project in it; give a project folder"
)


def _targets(tmp_path: Path, home: Path) -> list[tuple[str, str]]:
    """(target as the user writes it, what the refusal calls it)."""
    return [
        ("/", "target / is the filesystem root"),
        (str(tmp_path), f"target {tmp_path} is a folder holding your home folder ({home})"),
        # said of the folder it is, not as written
        (f"{home}/..", f"target {tmp_path} is a folder holding your home folder ({home})"),
    ]


@pytest.mark.parametrize("dry_run", [True, False])
def test_the_root_and_folders_above_home_are_refused(
    hashed_index: Index, tmp_path: Path, home: Path, dry_run: bool
) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    for target, what in _targets(tmp_path, home):
        with pytest.raises(InstallError) as caught:
            install(hashed_index, [sid("ruff-lint")], target, dry_run=dry_run)
        message = str(caught.value)
        assert message.startswith(f"{what}, {GIVE_A_PROJECT}"), message
        assert "\n" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .claude anywhere
    assert not Path("/.claude/skills/ruff-lint").exists()
    # a project beside the home folder is fine, as before
    assert install(hashed_index, [sid("ruff-lint")], tmp_path / "proj").ok
    assert (tmp_path / "proj/.claude/skills/ruff-lint/SKILL.md").is_file()


def test_the_cli_refuses_the_root(
    hashed_index: Index, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(hashed_index.path)
    hashed_index.close()  # the command opens it itself
    code = main(["install", "ruff-lint", "--target", "/", "--dry-run", "--index-dir", index_dir])
    captured = capsys.readouterr()
    assert code != 0 and captured.out == ""
    assert f"target / is the filesystem root, {GIVE_A_PROJECT}" in captured.err


def test_the_mcp_tool_refuses_them(hashed_index: Index, tmp_path: Path, home: Path) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    for target, what in _targets(tmp_path, home)[:2]:
        for dry_run in (True, False):
            args = {"ids": [sid("ruff-lint")], "target": target, "dry_run": dry_run}
            with pytest.raises(ToolError) as caught:
                asyncio.run(server.call_tool("install_components", args))
            assert f"{what}, {GIVE_A_PROJECT}" in str(caught.value)
    assert not (tmp_path / ".claude").exists()


def test_a_target_is_the_folder_it_names_not_its_spelling(
    hashed_index: Index, tmp_path: Path, home: Path
) -> None:
    """``proj/.claude/..`` is ``proj``: installed into, not refused as a folder inside
    ``.claude``; the plan, and the MCP tool's answer, name ``proj``."""
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    plan = install(hashed_index, [sid("ruff-lint")], f"{proj}/.claude/..")
    assert plan.ok and plan.target == proj
    assert (proj / ".claude/skills/ruff-lint/SKILL.md").is_file()
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    args = {"ids": [sid("ruff-lint")], "target": f"{proj}/../proj", "dry_run": True}
    answer = asyncio.run(server.call_tool("install_components", args)).structured_content
    assert answer["target"] == str(proj)


def test_a_symbolic_link_loop_is_named(hashed_index: Index, tmp_path: Path, home: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(InstallError, match=r"is a symbolic link loop; "):
        install(hashed_index, [sid("ruff-lint")], tmp_path / "a" / "proj")
