"""``uninstall_components`` given a name that answers to nothing, through a real MCP
client connected in-process: it said "no component 'canvas-desig'; call search_components
..." with no close name, where ``skill-retriever uninstall`` says "close names installed:
canvas-design"; it now offers the close names of what is installed in the target, only
those the caller may see (a private component installed there by someone else is never
named)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_calls import run
from mcp_in_process import tool_answers, tool_errors

SECRET = "canvas-secret"


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    for name, front in (("canvas-design", ""), ("theme-factory", ""), (SECRET, "access: [secops]\n")):
        path = tmp_path / f"cat/skills/{name}/SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: The {name} skill.\n{front}---\n\nBody.\n", encoding="utf-8")
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", tmp_path / "cat", "--index-dir", folder, "--embedder", "hashing-64")
    assert code == 0, err
    return folder


def test_a_typo_is_offered_the_close_names_installed_that_the_caller_sees(ix: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    tool_answers(ix, ["*"], {"install": (
        "install_components", {"ids": ["canvas-design", SECRET], "target": str(project), "dry_run": False},
    )})  # fmt: skip
    typo, part, two, unrelated = tool_errors(ix, ["alice"], [
        ("uninstall_components", {"ids": ["canvas-desig"], "target": str(project)}),
        ("uninstall_components", {"ids": ["canvas"], "target": str(project)}),
        ("uninstall_components", {"ids": ["canvas-desig", "zzz-nothing"], "target": str(project)}),
        ("uninstall_components", {"ids": ["zzz-nothing"], "target": str(project)}),
    ])  # fmt: skip
    assert f"no component 'canvas-desig' (close names installed: canvas-design) installed in {project}" in typo
    assert "close names installed: canvas-design)" in part
    assert "'canvas-desig' (close names installed: canvas-design), no component 'zzz-nothing' installed" in two
    for said in (typo, part, two):
        assert said.endswith("pass a close name as ids"), said
    assert all(SECRET not in said and "secret" not in said for said in (typo, part, two, unrelated))
    assert "no component 'zzz-nothing'; call search_components" in unrelated  # nothing close: as before


def test_an_installed_component_the_index_no_longer_holds_is_told_the_cli_command(
    ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    tool_answers(ix, ["*"], {"install": (
        "install_components", {"ids": ["theme-factory", SECRET], "target": str(project), "dry_run": False},
    )})  # fmt: skip
    shutil.rmtree(tmp_path / "cat/skills/theme-factory")  # the source indexed again without it
    code, _, err = run(capsys, "index", tmp_path / "cat", "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 0, err
    gone, private = tool_errors(ix, ["alice"], [
        ("uninstall_components", {"ids": ["theme-factory"], "target": str(project)}),
        ("uninstall_components", {"ids": [SECRET], "target": str(project)}),
    ])  # fmt: skip
    assert f"if {project}'s install record holds it" in gone
    assert f"`skill-retriever uninstall theme-factory --target {project}` takes it back" in gone
    # a private one installed there reads alike, and so does a name nothing ever held: the
    # line tells nothing of the index nor of what others installed there
    nothing, = tool_errors(ix, ["alice"], [("uninstall_components", {"ids": ["zz-nothing"], "target": str(project)})])
    assert private.replace(SECRET, "theme-factory") == gone == nothing.replace("zz-nothing", "theme-factory")
    code, out, err = run(capsys, "uninstall", "theme-factory", "--target", project)
    assert code == 0 and "removed .claude/skills/theme-factory/SKILL.md" in out, (out, err)
