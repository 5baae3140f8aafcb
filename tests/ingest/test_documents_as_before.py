"""A source keeps the reading the index holds it by: a folder of documents that gains a
SKILL.md stays a folder of documents when indexed again, unless ``--kind`` says otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.document_sources import READ_AS_BEFORE
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.document_notes import READ_AS_DOCUMENTS
from skill_retriever.model import NodeKind
from skill_retriever.stores.index import Index

SKILL = "---\nname: fmt\ndescription: Formats code.\n---\nRun the formatter.\n"


def _kinds(index: Index) -> dict[str, NodeKind]:
    return {i: n.kind for i, n in index.snapshot().nodes.items()}


def _runbooks(tmp_path: Path) -> Path:
    root = tmp_path / "runbooks"
    write_file(root, "deploy.md", "# Deploy\n\nHow we deploy the API.\n")
    write_file(root, "rollback.md", "# Rollback\n\nHow we roll a release back.\n")
    return root


def test_a_documents_folder_that_gains_a_skill_stays_documents(tmp_path: Path, index_dir: Path) -> None:
    root = _runbooks(tmp_path)
    with Index.open(index_dir) as index:
        first = index_sources(index, [root], calibrate=False)
        assert [p.message for p in first.sources[0].notes] == [READ_AS_DOCUMENTS]
        write_file(root, "examples/fmt/SKILL.md", SKILL)  # an example in the docs
        again = index_sources(index, [root], calibrate=False)
        assert [p.message for p in again.sources[0].notes] == [READ_AS_BEFORE]
        assert again.removed == {}
        assert _kinds(index) == {
            "runbooks/deploy.md": NodeKind.DOCUMENT,
            "runbooks/rollback.md": NodeKind.DOCUMENT,
            "runbooks/examples/fmt/SKILL.md": NodeKind.DOCUMENT,
        }


def test_kind_skills_reads_it_as_a_skills_repository_again(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _runbooks(tmp_path)
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    write_file(root, "fmt/SKILL.md", SKILL)
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    assert "read as documents, as the index holds this source" in capsys.readouterr().out
    assert main(["index", str(root), "--kind", "skills", "--index-dir", str(index_dir)]) == 0
    with Index.open(index_dir) as index:
        assert _kinds(index) == {"runbooks/fmt/SKILL.md": NodeKind.SKILL}


def test_a_skills_repository_and_another_name_are_not_held_as_documents(tmp_path: Path, index_dir: Path) -> None:
    skills = tmp_path / "skills"
    write_file(skills, "fmt/SKILL.md", SKILL)
    write_file(skills, "README.md", "# Readme\n\nAbout.\n")
    root = _runbooks(tmp_path)
    with Index.open(index_dir) as index:
        index_sources(index, [skills], calibrate=False)
        write_file(skills, "lint/SKILL.md", SKILL.replace("fmt", "lint"))
        run = index_sources(index, [skills], calibrate=False)
        assert run.sources[0].notes == [] and set(_kinds(index).values()) == {NodeKind.SKILL}
        # Held as documents under one name, the folder is still detected afresh under another.
        index_sources(index, [root], calibrate=False)
        write_file(root, "fmt/SKILL.md", SKILL)
        other = index_sources(index, [root], source_name="ops", calibrate=False)
        assert [n.kind for n in other.sources[0].nodes] == [NodeKind.SKILL]


def test_a_documents_folder_with_no_component_is_not_told_to_read_as_skills(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Indexed again as it was, a folder of runbooks got the note meant for one that gained
    # a SKILL.md, advising --kind skills, which then read nothing from it ("no items read").
    root = _runbooks(tmp_path)
    with Index.open(index_dir) as index:
        index_sources(index, [root], calibrate=False)
        again = index_sources(index, [root], calibrate=False)
        assert [p.message for p in again.sources[0].notes] == [READ_AS_DOCUMENTS]
        assert again.removed == {}
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    assert "--kind skills" not in capsys.readouterr().out


def test_a_documents_folder_that_gains_a_broken_skill_stays_documents(tmp_path: Path, index_dir: Path) -> None:
    root = _runbooks(tmp_path)
    with Index.open(index_dir) as index:
        index_sources(index, [root], calibrate=False)
        write_file(root, "fmt/SKILL.md", "---\nname: [unclosed\n---\nRun it.\n")
        again = index_sources(index, [root], calibrate=False)
        assert READ_AS_BEFORE in [p.message for p in again.sources[0].notes]
        assert _kinds(index)["runbooks/deploy.md"] is NodeKind.DOCUMENT
