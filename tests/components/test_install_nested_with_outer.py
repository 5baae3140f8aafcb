"""A nested skill installed with its outer skill is written once, as the outer skill's
file: ``install game-development 2d-games`` wrote ``.claude/skills/game-development/2d-games/SKILL.md``
and ``.claude/skills/2d-games/SKILL.md`` too, with no word that one was a copy of the
other; so did an install that brought the outer skill as a requirement (`with_outer`).

A small real index (``--embedder hashing-64``: no model) of that layout, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.cli import main

ROOT = "repo/skills/game-development"
NESTED = ".claude/skills/game-development/2d-games/SKILL.md"
ALONE = ".claude/skills/2d-games/SKILL.md"


def md(name: str, description: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody of {name}.\n"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index of the layout for the module: its tests install from it into targets of
    their own and write nothing to it or to its source."""
    repo = tmp_path_factory.mktemp("nested-with-outer") / "repo"
    write_file(repo, "skills/game-development/SKILL.md", md("game-development", "Game development orchestrator."))
    write_file(repo, "skills/game-development/2d-games/SKILL.md", md("2d-games", "Sprites, tilemaps, 2D physics."))
    write_file(repo, "skills/level-editor/SKILL.md",
               md("level-editor", "Builds game levels.", "requires: [game-development]\n"))
    ix = repo.parent / "ix"
    assert main(["index", str(repo), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    return ix


def _plan(capsys: pytest.CaptureFixture[str], index_dir: Path, target: Path, *names: str) -> dict:
    code, out, _ = run(capsys, "install", *names, "--dry-run", "--target", target,
                       "--index-dir", index_dir, "--json")
    assert code == 0
    return {c["name"]: c for c in json.loads(out)["components"]}


def test_the_nested_skill_named_with_its_outer_skill_is_written_once(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "p"
    code, out, _ = run(capsys, "install", "game-development", "2d-games", "--dry-run", "--target", target,
                       "--index-dir", index_dir)
    assert code == 0  # what was asked for is in the target
    assert f"would create {NESTED}" in out
    assert ALONE not in out
    assert (f"[skill] 2d-games  {ROOT}/2d-games/SKILL.md (part of skill game-development): "
            f"skipped - written with skill game-development, at {NESTED}") in out
    nested = _plan(capsys, index_dir, target, "game-development", "2d-games")["2d-games"]
    assert nested["status"] == "skipped" and nested["files"] == []
    # written for real: one copy, and uninstalling the outer skill takes it back
    code, out, _ = run(capsys, "install", "game-development", "2d-games", "--target", target,
                       "--index-dir", index_dir)
    assert code == 0
    assert (target / NESTED).is_file() and not (target / ALONE).exists()
    code, _, _ = run(capsys, "uninstall", "game-development", "--target", target)
    assert code == 0
    assert not (target / NESTED).exists() and not (target / ".claude/skills/game-development").exists()


def test_the_outer_skill_brought_as_a_requirement_covers_the_nested_one(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = _plan(capsys, index_dir, tmp_path / "p", "level-editor", "2d-games")
    assert plan["game-development"]["status"] == "install"
    assert plan["game-development"]["required_by"] == ["repo/skills/level-editor/SKILL.md"]
    assert NESTED in [f["path"] for f in plan["game-development"]["files"]]
    assert plan["2d-games"]["status"] == "skipped"
    assert plan["2d-games"]["reason"] == f"written with skill game-development, at {NESTED}"


def test_the_nested_skill_alone_is_a_skill_of_its_own(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = _plan(capsys, index_dir, tmp_path / "p", "2d-games")
    assert plan["2d-games"]["status"] == "install"
    assert [f["path"] for f in plan["2d-games"]["files"]] == [ALONE]
    # without dependencies added, the outer skill is not in the plan: written alone too
    plan = _plan(capsys, index_dir, tmp_path / "p", "level-editor", "2d-games", "--no-deps")
    assert plan["2d-games"]["status"] == "install"


def test_uninstalling_the_nested_skill_says_the_outer_skill_holds_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record holds only game-development: 'no component 2d-games installed' was
    true, but did not say that 2d-games came in as its file, nor what removes it."""
    target = tmp_path / "p"
    assert run(capsys, "install", "game-development", "2d-games", "--target", target,
               "--index-dir", index_dir)[0] == 0
    for ref in ("2d-games", "2D-Games", f"{ROOT}/2d-games/SKILL.md"):
        code, _, err = run(capsys, "uninstall", ref, "--target", target)
        assert code == 2, ref
        assert (f"{ref!r} was installed as part of skill game-development "
                f"({ROOT}/SKILL.md), as its file {NESTED}: uninstall game-development to remove it") in err, err
    code, _, err = run(capsys, "uninstall", f"{ROOT}/2d-games", "--target", target)  # its folder
    assert code == 2 and "in its folder .claude/skills/game-development/2d-games: uninstall game-development" in err
    assert (target / NESTED).is_file()  # nothing taken back
    # a name that is no part of anything installed keeps the plain answer
    code, _, err = run(capsys, "uninstall", "level-editor", "--target", target)
    assert code == 2 and "part of skill" not in err and "give a recorded id" in err


def test_an_earlier_standalone_copy_is_named_on_the_skipped_line(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2d-games installed alone first, then with game-development: its own copy at
    .claude/skills/2d-games stayed, and the plan said only 'unchanged' of it."""
    target = tmp_path / "p"
    assert run(capsys, "install", "2d-games", "--target", target, "--index-dir", index_dir)[0] == 0
    code, out, _ = run(capsys, "install", "game-development", "2d-games", "--target", target,
                       "--index-dir", index_dir)
    assert code == 0
    assert (f"[skill] 2d-games  {ROOT}/2d-games/SKILL.md (part of skill game-development): "
            f"skipped - written with skill game-development, at {NESTED}; an earlier install wrote it "
            "on its own at .claude/skills/2d-games: uninstall 2d-games to remove that copy") in out, out
    assert (target / NESTED).is_file() and (target / ALONE).is_file()
    # as the line says: uninstall 2d-games takes the standalone copy, the outer skill's file stays
    code, _, _ = run(capsys, "uninstall", "2d-games", "--target", target)
    assert code == 0
    assert not (target / ALONE).exists() and (target / NESTED).is_file()
