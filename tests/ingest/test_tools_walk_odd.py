"""Odd tool data in tools.jsonl (user walkthrough): list descriptions, the description a
result shows, and tools that share a name."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.cli import main
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.stores.index import Index


def _tools(folder: Path, rows: list[dict[str, object]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tools.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_list_descriptions_are_joined_and_other_shapes_refused(tmp_path: Path) -> None:
    folder = _tools(tmp_path / "t", [
        {"id": "listed", "name": "listed", "description": ["Look up a word.", " ", "Returns its senses."]},
        {"id": "mixed", "name": "mixed", "description": ["a", 1]},
        {"id": "obj", "name": "obj", "description": {"en": "hello"}},
        {"id": "num", "name": "num", "description": 7},
        {"id": "null", "name": "null", "description": None},
    ])
    result = ingest_toolret(folder)
    nodes = {n.id: n for n in result.nodes}
    assert list(nodes) == ["listed", "null"]
    assert nodes["listed"].text == "Look up a word.\nReturns its senses."
    assert (nodes["null"].text, nodes["null"].description) == ("null", "")
    assert [p.message for p in result.problems] == [
        f'line {n}: "description" must be text or a list of texts, got {what}'
        for n, what in ((2, "a list"), (3, "an object"), (4, "a number"))
    ]


def test_a_tools_description_is_its_text_not_read_twice(tmp_path: Path, index_dir: Path) -> None:
    """The embedded text starts with the name and ``Node.description``: a description there
    too would be read twice, which lowered the tool sets' figures (see `ingest.toolret`)."""
    folder = _tools(tmp_path / "t", [{"id": "TripTool", "name": "trip", "description": "Plan a trip.\nBooks flights."}])
    assert main(["index", str(folder), "--index-dir", str(index_dir)]) == 0
    with Index.open(index_dir) as index:
        trip = index.get("TripTool")
    assert trip is not None and trip.description == ""
    assert trip.embedding_text().count("Plan a trip.") == 1


def test_tools_sharing_a_name_get_one_note(tmp_path: Path) -> None:
    folder = _tools(tmp_path / "t", [
        {"id": "samename_a", "name": "lookup", "description": "Look up a word in the dictionary"},
        {"id": "samename_b", "name": "Lookup", "description": "Look up a phone number"},
        {"id": "s1", "name": "search", "description": "x"},
        {"id": "s2", "name": "search", "description": "y"},
        {"id": "s3", "name": "search", "description": "z"},
        # told apart by their tool (StableToolBench) or their method and path (REST): no note
        {"id": "A::get", "name": "get", "description": "x", "tool_name": "A", "category": "c"},
        {"id": "B::get", "name": "get", "description": "x", "tool_name": "B", "category": "c"},
        {"id": "GET /a", "name": "Get Details", "description": "x", "method": "GET", "path": "/a"},
        {"id": "GET /b", "name": "Get Details", "description": "x", "method": "GET", "path": "/b"},
    ])
    result = ingest_toolret(folder)
    assert len(result.nodes) == 9 and result.skips == []
    (note,) = result.notes
    assert note.path == str((folder / "tools.jsonl").absolute())
    assert note.message == (
        "2 tool name(s) shared by tools of different ids: 'lookup' (samename_a, samename_b); "
        "'search' (s1, s2, s3); all are indexed, but a model choosing by name cannot tell them apart: "
        "give each its own name")
