"""A Markdown file in a skill's folder that gives ``access`` labels in its frontmatter is
private to those labels, with or without a name and a description. Without them it was
no item of its own, so its labels were read by nothing: installing the public skill as a
caller without them copied ``docs/internal.md`` (``access: [red]``) into the project
(seen: skill-retriever install ... --principals bob on such a repository). It is now an
item of its own (named by its file), which install leaves out for such a caller as it
does a private template; a file with no ``access`` stays a plain folder file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

MARK = "KESTRELPRIV"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("labelled-files")
    repo = root / "repo"
    write_file(repo, "skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy the web app.\n---\nSee docs/.\n")
    write_file(repo, "skills/deploy/docs/internal.md", f"---\ntitle: Internal runbook\naccess: [red]\n---\n{MARK} steps\n")
    write_file(repo, "skills/deploy/docs/open.md", "---\ntitle: Open notes\n---\nPublic steps.\n")
    write_file(repo, "skills/deploy/helper.py", "print('hi')\n")
    made = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(made, [repo], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems if not p.read_whole]
    return made


def _written(target: Path) -> list[str]:
    return sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file() and ".skill-retriever" not in p.parts)


def test_a_caller_without_the_labels_gets_the_skill_without_the_file(index: Index, tmp_path: Path) -> None:
    plan = install(index, ["deploy"], tmp_path, principals=[])
    assert plan.ok, plan.lines()
    assert _written(tmp_path) == [
        ".claude/skills/deploy/SKILL.md",
        ".claude/skills/deploy/docs/open.md",
        ".claude/skills/deploy/helper.py",
    ]
    assert MARK not in "\n".join(plan.lines())


def test_a_caller_holding_the_labels_gets_it(index: Index, tmp_path: Path) -> None:
    plan = install(index, ["deploy"], tmp_path, principals=["red"])
    assert plan.ok, plan.lines()
    assert (tmp_path / ".claude/skills/deploy/docs/internal.md").read_text().endswith(f"{MARK} steps\n")


def test_the_labelled_file_is_an_item_only_its_labels_see(index: Index) -> None:
    labelled = [n for n in index.snapshot().nodes.values() if n.access]
    assert [(n.id, n.name, n.access) for n in labelled] == [
        ("repo/skills/deploy/docs/internal.md", "internal", ("red",))
    ]
    assert "repo/skills/deploy/docs/open.md" not in index.snapshot().nodes
