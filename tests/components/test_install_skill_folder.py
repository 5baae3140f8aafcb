"""A skill installs in the folder Claude Code will call it by (`skill_folder`).

Claude Code names a skill by its folder (``.claude/skills/<n>/SKILL.md`` is ``/<n>``) and
takes lowercase letters, digits and hyphens, at most 64 characters. A skill whose
frontmatter said ``name: PDF Processing Pro`` installed as ``.claude/skills/PDF-Processing-Pro/``:
a command with capitals that neither the name nor the author's folder (``pdf-pro``) was.
It now installs in its source folder's name (else a slug of its name), the plan's note
saying what Claude Code calls it; a name Claude Code takes is still the folder. Installs
recorded under the older folder still uninstall, and installing again moves them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install, plan_install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PRO = "cat/skills/pdf-pro/SKILL.md"  # name: Sheet Maker Pro, folder pdf-pro
ODD = "cat/skills/Report Tools/SKILL.md"  # name: Rapport Café Pro!, folder no name either
TIDY = "cat/skills/long-form/SKILL.md"  # name: tidy-writer, a name Claude Code takes


def _skill(name: str, what: str) -> str:
    return f"---\nname: {name}\ndescription: {what} Use when asked to.\n---\n\n# {name}\n\n{what}\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src" / "cat"
    write_file(src, "skills/pdf-pro/SKILL.md", _skill("Sheet Maker Pro", "Build sheets."))
    write_file(src, "skills/pdf-pro/scripts/build.py", "print('built')\n")
    write_file(src, "skills/Report Tools/SKILL.md", _skill("Rapport Café Pro!", "Write reports."))
    write_file(src, "skills/long-form/SKILL.md", _skill("tidy-writer", "Tighten prose."))
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    yield built
    built.close()


def _files(project: Path) -> list[str]:
    skills = project / ".claude/skills"
    return sorted(p.relative_to(skills).as_posix() for p in skills.rglob("*") if p.is_file())


def test_a_name_claude_code_does_not_take_installs_in_its_source_folder_or_a_slug(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, [PRO, ODD, TIDY], project)
    assert plan.ok, plan.lines()
    assert _files(project) == [  # before: Rapport-Café-Pro/SKILL.md, Sheet-Maker-Pro/...
        "pdf-pro/SKILL.md", "pdf-pro/scripts/build.py", "rapport-cafe-pro/SKILL.md", "tidy-writer/SKILL.md",
    ]
    reason = {c.id: c.reason for c in plan.components}
    assert (
        "it is installed as .claude/skills/pdf-pro/ (its source folder's name), so Claude Code offers it "
        "as /pdf-pro; set its frontmatter name to pdf-pro to make the two agree"
    ) in reason[PRO], reason[PRO]
    assert "as .claude/skills/rapport-cafe-pro/ (a slug of its name), so Claude Code offers it as /rapport-cafe-pro" in reason[ODD]
    assert "installed as" not in reason[TIDY]  # its own name, folder long-form aside
    # the file is the author's, written as it is
    assert (project / ".claude/skills/pdf-pro/SKILL.md").read_text().startswith("---\nname: Sheet Maker Pro\n")


def test_installing_again_writes_nothing(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, [PRO, ODD, TIDY], project).ok
    again = install(index, [PRO, ODD, TIDY], project)
    assert again.ok and again.nothing_written, again.lines()
    assert {c.status for c in again.components} == {"unchanged"}
    assert _files(project)[0] == "pdf-pro/SKILL.md"  # before: Sheet-Maker-Pro/SKILL.md


def _old_install(project: Path, src: Path) -> None:
    """What the code before `skill_folder` wrote for ``PRO``: its files in
    ``Sheet-Maker-Pro/`` and a record of them (`inventory.InstallRecord`'s format)."""
    files = {}
    for rel in ("SKILL.md", "scripts/build.py"):
        data = (src / "skills/pdf-pro" / rel).read_bytes()
        write_file(project, f".claude/skills/Sheet-Maker-Pro/{rel}", data)
        files[f".claude/skills/Sheet-Maker-Pro/{rel}"] = "sha256:" + hashlib.sha256(data).hexdigest()
    entry = {"kind": "skill", "name": "Sheet Maker Pro", "files": files, "hooks": [], "mcp_servers": {},
             "asked": True, "named": True}
    record = {"format": 1, "components": {PRO: entry}, "created": [], "folders": [".claude", ".claude/skills"]}
    write_file(project, ".claude/.skill-retriever/installed.json", record)


@pytest.mark.parametrize("given", ["Sheet Maker Pro", "pdf-pro", "Sheet-Maker-Pro", PRO])
def test_a_skill_recorded_under_the_older_folder_still_uninstalls(given: str, tmp_path: Path, index: Index) -> None:
    """A guard: uninstall takes the record's files, not the new rule (so this passed before too)."""
    project = tmp_path / "proj"
    _old_install(project, tmp_path / "src/cat")
    report = uninstall([given], project)
    assert report.ok and report.ids == [PRO], report.lines()
    assert not (project / ".claude/skills").exists() or _files(project) == []
    assert not (project / ".claude/skills/Sheet-Maker-Pro").exists()


def test_installing_again_over_the_older_folder_moves_it_and_uninstall_takes_the_new_one(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    _old_install(project, tmp_path / "src/cat")
    plan = install(index, [PRO], project)
    assert plan.ok, plan.lines()
    assert sorted(plan.written()) == [".claude/skills/pdf-pro/SKILL.md", ".claude/skills/pdf-pro/scripts/build.py"]
    assert sorted(plan.removed()) == [
        ".claude/skills/Sheet-Maker-Pro/SKILL.md", ".claude/skills/Sheet-Maker-Pro/scripts/build.py",
    ]
    assert _files(project) == ["pdf-pro/SKILL.md", "pdf-pro/scripts/build.py"]
    record = json.loads((project / ".claude/.skill-retriever/installed.json").read_text())
    assert sorted(record["components"][PRO]["files"]) == sorted(plan.written())
    assert uninstall(["pdf-pro"], project).ok
    assert not (project / ".claude/skills/pdf-pro").exists()


def test_install_takes_the_folder_a_skill_installs_in_as_its_file_name(index: Index, tmp_path: Path) -> None:
    """``rapport-cafe-pro`` is what Claude Code calls the skill once installed: install and
    uninstall take it (before, neither: it installed as ``Rapport-Café-Pro``)."""
    plan = plan_install(index, ["rapport-cafe-pro"], tmp_path / "proj")
    assert [c.id for c in plan.components] == [ODD]
    project = tmp_path / "proj"
    assert install(index, [ODD], project).ok
    assert uninstall(["rapport-cafe-pro"], project).ids == [ODD]


def test_a_skill_with_no_name_in_a_folder_claude_code_would_not_take(tmp_path: Path) -> None:
    """No frontmatter name: the index names it by its folder (``Data Viz``), which Claude Code
    would not take either; it installs as a slug, and the note on its missing name says so."""
    src = tmp_path / "src" / "cat"
    write_file(src, "skills/Data Viz/SKILL.md", "---\ndescription: Draw charts. Use when asked.\n---\n\nDraw.\n")
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(built, [src], "skills")
        plan = install(built, ["cat/skills/Data Viz/SKILL.md"], tmp_path / "proj")
    finally:
        built.close()
    assert plan.ok and _files(tmp_path / "proj") == ["data-viz/SKILL.md"], plan.lines()  # before: Data-Viz
    (c,) = plan.components
    assert "has no name, which Claude Code requires of a skill; it is installed as .claude/skills/data-viz/" in c.reason


def _node(name: str, path: str, root: str) -> Node:
    return Node("cat/x", NodeKind.SKILL, name, "Body.", attrs={"path": path, "source_root": root})


@pytest.mark.parametrize(("name", "path", "root", "folder", "how"), [
    ("tidy-writer", "skills/long-form/SKILL.md", "/data/cat", "tidy-writer", ""),
    ("PDF Processing Pro", "skills/pdf-pro/SKILL.md", "/data/cat", "pdf-pro", "its source folder's name"),
    ("PDF Processing Pro", "skills/pdf_pro/SKILL.md", "/data/cat", "pdf-processing-pro", "a slug of its name"),
    ("Café  Tools -- v2!", "skills/Café/SKILL.md", "/data/cat", "cafe-tools-v2", "a slug of its name"),
    ("A" * 40 + " " + "b" * 40, "skills/X Y/SKILL.md", "/data/cat", "a" * 40 + "-" + "b" * 23, "a slug of its name"),
    ("Root Skill", "SKILL.md", "/data/pdf-root", "pdf-root", "its source folder's name"),  # the folder indexed
    ("名前", "skills/名前/SKILL.md", "/data/cat", "名前", "its name as a file name"),
    ("Guide", "guides/guide.md", "/data/cat", "guide", "a slug of its name"),  # no SKILL.md: no source folder
])
def test_the_folder_rule(name: str, path: str, root: str, folder: str, how: str) -> None:
    from skill_retriever.components.install.skill_folder import skill_folder  # new with the rule

    got = skill_folder(_node(name, path, root))
    assert (got.name, got.how) == (folder, how)
