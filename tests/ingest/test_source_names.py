"""Ids never collide across repositories: source names, source roots, and the refusals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources, ingest, write_result
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _repo(root: Path, skill: str) -> Path:
    path = root / "skills" / skill / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {skill}\ndescription: Does {skill}.\n---\nUse {skill}.\n")
    return root


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    yield opened
    opened.close()


def test_every_node_records_its_source(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "a" / "team-skills", "lint")
    (node,) = ingest(repo).nodes
    assert node.attrs["source_root"] == str(repo.resolve())
    assert node.attrs["source_name"] == "team-skills"
    assert node.id == "team-skills/skills/lint/SKILL.md"
    (named,) = ingest(repo, source_name="acme").nodes
    assert named.id == "acme/skills/lint/SKILL.md" and named.attrs["source_name"] == "acme"


def test_same_folder_name_from_another_root_is_refused(tmp_path: Path, index: Index) -> None:
    first = _repo(tmp_path / "a" / "skills-repo", "lint")
    second = _repo(tmp_path / "b" / "skills-repo", "format")
    index_sources(index, [first])
    before = dict(index.nodes)
    with pytest.raises(IngestError, match="--source-name") as refused:
        index_sources(index, [second])
    assert "\n" not in str(refused.value) and str(first.resolve()) in str(refused.value)
    assert dict(index.nodes) == before  # nothing of the second repository was written
    index_sources(index, [second], source_name="skills-repo-b")
    assert set(index.nodes) == {
        "skills-repo/skills/lint/SKILL.md",
        "skills-repo-b/skills/format/SKILL.md",
    }


def test_reindexing_the_same_root_embeds_nothing(tmp_path: Path, index: Index) -> None:
    repo = _repo(tmp_path / "repo", "lint")
    assert index_sources(index, [repo]).embedded == 1
    again = index_sources(index, [repo])
    assert again.embedded == 0 and again.writes[0].nodes_unchanged == 1


def test_nodes_without_a_recorded_root_are_migrated(tmp_path: Path, index: Index) -> None:
    repo = _repo(tmp_path / "repo", "lint")
    old = ingest(repo)
    old.nodes = [  # as an index built before source roots were recorded holds them
        n.with_changes(attrs={k: v for k, v in n.attrs.items() if not k.startswith("source_")})
        for n in old.nodes
    ]
    write_result(index, old)
    assert "source_root" not in next(iter(index.nodes.values())).attrs
    run = index_sources(index, [repo])
    assert run.embedded == 0  # only the attributes changed
    (node,) = index.nodes.values()
    assert node.attrs["source_root"] == str(repo.resolve())


def test_one_name_for_two_roots_in_one_run_is_refused(tmp_path: Path, index: Index) -> None:
    a = _repo(tmp_path / "a" / "same", "lint")
    b = _repo(tmp_path / "b" / "same", "format")
    with pytest.raises(IngestError, match="one at a time"):
        index_sources(index, [a, b])
    with pytest.raises(IngestError, match="one source"):
        index_sources(index, [a, _repo(tmp_path / "c", "x")], source_name="both")
    assert len(index.nodes) == 0


@pytest.mark.parametrize("name", ["", "  ", "a/b", "tab\there"])
def test_unusable_source_names_are_refused(tmp_path: Path, index: Index, name: str) -> None:
    with pytest.raises(IngestError, match="source name"):
        index_sources(index, [_repo(tmp_path / "repo", "lint")], source_name=name)


def test_ids_a_graph_brings_are_not_taken_from_another_folder(tmp_path: Path, index: Index) -> None:
    doc = {"nodes": [{"id": "runbook-1", "kind": "document", "name": "Runbook", "text": "Steps."}]}
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "graph.json").write_text(json.dumps(doc))
    index_sources(index, [tmp_path / "a" / "graph.json"])
    with pytest.raises(IngestError, match="runbook-1"):
        index_sources(index, [tmp_path / "b" / "graph.json"], source_name="other")
    assert index.nodes["runbook-1"].attrs["source_root"] == str((tmp_path / "a").resolve())
    index_sources(index, [tmp_path / "a" / "graph.json"])  # the same file again is fine


@pytest.mark.parametrize("name", [".", "..", "a/../b", "", "  ", "a/b", "a\\b", " docs", "docs "])
def test_a_source_name_that_is_not_one_plain_path_segment_is_refused(tmp_path: Path, index: Index, name: str) -> None:
    """``--source-name ..`` was taken and made ids like ``../a.md``: a name is the first
    segment of its items' ids, so it must be one plain segment."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nAlpha.\n", encoding="utf-8")
    with pytest.raises(IngestError) as refused:
        index_sources(index, [docs], kind="docs", source_name=name)
    message = str(refused.value)
    assert f"source name {name!r}" in message and "one path segment" in message and "--source-name" in message
    assert len(index) == 0
    index_sources(index, [docs], kind="docs", source_name="team.docs-v2")  # dots inside a name are fine
    assert set(index.nodes) == {"team.docs-v2/a.md"}
