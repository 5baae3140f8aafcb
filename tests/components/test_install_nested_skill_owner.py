"""Install of a template file names the skill a user installs to have it: sickn33's
app-builder keeps ``templates/python-fastapi/TEMPLATE.md`` below a nested
``templates/SKILL.md``, and ``install python-fastapi`` said "install the component that
uses it: templates". Claude Code registers ``.claude/skills/<name>/SKILL.md`` alone, so
``templates/SKILL.md`` is a file of app-builder, and installing app-builder is what writes
the template: the refusal names app-builder (the outermost skill of the PART_OF chain).

A small real index (``--embedder hashing-64``: no model) of that layout, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.cli import main

ROOT = "repo/skills/app-builder"


def md(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index of the layout for the module: its tests only plan installs (--dry-run)."""
    repo = tmp_path_factory.mktemp("nested-skill-owner") / "repo"
    write_file(repo, "skills/app-builder/SKILL.md", md("app-builder", "Application building orchestrator."))
    write_file(repo, "skills/app-builder/templates/SKILL.md", md("templates", "Project scaffolding templates."))
    write_file(repo, "skills/app-builder/templates/python-fastapi/TEMPLATE.md",
               md("python-fastapi", "FastAPI REST API template principles."))
    write_file(repo, "skills/app-builder/rules/style.md", md("house-style", "How app-builder writes code."))
    ix = repo.parent / "ix"
    assert main(["index", str(repo), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    return ix


def test_a_template_below_a_nested_skill_names_the_outer_skill(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "install", "python-fastapi", "--dry-run", "--target", tmp_path / "p",
                         "--index-dir", index_dir)
    assert code == 2 and out == ""
    assert err.rstrip().endswith(f"install the component that uses it: app-builder (skill {ROOT}/SKILL.md)")
    # and installing that skill is what writes the template
    code, out, _ = run(capsys, "install", "app-builder", "--dry-run", "--target", tmp_path / "p",
                       "--index-dir", index_dir)
    assert code == 0
    assert "would create .claude/skills/app-builder/templates/python-fastapi/TEMPLATE.md" in out


def test_a_file_of_a_skill_not_nested_still_names_its_skill(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "install", "house-style", "--dry-run", "--target", tmp_path / "p",
                       "--index-dir", index_dir)
    assert code == 2
    assert err.rstrip().endswith(f"install the component that uses it: app-builder (skill {ROOT}/SKILL.md)")


def test_installing_the_nested_skill_says_whose_file_it_is(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "install", "templates", "--dry-run", "--target", tmp_path / "p",
                       "--index-dir", index_dir)
    assert code == 0
    assert f"[skill] templates  {ROOT}/templates/SKILL.md (part of skill app-builder): install" in out
    code, out, _ = run(capsys, "install", "templates", "--dry-run", "--target", tmp_path / "p",
                       "--index-dir", index_dir, "--json")
    (component,) = json.loads(out)["components"]
    assert component["part_of"] == {"id": f"{ROOT}/SKILL.md", "name": "app-builder"}
    code, out, _ = run(capsys, "install", "app-builder", "--dry-run", "--target", tmp_path / "p",
                       "--index-dir", index_dir, "--json")
    assert "part_of" not in json.loads(out)["components"][0]  # a skill of its own
