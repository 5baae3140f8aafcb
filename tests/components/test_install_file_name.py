"""A command installs by the name Claude Code gives it, its file's, when no component has
that name: trailofbits/skills' ``commands/ct-check.md`` (frontmatter ``name:
trailofbits:ct-check``) is ``/ct-check`` in Claude Code, and ``install ct-check`` only
offered ``trailofbits:ct-check`` (seen on ../shared/data/skills/trailofbits__skills). The one
component of that file name is taken, the plan's note naming its id; several are refused,
each said by id; a component named so wins over another's file name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.components.install import InstallError, install, plan_install, uninstall
from skill_retriever.components.install.errors import UnknownComponentError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CT = "cat/plugins/ct/commands/ct-check.md"
ONE, TWO = "cat/plugins/one/commands/scan.md", "cat/plugins/two/commands/scan.md"
LINT_CMD, LINT_AGENT = "cat/plugins/ct/commands/lint.md", "cat/agents/lint.md"


def _command(name: str, what: str) -> str:
    return f"---\nname: {name}\ndescription: {what}\n---\n\n{what} Run it.\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src" / "cat"
    write_file(src, "plugins/ct/commands/ct-check.md", _command("trailofbits:ct-check", "Check timing."))
    write_file(src, "plugins/one/commands/scan.md", _command("one:scan", "Scan one way."))
    write_file(src, "plugins/two/commands/scan.md", _command("two:scan", "Scan another way."))
    write_file(src, "plugins/ct/commands/lint.md", _command("ct:lint", "Lint the code."))
    write_file(src, "agents/lint.md", "---\nname: lint\ndescription: The lint agent.\n---\n\nLint.\n")
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    yield built
    built.close()


@pytest.mark.parametrize("typed", ["ct-check", "CT-Check"])
def test_the_one_command_of_that_file_name_is_taken_and_said_by_id(
    typed: str, index: Index, tmp_path: Path
) -> None:
    plan = install(index, [typed], tmp_path / "proj")
    assert plan.ok and [c.id for c in plan.components] == [CT]
    assert (tmp_path / "proj/.claude/commands/ct/ct-check.md").is_file()
    assert any(f"the file name of command trailofbits:ct-check (id {CT})" in n for n in plan.notes), plan.notes


def test_several_commands_of_that_file_name_are_refused_each_by_id(index: Index, tmp_path: Path) -> None:
    with pytest.raises(UnknownComponentError) as caught:
        plan_install(index, ["scan"], tmp_path / "proj")
    assert caught.value.candidates == (ONE, TWO)
    said = str(caught.value)
    assert "2 components have the file name 'scan'" in said and ONE in said and TWO in said, said
    assert not (tmp_path / "proj").exists()


def test_a_component_of_that_name_wins_over_a_file_name(index: Index, tmp_path: Path) -> None:
    plan = plan_install(index, ["lint"], tmp_path / "proj")
    assert [c.id for c in plan.components] == [LINT_AGENT]


def test_the_cli_says_which_id_the_file_name_took(index: Index, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    index_dir = index.path
    index.close()
    code, out, err = run(capsys, "install", "ct-check", "--target", tmp_path / "proj", "--index-dir", index_dir)
    assert code == 0, out + err
    assert f"no component is named 'ct-check'; it is the file name of command trailofbits:ct-check (id {CT})" in out, out


def test_uninstall_takes_the_file_name_install_took(index: Index, tmp_path: Path) -> None:
    """``uninstall ct-check`` after ``install ct-check`` was 'no component 'ct-check' installed'."""
    project = tmp_path / "proj"
    assert install(index, ["ct-check", ONE, TWO, LINT_AGENT, LINT_CMD], project).ok
    with pytest.raises(InstallError) as caught:  # two installed commands are /scan: each said by id
        uninstall(["scan"], project)
    assert f"2 components installed in {project} have the file name 'scan'" in str(caught.value)
    assert ONE in str(caught.value) and TWO in str(caught.value)
    report = uninstall(["CT-check", "lint"], project)  # the agent named lint, not the command's file
    assert report.ok and sorted(report.ids) == sorted([CT, LINT_AGENT]), report
    assert any(f"the file name of command trailofbits:ct-check (id {CT})" in n for n in report.notes), report.notes
    assert not (project / ".claude/commands/ct/ct-check.md").exists()
    assert (project / ".claude/commands/ct/lint.md").is_file()


PDF, REV = "cat/skills/pdf-tools/SKILL.md", "cat/agents/rev.md"
TIDY = "cat/skills/long-form/SKILL.md"


@pytest.fixture
def renamed(tmp_path: Path) -> Iterator[Index]:
    """Skills whose folder and frontmatter name differ: ``pdf-tools`` (``PDF Helper``, no name
    Claude Code takes: installed as ``.claude/skills/pdf-tools``), ``long-form``
    (``tidy-writer``: installed as ``.claude/skills/tidy-writer``); an agent alike
    (``rev.md``, ``Code Reviewer``, installed as ``Code-Reviewer.md``)."""
    src = tmp_path / "src" / "cat"
    write_file(src, "skills/pdf-tools/SKILL.md", "---\nname: PDF Helper\ndescription: Read PDFs.\n---\n\nRead.\n")
    write_file(src, "skills/long-form/SKILL.md", "---\nname: tidy-writer\ndescription: Tighten prose.\n---\n\nTidy.\n")
    write_file(src, "agents/rev.md", "---\nname: Code Reviewer\ndescription: Reviews code.\n---\n\nReview.\n")
    built = Index.open(tmp_path / "renamed", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    yield built
    built.close()


@pytest.mark.parametrize(("given", "taken"), [
    ("pdf-tools", PDF), ("long-form", TIDY), ("rev", REV), ("code-reviewer", REV),
])
@pytest.mark.parametrize("by", ["install", "uninstall"])
def test_install_and_uninstall_take_the_source_and_the_installed_file_name_alike(
    given: str, taken: str, by: str, renamed: Index, tmp_path: Path
) -> None:
    """``install pdf-tools`` took the source folder's name, ``uninstall pdf-tools`` only the
    installed folder's (then ``PDF-Helper``): each refused the name the other took."""
    project = tmp_path / "proj"
    if by == "install":
        plan = install(renamed, [given], project)
        assert plan.ok and [c.id for c in plan.components] == [taken], plan.lines()
        # Claude Code calls a skill or an agent by its frontmatter name, not by this one
        what = {PDF: "skill PDF Helper", TIDY: "skill tidy-writer", REV: "agent Code Reviewer"}[taken]
        said = f"no component is named {given!r}; it is the file name of {what} (id {taken}): installing that one"
        assert plan.notes == (said,), plan.notes
        return
    assert install(renamed, [PDF, TIDY, REV], project).ok
    report = uninstall([given], project)
    assert report.ok and report.ids == [taken], report.lines()
    assert any(f"(id {taken})" in n for n in report.notes), report.notes


def test_the_json_error_of_a_name_several_answer_to_lists_their_ids(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``install scan --json`` said the ids only inside the error's sentence: an agent that
    must pick one (davila7's ``postgresql`` is an MCP server and a skill) had to parse it."""
    index_dir = index.path
    index.close()
    code, out, _ = run(capsys, "install", "scan", "--target", tmp_path / "proj", "--index-dir", index_dir, "--json")
    data = json.loads(out)
    assert code == 2 and "give the id of the one you want" in data["error"]
    assert data["candidates"] == [ONE, TWO]
    code, out, _ = run(capsys, "install", "lnt", "--target", tmp_path / "proj", "--index-dir", index_dir, "--json")
    assert code == 2 and "candidates" not in json.loads(out)  # none answers to it: close names are in the sentence
