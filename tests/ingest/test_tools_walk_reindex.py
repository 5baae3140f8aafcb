"""A tool set indexed again after an edit (user walkthrough): a line read and refused (a
repeated id, a self edge) no longer pins every tool the file held, and a line that is not
JSON says where in the line it broke; a file written as one JSON document, or empty, says so;
a tool's tags, access and dates are read as a JSON graph node's.

The index is created with the HashingEmbedder; nothing loads a model.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.filters import Filters
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.result import Unread
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _write(path: Path, rows: list[object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")


def _tool(i: int) -> dict[str, str]:
    return {"id": f"t{i}", "name": f"tool_{i}", "description": f"Does thing number {i}."}


def _held(index_dir: Path) -> tuple[set[str], set[str]]:
    with Index.open(index_dir) as index:
        snap = index.snapshot()
        return set(snap.nodes), set(snap.edges)


def test_a_removed_tool_leaves_though_the_file_repeats_an_id(tmp_path: Path) -> None:
    folder, ix = tmp_path / "tools", tmp_path / "ix"
    rows: list[object] = [_tool(i) for i in range(5)]
    _write(folder / "tools.jsonl", [*rows, {**_tool(1), "name": "again"}])
    _write(folder / "edges.jsonl", [{"source": "t0", "target": "t1"}, {"source": "t2", "target": "t3"},
                                    {"source": "t4", "target": "t4"}])
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [folder])
    assert _held(ix) == ({f"t{i}" for i in range(5)}, {"t0|RELATED_TO|t1", "t2|RELATED_TO|t3"})

    # t3 taken out, and the t0 -> t1 relation; the repeated id and the self edge stay
    _write(folder / "tools.jsonl", [*rows[:3], rows[4], {**_tool(1), "name": "again"}])
    _write(folder / "edges.jsonl", [{"source": "t4", "target": "t4"}])
    with Index.open(ix) as index:
        run = index_sources(index, [folder])
    problems = run.sources[0].problems
    assert [(p.message, p.keeps) for p in problems] == [
        ("line 5: duplicate tool id 't1'; the first one is kept: rename or remove one of them", Unread.NOTHING),
        ("line 1: self edge on 't4' dropped", Unread.NOTHING),
    ]
    assert _held(ix) == ({"t0", "t1", "t2", "t4"}, set())


def test_a_tool_line_that_names_its_id_keeps_only_that_tool(tmp_path: Path) -> None:
    folder, ix = tmp_path / "tools", tmp_path / "ix"
    _write(folder / "tools.jsonl", [_tool(i) for i in range(4)])
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [folder])
    # t1's description is now an object (unreadable: its indexed version stays); t2 removed
    _write(folder / "tools.jsonl", [_tool(0), {**_tool(1), "description": {"en": "x"}}, _tool(3)])
    with Index.open(ix) as index:
        run = index_sources(index, [folder])
    (problem,) = run.sources[0].problems
    assert (problem.keeps, problem.item) == (Unread.ITEM, "t1")
    assert _held(ix)[0] == {"t0", "t1", "t3"}


def test_a_line_that_is_not_json_says_the_column_of_its_own_line(tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    _write(folder / "tools.jsonl", [_tool(0), '{"id": "t1", "name": "cut short"', '{"id": "t2", "name": x}', _tool(3)])
    result = ingest_toolret(folder)
    assert [n.id for n in result.nodes] == ["t0", "t3"]
    assert [(p.message, p.keeps) for p in result.problems] == [
        ("line 2: not JSON at column 33: Expecting ',' delimiter (the line ends before its JSON does)", Unread.FILE),
        ("line 3: not JSON at column 22: Expecting value", Unread.FILE),
    ]


def test_a_tools_file_written_as_one_json_document_is_one_problem(tmp_path: Path) -> None:
    rows = [_tool(i) for i in range(3)]
    pretty, one_line, empty = tmp_path / "pretty", tmp_path / "line", tmp_path / "empty"
    for folder, text in ((pretty, json.dumps(rows, indent=2)), (one_line, json.dumps(rows)), (empty, "\n \n")):
        folder.mkdir()
        (folder / "tools.jsonl").write_text(text, encoding="utf-8")
    assert [p.message for p in ingest_toolret(pretty).problems] == [(
        "is one JSON list of 3 objects over several lines, not JSON Lines: write each object on a line of "
        "its own (`jq -c '.[]' tools.jsonl` prints them so)")]
    assert [p.message for p in ingest_toolret(one_line).problems] == [
        "line 1: not a JSON object (it is a list): a list of 3 objects on one line; write each on a line of its own"]
    (problem,) = ingest_toolret(empty).problems
    assert problem.message.startswith("holds no tool (it is empty); a tool set is a folder holding tools.jsonl")


def test_a_hand_written_json_list_reads_none_of_its_lines(tmp_path: Path) -> None:
    """``[``, one object a line, ``]``: its last object parses on its own line, which read that
    one tool alone (the others' lines ending in commas) with three "not JSON" problems."""
    folder = tmp_path / "tools"
    _write(folder / "tools.jsonl", ["[", json.dumps(_tool(0)) + ",", json.dumps(_tool(1)), "]"])
    result = ingest_toolret(folder)
    assert result.nodes == [] and [p.message for p in result.problems] == [(
        "is one JSON list of 2 objects over several lines, not JSON Lines: write each object on a line of "
        "its own (`jq -c '.[]' tools.jsonl` prints them so)")]


def test_index_of_an_empty_tool_set_points_at_its_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "tools.jsonl").write_text("", encoding="utf-8")
    assert main(["index", str(folder), "--index-dir", str(tmp_path / "ix"), "--embedder", "hashing-64"]) == 1
    err = capsys.readouterr().err
    assert "nothing of it was written or removed (the lines above say why)" in err
    assert "SKILL.md" not in err  # a tool folder is the right kind of folder


def test_tags_access_and_dates_of_a_tool_are_read_as_a_json_graph_node_s(tmp_path: Path) -> None:
    """Left in attrs, ``access`` made a tool meant for admins public."""
    folder, ix = tmp_path / "tools", tmp_path / "ix"
    _write(folder / "tools.jsonl", [
        {**_tool(0), "description": "Drop a database table.", "access": ["admin"], "tags": "db, danger",
         "created": "2026-11-01T12:00:00Z"},
        {**_tool(1), "description": "List database tables.", "category": "db"},
        {**_tool(2), "access": ""},  # blank: refused, never read as "public"
    ])
    result = ingest_toolret(folder)
    first = result.nodes[0]
    assert (first.access, first.tags, first.created is not None) == (("admin",), ("db", "danger"), True)
    assert not {"access", "tags", "created"} & set(first.attrs)
    (problem,) = result.problems
    assert problem.message.startswith("line 3: node 't2': access labels must be non-blank") and problem.item == "t2"
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [folder])
        search = Retriever(index).search
        assert [r.id for r in search("database table", k=5, principals=["guest"]).results] == ["t1"]
        assert {r.id for r in search("database table", k=5, principals=["admin"]).results} == {"t0", "t1"}
        dated = search("database table", k=5, principals=["admin"], filters=Filters(since=datetime(2026, 10, 1, tzinfo=UTC)))
        assert [r.id for r in dated.results] == ["t0"]


def test_a_tool_key_meant_as_access_gets_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "tools"
    _write(folder / "tools.jsonl", [_tool(0), {**_tool(1), "visibility": "admin"}])
    (note,) = ingest_toolret(folder).notes
    assert note.message.startswith("line 2: key 'visibility' is not read (only 'access' gives access labels)")
