"""A private skill nested in a public skill's folder keeps its own files from a caller who
may not see it.

The public skill lists every file below its folder (``attrs["files"]``), the nested
skill's among them. Its ``SKILL.md`` is an item the caller may not see, so it was left
out, but the files of its folder (``inner/scripts/rotate.sh``) are no items of their own:
installing the public skill as a caller without the labels wrote them into the project,
and ``get_component(detail="full")`` named them in ``attrs.files`` (seen: ``skill-retriever
install outer --principals bob`` on such a repository created
``.claude/skills/outer/inner/scripts/rotate.sh``). A file under the folder of a hidden
skill is now hidden with it (`components.folder_files`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file
from mcp_in_process import tool_answers

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

MARK = "OSPREYPRIV"
OUTER = "repo/skills/outer/SKILL.md"


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nested-private")
    repo = root / "repo"
    write_file(repo, "skills/outer/SKILL.md", "---\nname: outer\ndescription: Release the app.\n---\nTag and publish.\n")
    write_file(repo, "skills/outer/notes.txt", "Public notes.\n")
    write_file(repo, "skills/outer/inner/SKILL.md",
               f"---\nname: inner\ndescription: Rotate the keys.\naccess: [red]\n---\n{MARK} run scripts/rotate.sh\n")
    write_file(repo, "skills/outer/inner/scripts/rotate.sh", f"echo {MARK}\n")
    write_file(repo, "skills/outer/inner/ref/keys.md", f"{MARK} key list\n")
    made = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(made, [repo], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems if not p.read_whole]
    made.close()
    return root / "index"


def _written(target: Path) -> list[str]:
    return sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                  if p.is_file() and ".skill-retriever" not in p.parts)


def test_install_leaves_the_hidden_skills_files_out(ix: Path, tmp_path: Path) -> None:
    with Index.open(ix) as index:
        plan = install(index, ["outer"], tmp_path / "bob", principals=["bob"])
        assert plan.ok, plan.lines()
        assert _written(tmp_path / "bob") == [".claude/skills/outer/SKILL.md", ".claude/skills/outer/notes.txt"]
        assert "inner" not in "\n".join(plan.lines())
        # a caller holding the label gets the nested skill whole, as before
        plan = install(index, ["outer"], tmp_path / "red", principals=["red"])
        assert plan.ok, plan.lines()
        assert ".claude/skills/outer/inner/scripts/rotate.sh" in _written(tmp_path / "red")


def test_mcp_names_no_file_of_the_hidden_skill(ix: Path, tmp_path: Path) -> None:
    calls = {
        "full": ("get_component", {"id": OUTER, "detail": "full"}),
        "plan": ("install_components", {"ids": [OUTER], "target": str(tmp_path), "detail": "full"}),
    }
    said = tool_answers(ix, ["bob"], calls)
    assert said["full"]["attrs"]["files"] == ["notes.txt"]
    assert "inner" not in str(said) and MARK not in str(said)
    assert tool_answers(ix, ["red"], calls)["full"]["attrs"]["files"] == [
        "inner/SKILL.md", "inner/ref/keys.md", "inner/scripts/rotate.sh", "notes.txt"
    ]
