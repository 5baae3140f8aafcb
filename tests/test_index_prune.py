"""Indexing a source again mirrors it: items whose file was deleted or renamed leave the
index; items the read could not see for another reason stay (`stale.stale_ids`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def skill(folder: Path, name: str, text: str = "") -> Path:
    path = folder / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {name} for tests\n---\n\n{text or name} body\n", encoding="utf-8")
    return path


def names(index: Index) -> set[str]:
    return {n.name for n in index.nodes.values()}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    for name in ("alpha", "beta", "gamma"):
        skill(folder, name)
    return folder


@pytest.fixture()
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


def test_a_deleted_or_renamed_file_leaves_the_index(repo: Path, index: Index) -> None:
    index_sources(index, [repo], calibrate=False)
    assert names(index) == {"alpha", "beta", "gamma"}
    (repo / "skills/alpha/SKILL.md").unlink()
    (repo / "skills/beta").rename(repo / "skills/beta2")
    run = index_sources(index, [repo], calibrate=False)
    assert names(index) == {"beta", "gamma"}  # beta again, from its new folder
    assert {n.source.split("skills/")[-1] for n in index.nodes.values()} == {"beta2/SKILL.md", "gamma/SKILL.md"}
    (removed,) = run.removed.values()
    assert sorted(i.split("skills/")[-1] for i in removed) == ["alpha/SKILL.md", "beta/SKILL.md"]
    assert run.to_dict()["nodes_removed"] == {str(repo): 2}


def test_what_the_read_could_not_see_stays(repo: Path, index: Index, tmp_path: Path) -> None:
    index_sources(index, [repo], calibrate=False)
    # written through the API: no provenance, never the source's to remove
    index.upsert([Node(id="api:note", kind="document", name="note", text="added by hand")])
    # unreadable today is not gone: the file is still there
    (repo / "skills/alpha/SKILL.md").write_bytes(b"\x00\xff\xfe binary junk \x00")
    run = index_sources(index, [repo], calibrate=False)
    assert any("alpha" in p.path for s in run.sources for p in s.problems)
    assert names(index) == {"alpha", "beta", "gamma", "note"} and not run.removed
    # prune=False keeps a deleted file's item too
    (repo / "skills/beta/SKILL.md").unlink()
    index_sources(index, [repo], calibrate=False, prune=False)
    assert "beta" in names(index)


def test_another_source_is_never_touched(repo: Path, index: Index, tmp_path: Path) -> None:
    other = tmp_path / "other"
    skill(other, "delta")
    index_sources(index, [repo, other], calibrate=False)
    (repo / "skills/alpha/SKILL.md").unlink()
    index_sources(index, [repo], calibrate=False)
    assert names(index) == {"beta", "gamma", "delta"}


def test_two_graph_files_in_one_folder_keep_each_others_items(tmp_path: Path, index: Index) -> None:
    folder = tmp_path / "graphs"
    folder.mkdir()

    def graph(name: str, ids: list[str]) -> Path:
        path = folder / name
        nodes = [{"id": i, "kind": "document", "name": i, "text": f"{i} text"} for i in ids]  # no source of their own
        path.write_text(json.dumps({"nodes": nodes}), encoding="utf-8")
        return path

    a, b = graph("a.json", ["a1", "a2"]), graph("b.json", ["b1"])
    index_sources(index, [a], calibrate=False)
    index_sources(index, [b], calibrate=False)  # same folder, same source name
    assert names(index) == {"a1", "a2", "b1"}
    graph("a.json", ["a1"])
    run = index_sources(index, [a], calibrate=False)
    assert names(index) == {"a1", "b1"} and run.removed == {str(a): ["a2"]}


def test_an_emptied_folder_removes_nothing_and_the_cli_says_so(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = str(tmp_path / "cli-ix")
    assert main(["index", str(repo), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    for name in ("alpha", "beta", "gamma"):
        (repo / "skills" / name / "SKILL.md").unlink()
    capsys.readouterr()
    assert main(["index", str(repo), "--index-dir", ix]) == 1
    err = capsys.readouterr().err
    assert f"no items read from {repo}" in err and "nothing of it was written or removed" in err
    assert main(["index", str(repo), "--index-dir", ix, "--json"]) == 1  # the reason is in the JSON too
    assert json.loads(capsys.readouterr().out)["error"].startswith(f"no items read from {repo}; nothing")
    with Index.open(Path(ix)) as index:
        assert names(index) == {"alpha", "beta", "gamma"}
    skill(repo, "alpha")
    assert main(["index", str(repo), "--index-dir", ix]) == 0
    assert "removed 2 item(s) the source no longer has" in capsys.readouterr().out


def test_keep_missing_keeps_a_deleted_files_item(repo: Path, tmp_path: Path) -> None:
    ix = str(tmp_path / "cli-ix")
    assert main(["index", str(repo), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    (repo / "skills/alpha/SKILL.md").unlink()
    assert main(["index", str(repo), "--index-dir", ix, "--keep-missing"]) == 0
    with Index.open(Path(ix)) as index:
        assert "alpha" in names(index)
    assert main(["index", str(repo), "--index-dir", ix]) == 0
    with Index.open(Path(ix)) as index:
        assert "alpha" not in names(index)


def test_a_relation_the_source_dropped_leaves_the_index(repo: Path, index: Index) -> None:
    """A `requires` taken out of a SKILL.md takes its DEPENDS_ON edge with it, so a query
    or an install no longer brings the dependency; the other relations stay."""
    path = repo / "skills/alpha/SKILL.md"
    path.write_text("---\nname: alpha\ndescription: alpha for tests\nrequires: [beta, gamma]\n---\n\nalpha body\n",
                    encoding="utf-8")
    index_sources(index, [repo], calibrate=False)

    def requires() -> set[str]:
        return {index.nodes[e.target].name for e in index.snapshot().edges.values()
                if index.nodes[e.source].name == "alpha" and e.kind.value == "DEPENDS_ON"}

    assert requires() == {"beta", "gamma"}
    path.write_text("---\nname: alpha\ndescription: alpha for tests\nrequires: [beta]\n---\n\nalpha body\n",
                    encoding="utf-8")
    run = index_sources(index, [repo], calibrate=False)
    assert requires() == {"beta"} and run.to_dict()["edges_removed"] == {str(repo): 1}
    # a file that cannot be read today keeps its relations
    path.write_bytes(b"\x00\xff binary now \x00")
    index_sources(index, [repo], calibrate=False)
    assert requires() == {"beta"}


def test_an_edge_taken_out_of_a_graph_file_leaves_the_index(tmp_path: Path, index: Index) -> None:
    path = tmp_path / "g" / "graph.json"
    path.parent.mkdir()
    nodes = [{"id": i, "kind": "document", "name": i, "text": f"{i} text"} for i in ("a", "b", "c")]

    def write(edges: list[tuple[str, str]]) -> None:
        path.write_text(json.dumps({"nodes": nodes, "edges": [
            {"source": s, "target": t, "kind": "RELATED_TO"} for s, t in edges]}), encoding="utf-8")

    write([("a", "b"), ("b", "c")])
    index_sources(index, [path], calibrate=False)
    write([("a", "b")])
    index_sources(index, [path], calibrate=False)
    assert sorted(index.snapshot().edges) == ["a|RELATED_TO|b"]


def test_the_cli_says_how_many_relations_it_removed(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo / "skills/alpha/SKILL.md"
    path.write_text("---\nname: alpha\ndescription: a\nrequires: [beta]\n---\n\nalpha\n", encoding="utf-8")
    ix = str(tmp_path / "cli-ix")
    assert main(["index", str(repo), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    path.write_text("---\nname: alpha\ndescription: a\n---\n\nalpha\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["index", str(repo), "--index-dir", ix]) == 0
    assert "removed 1 relation(s) its items no longer have" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # not strict YAML (': ' in a value), read whole by lenient reading: 229 davila7 agents
        ("description: Use this: for tests\nrequires: [beta, gamma]", "description: Use this: for tests"),
        # delta names nothing: a note on a file read whole, not a part left out
        ("description: alpha\nrequires: [beta, gamma, delta]", "description: alpha\nrequires: [beta, delta]"),
    ],
)
def test_a_note_on_a_file_read_whole_does_not_keep_a_dropped_relation(
    repo: Path, index: Index, before: str, after: str
) -> None:
    """A file with only notes was read whole: a relation taken out of it leaves the index.
    Any problem used to hold the file's relations, as if part of it had not been read."""
    path = repo / "skills/alpha/SKILL.md"
    path.write_text(f"---\nname: alpha\n{before}\n---\n\nalpha body\n", encoding="utf-8")
    index_sources(index, [repo], calibrate=False)

    def requires() -> set[str]:
        return {index.nodes[e.target].name for e in index.snapshot().edges.values()
                if index.nodes[e.source].name == "alpha" and e.kind.value == "DEPENDS_ON"}

    assert {"beta", "gamma"} <= requires()
    path.write_text(f"---\nname: alpha\n{after}\n---\n\nalpha body\n", encoding="utf-8")
    run = index_sources(index, [repo], calibrate=False)
    (source,) = run.sources
    assert source.problems and all(p.read_whole for p in source.problems), source.problems
    kept = {"beta"} if "requires" in after else set()
    assert requires() == kept
    assert run.to_dict()["edges_removed"] == {str(repo): 2 - len(kept)}


@pytest.mark.parametrize(("text", "why"), [
    ("[]", "(the file holds no items: a corpus.json lists passages"),  # no problem line: say why here
    ("{}", "(the lines above say why)"),  # an object is no corpus: its problem line says so
])
def test_a_corpus_that_reads_no_item_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str
) -> None:
    corpus = tmp_path / "set" / "corpus.json"
    corpus.parent.mkdir()
    corpus.write_text(text, encoding="utf-8")
    assert main(["index", str(corpus), "--index-dir", str(tmp_path / "ix"), "--embedder", "hashing-64"]) == 1
    out, err = capsys.readouterr()
    assert why in err
    assert ("0 problems" in out) == (text == "[]")
