"""JSON graph files as sources: several files in one folder are one source, yet each
file's items and relations are its own (`indexing.index_sources`, `ingest.provenance`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def node(node_id: str, **more: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": "document", "name": node_id.upper(), "text": f"{node_id} text", **more}


def graph(path: Path, nodes: list[dict[str, Any]], relations: Sequence[tuple[str, str]] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"nodes": nodes, "edges": [
        {"source": s, "target": t, "kind": "RELATED_TO"} for s, t in relations]}), encoding="utf-8")
    return path


def edges(index: Index) -> list[str]:
    return sorted(index.snapshot().edges)


@pytest.fixture()
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


@pytest.mark.parametrize("one_run", [False, True])
def test_an_id_held_by_another_file_of_the_folder_is_refused(tmp_path: Path, index: Index, one_run: bool) -> None:
    a = graph(tmp_path / "data/a.json", [node("shared", name="From A"), node("a2")])
    b = graph(tmp_path / "data/b.json", [node("shared", name="From B"), node("b2")])
    if not one_run:
        index_sources(index, [a], calibrate=False)
    with pytest.raises(IngestError) as caught:
        index_sources(index, [b] if not one_run else [a, b], calibrate=False)
    message = str(caught.value)
    assert "'shared'" in message and str(a.resolve()) in message and str(b.resolve()) in message
    assert index.nodes["shared"].name == "From A" and "b2" not in index.nodes  # nothing of b
    # re-indexing a file keeps its own ids; once a.json is gone, its id may move to b.json
    index_sources(index, [a], calibrate=False)
    a.unlink()
    run = index_sources(index, [b], calibrate=False)
    assert index.nodes["shared"].name == "From B"
    assert set(index.nodes) == {"shared", "b2"} and run.removed == {str(b): ["a2"]}


def test_the_cli_names_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = graph(tmp_path / "data/a.json", [node("shared")])
    b = graph(tmp_path / "data/b.json", [node("shared")])
    ix = str(tmp_path / "cli-ix")
    assert main(["index", str(a), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    capsys.readouterr()
    assert main(["index", str(b), "--index-dir", ix]) != 0
    err = capsys.readouterr().err
    assert "node id 'shared'" in err and str(a.resolve()) in err and str(b.resolve()) in err


def test_an_edge_may_end_at_a_node_of_another_file(tmp_path: Path, index: Index) -> None:
    g = graph(tmp_path / "d/graph.json", [node("g1"), node("g2")])
    index_sources(index, [g], calibrate=False)
    other = graph(tmp_path / "d/other.json", [node("x")], [("x", "g1"), ("x", "ghost"), ("g2", "x")])
    run = index_sources(index, [other], calibrate=False)
    assert edges(index) == ["x|RELATED_TO|g1"]
    problems = [p.message for p in run.sources[0].problems]
    assert any("node 'ghost' does not exist" in m for m in problems), problems
    assert any("node 'g2' is not in this file" in m for m in problems), problems  # whose file owns it?
    # the edge is other.json's: graph.json indexed again keeps it, other.json without it drops it
    index_sources(index, [g], calibrate=False)
    assert edges(index) == ["x|RELATED_TO|g1"]
    graph(other, [node("x")], [("x", "g2")])
    run = index_sources(index, [other], calibrate=False)
    assert edges(index) == ["x|RELATED_TO|g2"] and run.edges_removed == {str(other): 1}
    # a node its own file no longer holds is no end for an edge of that file
    graph(other, [node("x"), node("y")], [("x", "y")])
    index_sources(index, [other], calibrate=False)
    graph(other, [node("x")], [("x", "y")])
    run = index_sources(index, [other], calibrate=False)
    assert any("node 'y' does not exist" in p.message for p in run.sources[0].problems)


def test_a_node_with_a_source_of_its_own_is_pruned_by_its_file(tmp_path: Path, index: Index) -> None:
    url = "https://example.com/u"
    g = graph(tmp_path / "d/g.json", [node("u1", source=f"{url}1"), node("u2", source=f"{url}2")], [("u1", "u2")])
    index_sources(index, [g], calibrate=False)
    graph(g, [node("u1", source=f"{url}1")])
    run = index_sources(index, [g], calibrate=False)
    assert set(index.nodes) == {"u1"} and run.removed == {str(g): ["u2"]}
    assert index.nodes["u1"].source == f"{url}1"  # as the user gave it
    # a file with an entry it cannot tell apart (a bad node naming no id) keeps its items
    # and relations, whatever their source says
    graph(g, [node("u1", source=f"{url}1"), node("u3", source=f"{url}3")], [("u1", "u3")])
    index_sources(index, [g], calibrate=False)
    graph(g, [node("u1", source=f"{url}1"), {"kind": "spaceship", "name": "no id"}])
    run = index_sources(index, [g], calibrate=False)
    assert set(index.nodes) == {"u1", "u3"} and edges(index) == ["u1|RELATED_TO|u3"] and not run.removed


def test_an_unchanged_file_embeds_nothing_and_a_removed_node_leaves(tmp_path: Path, index: Index) -> None:
    g = graph(tmp_path / "d/g.json", [node("n1"), node("n2")], [("n1", "n2")])
    index_sources(index, [g], calibrate=False)
    assert index_sources(index, [g], calibrate=False).embedded == 0
    graph(g, [node("n1")])
    run = index_sources(index, [g], calibrate=False)
    assert set(index.nodes) == {"n1"} and edges(index) == [] and run.removed == {str(g): ["n2"]}


def test_a_node_whose_id_is_a_number_keeps_no_other_node_that_left_the_file(tmp_path: Path, index: Index) -> None:
    # Its id is refused (text only), but it names which item it is: the file's other gone
    # items go, as for any node refused with its id (before, all stayed, unsaid: seen in QA).
    g = graph(tmp_path / "d/g.json", [node("svc-a"), node("dep-1"), {**node("x"), "id": 42}])
    index_sources(index, [g], calibrate=False)
    graph(g, [node("svc-a"), {**node("x"), "id": 42}])
    run = index_sources(index, [g], calibrate=False)
    assert set(index.nodes) == {"svc-a"} and run.removed == {str(g): ["dep-1"]}
    problems = [p for s in run.sources for p in s.problems]
    assert any("node id 42 is invalid" in p.message and p.item == "42" for p in problems), problems
    graph(g, [node("svc-a"), {k: v for k, v in node("x").items() if k != "id"}])  # no id: which it is cannot be told
    index_sources(index, [g], calibrate=False)
    graph(g, [{k: v for k, v in node("x").items() if k != "id"}])
    index_sources(index, [g], calibrate=False)
    assert set(index.nodes) == {"svc-a"}
