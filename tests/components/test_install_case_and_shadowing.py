"""Names that differ only in case, and a command hidden by a skill of its name.

On macOS and Windows ``.claude/commands/Deploy.md`` and ``.claude/commands/deploy.md`` are
one file. Two components of one install writing those clash as at one path; a planned file
whose path the target already spells in another case is planned at the target's spelling,
so the user's file is kept (or, with ``force``, overwritten and kept for uninstall) on
every system, never doubled on Linux and overwritten on a Mac.

Claude Code runs the skill when a skill and a command share a name: a command installed
beside a skill of its name (from the same install, or there already) gets a note.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, files_under
from files import write_file

from skill_retriever.cli import main
from skill_retriever.components.install import Clash, install, plan_install, uninstall
from skill_retriever.stores.index import Index

UPPER, LOWER = "a/commands/Deploy.md", "b/commands/deploy.md"
SAME_UPPER, SAME_LOWER = "c/commands/Deploy.md", "d/commands/deploy.md"
SKILL, COMMAND, SHIP = "e/skills/deploy/SKILL.md", "e/commands/deploy.md", "e/commands/ship.md"
NOTES = "f/skills/notes/SKILL.md"
MD_UPPER, MD_LOWER = ".claude/commands/Deploy.md", ".claude/commands/deploy.md"
CASE_NOTE = "names that differ only in case are one file on macOS and Windows"
HIDDEN = "will run the skill"


def _command(text: str) -> str:
    return f"---\ndescription: {text}\n---\n\n{text}\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    """Commands Deploy (a) and deploy (b) that differ, Deploy (c) and deploy (d) byte for
    byte the same, a skill deploy with commands deploy and ship (e), and a skill notes
    with README.md and readme.md (f)."""
    src = tmp_path / "src"
    skill = "---\nname: {0}\ndescription: {0} things.\n---\n\nDo {0}.\n"
    files = {
        UPPER: _command("Deploy with a."),
        LOWER: _command("Deploy with b."),
        SAME_UPPER: _command("Deploy."),
        SAME_LOWER: _command("Deploy."),
        SKILL: skill.format("deploy"),
        COMMAND: _command("Deploy by command."),
        SHIP: _command("Ship it."),
        NOTES: skill.format("notes"),
        "f/skills/notes/README.md": "upper\n",
        "f/skills/notes/readme.md": "lower\n",
    }
    for rel, text in files.items():
        write_file(src, rel, text)
    built = build_index(tmp_path / "index", tuple(src / r for r in "abcdef"))
    yield built
    built.close()


def test_two_components_whose_paths_differ_only_in_case_clash(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    for dry_run in (True, False):
        plan = install(index, [UPPER, LOWER], project, dry_run=dry_run)
        assert plan.clashes == (Clash(MD_UPPER, UPPER, LOWER, MD_LOWER),)
        assert not plan.ok and not plan.applied and plan.refused_whole
        assert plan.lines()[-2] == (
            f"clash: Deploy ({UPPER}) and deploy ({LOWER}) would write {MD_UPPER} and "
            f"{MD_LOWER}, one file on macOS and Windows (the names differ only in case), "
            "with different content"
        )
        assert f"  clash {MD_LOWER}: {UPPER} installs the same path as {MD_UPPER}" in "\n".join(
            plan.lines()
        )
        (clash,) = plan.to_dict()["clashes"]
        assert (clash["path"], clash["second_path"]) == (MD_UPPER, MD_LOWER)
    assert not project.exists()


def test_the_cli_refuses_a_case_clash(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    project = tmp_path / "proj"
    assert main(["install", UPPER, LOWER, "--target", str(project), "--index-dir", index_dir]) == 1
    out = capsys.readouterr().out
    assert f"({UPPER}) and deploy ({LOWER}) would write {MD_UPPER} and {MD_LOWER}" in out
    assert not project.exists()


def test_byte_identical_copies_differing_only_in_case_are_written_once(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, [SAME_UPPER, SAME_LOWER], project)
    assert plan.ok and plan.clashes == () and plan.written() == [MD_UPPER]
    assert plan.components[1].files[0].reason == (
        f"the same as the copy of {SAME_UPPER}, written once as {MD_UPPER}"
    )
    assert files_under(project / ".claude/commands") == {"Deploy.md": _command("Deploy.").encode()}


def test_an_existing_file_of_another_case_is_kept_and_force_overwrites_it(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    write_file(project, MD_UPPER, "my own deploy\n")
    plan = install(index, [LOWER], project)
    assert not plan.ok and plan.components[0].status == "blocked"
    line = next(x for x in plan.lines() if x.startswith("  kept "))
    assert line == (
        f"  kept {MD_UPPER}: exists and differs; force overwrites it (the target spells "
        f"{MD_LOWER} as {MD_UPPER}: {CASE_NOTE})"
    )
    assert files_under(project) == {MD_UPPER: b"my own deploy\n"}  # no second deploy.md

    forced = install(index, [LOWER], project, force=True)
    assert forced.ok and forced.written() == [MD_UPPER]
    commands = files_under(project / ".claude/commands")
    assert commands == {"Deploy.md": _command("Deploy with b.").encode()}
    report = uninstall([LOWER], project)
    assert report.ok and report.restored == [MD_UPPER]
    assert files_under(project / ".claude/commands") == {"Deploy.md": b"my own deploy\n"}


def test_a_skill_folder_of_another_case_is_the_skills_folder(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    mine = write_file(project, ".claude/skills/Deploy/SKILL.md", "my own skill\n")
    plan = plan_install(index, [SKILL], project)
    (f,) = plan.components[0].files
    assert (f.path, f.action) == (".claude/skills/Deploy/SKILL.md", "blocked")
    assert CASE_NOTE in f.reason
    mine.write_text("---\nname: deploy\ndescription: deploy things.\n---\n\nDo deploy.\n")
    plan = install(index, [SKILL], project)  # the same content: nothing to write
    assert plan.ok and plan.components[0].status == "unchanged"
    assert sorted(files_under(project / ".claude/skills")) == ["Deploy/SKILL.md"]


def test_several_spellings_in_the_target_refuse_the_file(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, MD_UPPER, "one\n")
    write_file(project, ".claude/commands/DEPLOY.md", "two\n")
    (f,) = plan_install(index, [LOWER], project).components[0].files
    assert (f.path, f.action) == (MD_LOWER, "refused")
    assert ".claude/commands/DEPLOY.md and .claude/commands/Deploy.md" in f.reason
    assert "remove or rename all but one" in f.reason


def test_a_spelling_the_plan_writes_itself_is_not_another_spelling(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    assert install(index, [NOTES], project).ok
    (project / ".claude/skills/notes/readme.md").unlink()
    plan = install(index, [NOTES], project)  # README.md is the skill's own, not readme.md's
    assert plan.ok and plan.written() == [".claude/skills/notes/readme.md"]
    assert (project / ".claude/skills/notes/readme.md").read_text() == "lower\n"
    assert (project / ".claude/skills/notes/README.md").read_text() == "upper\n"


def _reason(plan: object, node_id: str) -> str:
    from skill_retriever.components.install import InstallPlan

    assert isinstance(plan, InstallPlan)
    return next(c.reason for c in plan.components if c.id == node_id)


def test_a_command_beside_a_skill_of_its_name_in_one_install_gets_a_note(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, [SKILL, COMMAND, SHIP], project)
    assert plan.ok and len(plan.written()) == 3  # a note, not a refusal
    note = _reason(plan, COMMAND)
    assert note == (
        "its /deploy will run the skill deploy (.claude/skills/deploy/SKILL.md) instead: a "
        "skill and a command of one name both make that command, and Claude Code prefers "
        "the skill; rename one to keep both"
    )
    assert HIDDEN not in _reason(plan, SHIP) and HIDDEN not in _reason(plan, SKILL)
    assert f"[command] deploy  {COMMAND}: install - {note}" in plan.lines()


def test_a_command_beside_a_skill_already_in_the_target_gets_a_note(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/skills/Deploy/SKILL.md", "---\nname: deploy\n---\n")
    write_file(project, ".claude/skills/ship/notes.md", "no SKILL.md: no skill\n")
    plan = plan_install(index, [COMMAND, SHIP], project)
    assert "its /deploy will run the skill Deploy (.claude/skills/Deploy/SKILL.md)" in _reason(
        plan, COMMAND
    )
    assert HIDDEN not in _reason(plan, SHIP)
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    argv = ["install", COMMAND, SHIP, "--target", str(project), "--index-dir", index_dir]
    assert main([*argv, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.count(HIDDEN) == 1 and "Claude Code prefers the skill" in out


def test_a_skill_over_a_command_already_in_the_target_gets_a_note(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/commands/Deploy.md", _command("Deploy, the old way."))
    plan = plan_install(index, [SKILL, NOTES], project)
    assert "the target's command /Deploy (.claude/commands/Deploy.md) will run this skill" in (
        _reason(plan, SKILL)
    )
    assert HIDDEN not in _reason(plan, NOTES) and "target's command" not in _reason(plan, NOTES)
    # the command installed alongside is noted once, on the command, not on the skill too
    both = plan_install(index, [SKILL, COMMAND], tmp_path / "fresh")
    assert "target's command" not in _reason(both, SKILL) and HIDDEN in _reason(both, COMMAND)


def test_a_components_own_files_that_differ_only_in_case_get_a_note(
    index: Index, tmp_path: Path
) -> None:
    plan = install(index, [NOTES], tmp_path / "proj")
    assert plan.ok  # written as the author has them
    assert (
        "its files .claude/skills/notes/README.md and .claude/skills/notes/readme.md differ "
        "only in case" in _reason(plan, NOTES)
    )
    assert "differ only in case" not in _reason(plan_install(index, [SKILL], tmp_path / "p2"), SKILL)


NFC, NFD = "caf\u00e9.md", "cafe\u0301.md"  # one name to macOS: é as one character, and as e + accent


def test_names_in_two_unicode_forms_are_one_file(index: Index, tmp_path: Path) -> None:
    from skill_retriever.components.install.cases import CaseFolders, case_twins_note, fold

    assert NFC != NFD and fold(NFC) == fold(NFD) == fold("CAF\u00c9.md")
    assert "differ only in case" in case_twins_note([f"a/{NFC}", f"a/{NFD}"])
    project = tmp_path / "proj"
    write_file(project, f".claude/skills/notes/{NFD}", "the user's\n")
    cases = CaseFolders(project, [f".claude/skills/notes/{NFC}"])
    assert cases.spellings(f".claude/skills/notes/{NFC}") == [f".claude/skills/notes/{NFD}"]
