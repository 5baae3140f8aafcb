"""Install defects the walkthroughs met:

- ``install --dry-run`` into a folder that cannot be written said nothing; only the real
  install refused. The dry run's plan now carries that refusal (``refused``, ``ok``
  False, a ``refused:`` line, exit 1), and likewise for a target that could not be made.
- A skill, agent or command whose frontmatter is not valid YAML (the index read it
  leniently: ``attrs["frontmatter_recovered"]``) was copied without a word; Claude Code
  parses frontmatter as YAML and may not read its name and description. The plan now
  notes it per component; the file is still installed, unchanged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import files_under, write_catalogue

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

WRITABLE_HINT = r"cannot write into .*skills \(permission denied\); make it writable \(chmod u\+w\)"


def _read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``chmod 555`` ``folder``; as root (who writes through it) ``os.access`` says no too."""
    real_access = os.access
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != folder and real_access(p, mode))
    folder.chmod(0o555)


# -- dry run into a folder that cannot be written ------------------------------------------


def test_a_dry_run_carries_the_refusal_of_a_read_only_folder(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    skills = project / ".claude/skills"
    skills.mkdir(parents=True)
    _read_only(skills, monkeypatch)
    try:
        plan = install(hashed_index, ["ship", "web-scaffold"], project, dry_run=True)
        with pytest.raises(InstallError, match=WRITABLE_HINT):  # the real one, as before
            install(hashed_index, ["ship", "web-scaffold"], project)
    finally:
        skills.chmod(0o755)
    assert not plan.applied and not plan.ok
    assert re.match(WRITABLE_HINT, plan.refused)
    assert plan.refused.endswith("or install somewhere else; an install would write nothing")
    assert plan.lines()[-1] == f"refused: {plan.refused}"
    assert plan.to_dict()["refused"] == plan.refused and plan.to_dict()["ok"] is False
    assert files_under(project) == {}


def test_a_writable_dry_run_is_not_refused(hashed_index: Index, tmp_path: Path) -> None:
    plan = install(hashed_index, ["ship"], tmp_path / "proj", dry_run=True)  # made on install
    assert plan.ok and plan.refused == "" and plan.to_dict()["refused"] is None
    assert not any(line.startswith("refused:") for line in plan.lines())


def test_a_dry_run_says_a_target_could_not_be_made(hashed_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "proj"
    plan = install(hashed_index, ["ship"], target, dry_run=True)
    assert not plan.ok and "does not exist, nor does" in plan.refused
    with pytest.raises(InstallError, match="does not exist, nor does"):
        install(hashed_index, ["ship"], target)


def test_the_dry_run_command_says_it_and_exits_1(
    hashed_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(hashed_index.path)
    hashed_index.close()  # the command opens it itself
    project = tmp_path / "proj"
    skills = project / ".claude/skills"
    skills.mkdir(parents=True)
    _read_only(skills, monkeypatch)
    try:
        code = main(["install", "web-scaffold", "--target", str(project), "--dry-run", "--index-dir", index_dir])
    finally:
        skills.chmod(0o755)
    out = capsys.readouterr().out
    assert code == 1
    assert "refused: cannot write into" in out and "chmod u+w" in out


# -- frontmatter that is not valid YAML -----------------------------------------------------

BAD_FRONT = "---\nname: {name}\ndescription: Use this: when the build breaks\n---\n\n{body}\n"
GOOD_FRONT = '---\nname: {name}\ndescription: "Use this: when the build breaks"\n---\n\n{body}\n'


@pytest.fixture
def lenient_index(tmp_path: Path) -> Iterator[tuple[Index, Path]]:
    """The fixture catalogue plus an agent, a command and a skill whose frontmatter only
    the lenient reading could use, and one command whose value is quoted."""
    acme, mirror = write_catalogue(tmp_path / "catalogue")
    files = {
        acme / "agents/fixer.md": BAD_FRONT.format(name="fixer", body="You fix builds."),
        acme / "commands/unbreak.md": BAD_FRONT.format(name="unbreak", body="Run the build."),
        acme / "skills/triage/SKILL.md": BAD_FRONT.format(name="triage", body="# Triage"),
        acme / "commands/quoted.md": GOOD_FRONT.format(name="quoted", body="Run the build."),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [acme, mirror], "skills")
    problems = [p.message for s in run.sources for p in s.problems]
    assert len(problems) == 3 and all(p.startswith("frontmatter is not valid YAML") for p in problems)
    yield index, acme
    index.close()


def test_frontmatter_that_is_not_yaml_is_noted_and_copied_as_written(
    lenient_index: tuple[Index, Path], tmp_path: Path
) -> None:
    index, acme = lenient_index
    project = tmp_path / "proj"
    plan = install(index, ["fixer", "unbreak", "triage", "quoted"], project)
    assert plan.ok and plan.applied
    by_name = {c.name: c for c in plan.components}
    for name in ("fixer", "unbreak", "triage"):
        c = by_name[name]
        assert c.status == "install"
        assert c.reason.startswith("its frontmatter is not valid YAML (mapping values are not allowed")
        assert c.reason.endswith("Claude Code may not read its name and description: quote values holding ': '")
        assert c.to_dict()["reason"] == c.reason
    assert by_name["quoted"].reason == ""
    assert any("its frontmatter is not valid YAML" in line for line in plan.lines())
    # not rewritten: byte for byte the author's file
    assert (project / ".claude/agents/fixer.md").read_bytes() == (acme / "agents/fixer.md").read_bytes()
    assert (project / ".claude/commands/unbreak.md").read_bytes() == (acme / "commands/unbreak.md").read_bytes()
    assert (project / ".claude/skills/triage/SKILL.md").read_bytes() == (
        acme / "skills/triage/SKILL.md"
    ).read_bytes()


def test_a_file_rebuilt_from_the_index_gets_no_yaml_note(
    lenient_index: tuple[Index, Path], tmp_path: Path
) -> None:
    """Rebuilt (its source gone), the frontmatter is written as YAML: nothing to warn of."""
    index, acme = lenient_index
    (acme / "commands/unbreak.md").unlink()
    plan = install(index, ["unbreak"], tmp_path / "proj", dry_run=True)
    (c,) = plan.components
    assert "not valid YAML" not in c.reason and "rebuilt from the index" in c.reason


@pytest.mark.parametrize("in_the_way", [".claude/skills/web-scaffold", ".claude/skills", ".claude"])
def test_a_file_where_a_folder_goes_is_refused_before_anything_is_written(
    hashed_index: Index, tmp_path: Path, in_the_way: str
) -> None:
    """A dry run said "would create" for each file, then the install failed on that
    file half-way ("... failed (File exists)"), with the command written and the skill not
    (found in a walkthrough). Both now refuse it first, naming the file."""
    project = tmp_path / "proj"
    blocker = project / in_the_way
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("mine\n")
    said = rf"cannot make the folder {re.escape(str(blocker))}: a file of that name is in the way; move or remove it"
    plan = install(hashed_index, ["ship", "web-scaffold"], project, dry_run=True)
    assert not plan.ok and re.match(said, plan.refused)
    with pytest.raises(InstallError, match=said + r" or install somewhere else; nothing written"):
        install(hashed_index, ["ship", "web-scaffold"], project)
    assert files_under(project) == {in_the_way: b"mine\n"}


def _dup(tmp_path: Path) -> Index:
    """Two sources each with a skill ``dup`` (a re-hosted copy that differs) and an MCP
    server ``db`` configured differently."""
    for repo, says in (("one", "One."), ("two", "Two.")):
        root = tmp_path / repo
        (root / "skills/dup").mkdir(parents=True)
        (root / "skills/dup/SKILL.md").write_text(f"---\nname: dup\ndescription: the dup skill\n---\n{says}\n")
        (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"db": {"command": f"db-{repo}"}}}))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [tmp_path / "one", tmp_path / "two"], "skills")
    return index


def test_force_does_not_replace_what_another_installed_component_wrote(tmp_path: Path) -> None:
    """``--force`` over another component's file kept no copy of it (copies are kept of
    the user's files only): its content was gone, uninstalling the forcing one left its
    version behind (the other "installed it too, and stays"), and uninstalling the other
    then said the user had changed it. Now refused, naming what to uninstall first."""
    index = _dup(tmp_path)
    project = tmp_path / "proj"
    assert install(index, ["one/skills/dup/SKILL.md", "one/.mcp.json#db"], project).ok
    forced = install(index, ["two/skills/dup/SKILL.md", "two/.mcp.json#db"], project, force=True)
    assert not forced.ok and forced.written() == []
    reasons = {f.path: (f.action, f.reason) for c in forced.components for f in c.files}
    assert reasons == {
        ".claude/skills/dup/SKILL.md": ("refused", (
            "holds what the installed dup (one/skills/dup/SKILL.md) wrote; uninstall it first "
            f"(`skill-retriever uninstall one/skills/dup/SKILL.md --target {project}`), then install this")),
        ".mcp.json#db": ("refused", (
            "holds what the installed db (one/.mcp.json#db) configured; uninstall it first "
            # quoted: to a shell, "#" starts a comment
            f"(`skill-retriever uninstall 'one/.mcp.json#db' --target {project}`), then install this")),
    }
    assert (project / ".claude/skills/dup/SKILL.md").read_text().endswith("One.\n")
    # as it says: uninstall the first, then the second installs
    assert uninstall(["one/skills/dup/SKILL.md", "one/.mcp.json#db"], project).ok
    assert install(index, ["two/skills/dup/SKILL.md", "two/.mcp.json#db"], project).ok
    assert (project / ".claude/skills/dup/SKILL.md").read_text().endswith("Two.\n")
    index.close()
