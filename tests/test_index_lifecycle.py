"""A skills repository kept in step by indexing it again (walkthrough of real changes):

- an emptied SKILL.md, or one turned into a folder, leaves with its relations (they were
  kept as if unreadable, for good);
- a relation to an item kept because its file cannot be read today stays (it was cut, the
  name resolving among what was read only);
- with prune off (``--keep-missing``), a relation a file read today no longer states goes
  all the same (only items of files gone are kept);
- a problem that keeps a file's earlier items says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.indexing import index_sources
from skill_retriever.model import EdgeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def skill(repo: Path, name: str, requires: str = "") -> Path:
    path = repo / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    needs = f"requires: [{requires}]\n" if requires else ""
    path.write_text(f"---\nname: {name}\ndescription: {name} for tests\n{needs}---\n\n{name} body\n", encoding="utf-8")
    return path


def depends(index: Index) -> set[tuple[str, str]]:
    nodes = index.snapshot().nodes
    return {(nodes[e.source].name, nodes[e.target].name)
            for e in index.snapshot().edges.values() if e.kind is EdgeKind.DEPENDS_ON}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    skill(folder, "api", requires="resilience")
    skill(folder, "resilience")
    skill(folder, "other")
    return folder


@pytest.fixture()
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


def names(index: Index) -> set[str]:
    return {n.name for n in index.snapshot().nodes.values()}


def test_an_emptied_skill_or_one_turned_into_a_folder_leaves(repo: Path, index: Index) -> None:
    index_sources(index, [repo], calibrate=False)
    (repo / "skills/resilience/SKILL.md").write_text("")
    other = repo / "skills/other/SKILL.md"
    other.unlink()
    other.mkdir()
    run = index_sources(index, [repo], calibrate=False)
    assert names(index) == {"api"} and depends(index) == set()
    (problems,) = [s.problems for s in run.sources]
    assert any("nothing to index" in p.message for p in problems)


def test_a_relation_to_an_item_kept_as_unreadable_stays(repo: Path, index: Index) -> None:
    index_sources(index, [repo], calibrate=False)
    assert depends(index) == {("api", "resilience")}
    (repo / "skills/resilience/SKILL.md").write_bytes(b"\x00binary today\x00")  # read fails: kept
    run = index_sources(index, [repo], calibrate=False)
    assert names(index) == {"api", "resilience", "other"} and depends(index) == {("api", "resilience")}
    assert not run.edges_removed
    lines = run.sources[0].problem_lines()
    assert any("binary file" in line and "(what was indexed from it before, if anything, stays)" in line for line in lines)
    skill(repo, "resilience")  # readable again: as before
    index_sources(index, [repo], calibrate=False)
    assert depends(index) == {("api", "resilience")}
    skill(repo, "api")  # the requires taken out: the relation goes
    index_sources(index, [repo], calibrate=False)
    assert depends(index) == set()


def test_keep_missing_keeps_items_of_files_gone_not_relations_taken_out(repo: Path, index: Index) -> None:
    index_sources(index, [repo], calibrate=False)
    skill(repo, "api")  # its requires taken out
    (repo / "skills/other/SKILL.md").unlink()
    index_sources(index, [repo], calibrate=False, prune=False)
    assert names(index) == {"api", "resilience", "other"}  # other's file is gone: kept
    assert depends(index) == set()


def test_a_requires_that_two_components_answer_to_is_noted(repo: Path, index: Index) -> None:
    """A second skill named like the one required moved the relation without a word when
    it came first by path."""
    twin = skill(repo, "aaa-twin")
    twin.write_text(twin.read_text().replace("name: aaa-twin", "name: resilience"))
    run = index_sources(index, [repo], calibrate=False)
    notes = [p.message for p in run.sources[0].notes if "components are named" in p.message]
    assert notes == [(
        "requires 'resilience', which 2 components are named: the relation goes to "
        "skills/aaa-twin/SKILL.md, the first by path (also skills/resilience/SKILL.md); rename one to choose"
    )]
