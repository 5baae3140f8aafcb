"""Two skills in source folders of one name (`same_folder`).

``name: PDF Tools`` in ``a/skills/pdf/`` and ``name: PDF Helper`` in ``b/skills/pdf/``:
names Claude Code does not take, so each installs in its source folder's name
(`skill_folder`, 2), and both claimed ``.claude/skills/pdf/``: the plan was refused as a
clash, where before that rule each went in a folder of its own name. The second now goes
by a slug of its name (``pdf-helper/``), its note saying why; installing again moves
nothing and writes nothing, whatever the order; two skills of one name Claude Code takes
still clash.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install, plan_install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOOLS = "a/skills/pdf/SKILL.md"  # name: PDF Tools
HELPER = "b/skills/pdf/SKILL.md"  # name: PDF Helper
KIT_A = "a/skills/kit-one/SKILL.md"  # name: pdf-kit, a name Claude Code takes
KIT_B = "b/skills/kit-two/SKILL.md"  # name: pdf-kit too, other text
NAMED = "b/skills/plain/SKILL.md"  # name: pdf, a name Claude Code takes: the folder pdf/ is its own
SLUGGED = "c/skills/pdf/SKILL.md"  # name: PDF Kit: its slug pdf-kit is KIT_A's


def _skill(name: str, what: str) -> str:
    return f"---\nname: {name}\ndescription: {what} Use when asked to.\n---\n\n# {name}\n\n{what}\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src"
    write_file(src, "a/skills/pdf/SKILL.md", _skill("PDF Tools", "Split and merge PDFs."))
    write_file(src, "a/skills/pdf/scripts/split.py", "print('split')\n")
    write_file(src, "a/skills/kit-one/SKILL.md", _skill("pdf-kit", "One kit."))
    write_file(src, "b/skills/pdf/SKILL.md", _skill("PDF Helper", "Fill PDF forms."))
    write_file(src, "b/skills/pdf/forms.md", "# Forms\n")
    write_file(src, "b/skills/kit-two/SKILL.md", _skill("pdf-kit", "Another kit."))
    write_file(src, "b/skills/plain/SKILL.md", _skill("pdf", "Read PDFs."))
    write_file(src, "c/skills/pdf/SKILL.md", _skill("PDF Kit", "A third kit."))
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src / "a", src / "b", src / "c"], "skills")
    yield built
    built.close()


def _files(project: Path) -> list[str]:
    skills = project / ".claude/skills"
    return sorted(p.relative_to(skills).as_posix() for p in skills.rglob("*") if p.is_file())


BOTH = ["pdf-helper/SKILL.md", "pdf-helper/forms.md", "pdf/SKILL.md", "pdf/scripts/split.py"]


def test_the_second_of_two_skills_in_same_named_folders_goes_by_a_slug_of_its_name(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, [TOOLS, HELPER], project)
    assert plan.ok and not plan.clashes, plan.lines()  # before: a clash on .claude/skills/pdf/SKILL.md
    assert _files(project) == BOTH
    assert (project / ".claude/skills/pdf-helper/SKILL.md").read_text().startswith("---\nname: PDF Helper\n")
    reason = {c.id: c.reason for c in plan.components}
    assert (
        "it is installed as .claude/skills/pdf-helper/ (a slug of its name: its source folder's name, pdf, "
        "is PDF Tools's here), so Claude Code offers it as /pdf-helper"
    ) in reason[HELPER], reason[HELPER]
    assert "installed as .claude/skills/pdf/ (its source folder's name)" in reason[TOOLS], reason[TOOLS]


@pytest.mark.parametrize("order", [[TOOLS, HELPER], [HELPER, TOOLS]])
def test_installing_again_in_either_order_moves_nothing_and_uninstall_removes_both(
    order: list[str], index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    assert install(index, [TOOLS, HELPER], project).ok
    again = install(index, order, project)
    assert again.ok and again.nothing_written, again.lines()
    assert {c.status for c in again.components} == {"unchanged"}
    assert _files(project) == BOTH
    report = uninstall([TOOLS, HELPER], project)
    assert report.ok, report.lines()
    assert not (project / ".claude/skills").exists() or _files(project) == []


def test_one_installed_before_holds_its_folder_for_a_later_install_of_the_other(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    assert install(index, [HELPER], project).ok
    plan = install(index, [TOOLS], project)  # before: blocked, pdf/SKILL.md written by PDF Helper
    assert plan.ok, plan.lines()
    assert _files(project) == ["pdf-tools/SKILL.md", "pdf-tools/scripts/split.py", "pdf/SKILL.md", "pdf/forms.md"]
    assert install(index, [TOOLS, HELPER], project).nothing_written
    assert uninstall([TOOLS], project).ok and uninstall([HELPER], project).ok
    assert not (project / ".claude/skills").exists() or _files(project) == []


def test_a_folder_that_is_a_skills_own_name_is_its_own_wherever_it_stands(index: Index, tmp_path: Path) -> None:
    """``name: pdf`` (1 in `skill_folder`) keeps ``pdf/`` though it comes later in the plan."""
    project = tmp_path / "proj"
    plan = install(index, [TOOLS, NAMED], project)
    assert plan.ok, plan.lines()
    assert _files(project) == ["pdf-tools/SKILL.md", "pdf-tools/scripts/split.py", "pdf/SKILL.md"]
    assert (project / ".claude/skills/pdf/SKILL.md").read_text().startswith("---\nname: pdf\n")


def test_two_skills_of_one_name_claude_code_takes_still_clash(index: Index, tmp_path: Path) -> None:
    plan = plan_install(index, [KIT_A, KIT_B], tmp_path / "proj")
    assert not plan.ok
    assert [(c.path, c.first, c.second) for c in plan.clashes] == [(".claude/skills/pdf-kit/SKILL.md", KIT_A, KIT_B)]


def test_where_the_slug_is_another_skills_too_the_clash_is_refused_as_before(
    index: Index, tmp_path: Path
) -> None:
    """``PDF Kit`` in ``c/skills/pdf/``: ``pdf/`` is PDF Tools's, ``pdf-kit/`` the kit's."""
    plan = plan_install(index, [TOOLS, KIT_A, SLUGGED], tmp_path / "proj")
    assert not plan.ok
    assert [(c.path, c.first, c.second) for c in plan.clashes] == [(".claude/skills/pdf/SKILL.md", TOOLS, SLUGGED)]


def test_a_copy_of_the_same_skill_is_written_once_in_its_source_folder(tmp_path: Path) -> None:
    """The same ``SKILL.md`` in two repositories' ``pdf/`` is no other skill's folder."""
    src = tmp_path / "src"
    for repo in ("a", "b"):
        write_file(src, f"{repo}/skills/pdf/SKILL.md", _skill("PDF Tools", "Split and merge PDFs."))
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(built, [src / "a", src / "b"], "skills")
        plan = install(built, ["a/skills/pdf/SKILL.md", "b/skills/pdf/SKILL.md"], tmp_path / "proj")
    finally:
        built.close()
    assert plan.ok, plan.lines()
    assert _files(tmp_path / "proj") == ["pdf/SKILL.md"]


def test_the_slug_it_went_by_names_it_for_install(index: Index, tmp_path: Path) -> None:
    """The plan says ``installed as .claude/skills/pdf-helper/``; ``install pdf-helper``
    found no component of that name before (its file names were ``pdf`` only)."""
    project = tmp_path / "proj"
    assert install(index, [TOOLS], project).ok
    plan = install(index, ["pdf-helper"], project)
    assert plan.ok, plan.lines()
    assert [c.id for c in plan.components if c.status == "install"] == [HELPER]
    assert _files(project) == BOTH
    assert uninstall(["pdf-helper"], project).ok
    assert _files(project) == ["pdf/SKILL.md", "pdf/scripts/split.py"]
