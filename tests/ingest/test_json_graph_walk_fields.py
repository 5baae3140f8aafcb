"""A JSON graph as a user writes one (walkthrough): comma-separated tags and access labels,
a description as a list of texts, a node's ``type``, and the messages for a numeric id, an
empty file, a plural kind, an edge kind named as a skill names it, and a tool set's
folder given as a JSON graph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.cli import main
from skill_retriever.filters import Filters
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def _graph(tmp_path: Path, nodes: list[Any], edges: list[Any] | None = None, name: str = "graph.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"nodes": nodes, "edges": edges or []}), encoding="utf-8")
    return path


def test_tags_and_access_as_one_string_are_lists_and_filter(tmp_path: Path) -> None:
    path = _graph(tmp_path, [
        {"id": "a", "kind": "incident", "name": "checkout down", "text": "Checkout failed.",
         "tags": "payments, checkout", "access": "oncall,sre"},
        {"id": "b", "kind": "incident", "name": "blank access", "text": "Search failed.", "access": " "},
    ])
    result = ingest_json_graph(path)
    (node,) = result.nodes
    assert (node.tags, node.access) == (("payments", "checkout"), ("oncall", "sre"))
    # a blank access string is refused, never read as "public"
    (problem,) = result.problems
    assert "nodes[1] (id 'b')" in problem.message and "access labels must be non-blank" in problem.message
    ix = tmp_path / "ix"
    assert main(["index", str(path), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    with Index.open(ix) as index:
        found = Retriever(index).search("checkout", k=3, filters=Filters(tags=frozenset({"checkout"})), principals=["sre"])
        hidden = Retriever(index).search("checkout", k=3, principals=["guest"])
    assert [r.id for r in found.results] == ["a"]
    assert hidden.results == []


def test_a_description_list_is_joined_and_a_type_names_the_kind(tmp_path: Path) -> None:
    path = _graph(tmp_path, [
        {"id": "a", "type": "Skill", "name": "pdf", "description": ["Read PDFs.", " ", "Fill forms."]},
        {"id": "b", "type": "outage", "name": "down", "text": "t"},
        {"id": "c", "kind": "service", "type": "internal", "name": "api", "text": "t"},
    ])
    result = ingest_json_graph(path)
    a, c = result.nodes
    assert (a.kind, a.description, a.text) == (NodeKind.SKILL, "Read PDFs.\nFill forms.", "Read PDFs.\nFill forms.")
    assert "type" not in a.attrs
    assert (c.kind, c.attrs["type"]) == (NodeKind.SERVICE, "internal")  # a kind given: type is an attribute
    (problem,) = result.problems
    assert "missing field 'kind'; its \"type\" 'outage' is not a node kind; use one of: skill," in problem.message


def test_messages_name_what_is_wrong(tmp_path: Path) -> None:
    path = _graph(tmp_path, [
        {"id": 8, "kind": "skill", "name": "n", "text": "t"},
        {"id": "p", "kind": "skills", "name": "n", "text": "t"},
        {"id": "d", "kind": "skill", "name": "n", "text": "t", "description": {"en": "x"}},
        {"id": "ok", "kind": "skill", "name": "n", "text": "t"},
        {"id": "ok2", "kind": "skill", "name": "n", "text": "t"},
    ], [
        {"source": "ok", "target": "ok2", "kind": "requires"},
        {"source": "ok", "target": "ok2", "kind": "conflicts"},
        {"source": "ok", "target": "ok2", "kind": "depends-on"},
        {"source": "ok", "target": 3, "kind": "USES"},
    ])
    messages = [p.message for p in ingest_json_graph(path).problems]
    assert messages[0] == 'nodes[0] (id 8): node id 8 is invalid: an id is text, got a number (write it in quotes: "8")'
    assert "unknown node kind 'skills'" in messages[1] and messages[1].endswith("(did you mean 'skill'?)")
    assert messages[2] == "nodes[2] (id 'd'): description must be text, got an object"
    assert [m.rsplit(" (did you mean ", 1)[-1] for m in messages[3:6]] == ["'DEPENDS_ON'?)", "'CONFLICTS_WITH'?)", "'DEPENDS_ON'?)"]
    assert messages[6].endswith("edge target id 3 is invalid: an id is text, got a number (write it in quotes: \"3\")")


def test_an_empty_file_and_a_tool_folder_say_what_they_are(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\ufeff \n", encoding="utf-8")
    (problem,) = ingest_json_graph(empty).problems
    assert problem.message == "is empty: there is no JSON in it to read"
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "tools.jsonl").write_text('{"id": "t", "name": "t", "description": "d"}\n', encoding="utf-8")
    (problem,) = ingest_json_graph(tools).problems
    assert "it holds tools.jsonl: a tool set, indexed as the folder with --kind toolret" in problem.message


def test_a_top_level_list_says_what_it_looks_like(tmp_path: Path) -> None:
    cases = {
        "nodes.json": ([{"id": "a", "kind": "skill", "name": "a", "text": "t"}], 'a list of nodes: write it as {"nodes"'),
        "corpus.json": ([{"title": "a", "text": "t"}], "a list of passages"),
        "tools.json": ([{"id": "a", "name": "a", "description": "d"}], "a list of tools"),
    }
    for name, (data, hint) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(data), encoding="utf-8")
        (problem,) = ingest_json_graph(path).problems
        assert hint in problem.message, name


def test_a_key_meant_as_access_gets_a_note_that_the_node_is_public(tmp_path: Path) -> None:
    path = _graph(tmp_path, [
        {"id": "a", "kind": "incident", "name": "a", "text": "t", "visibility": ["oncall"]},
        {"id": "b", "kind": "incident", "name": "b", "text": "t", "Access": "sre"},
        {"id": "c", "kind": "incident", "name": "c", "text": "t", "access": None},
        {"id": "d", "kind": "incident", "name": "d", "text": "t", "access": ["sre"], "severity": "high"},
    ])
    result = ingest_json_graph(path)
    assert len(result.nodes) == 4 and not result.skips
    assert [n.message for n in result.notes] == [
        ("nodes[0] (id 'a'): key 'visibility' is not read (only 'access' gives access labels): the item is "
        "public (every caller sees it); write `access: [oncall]`"),
        ("nodes[1] (id 'b'): key 'Access' is not read (keys are case-sensitive): the item is public (every "
        "caller sees it); write `access: [sre]`"),
        ("nodes[2] (id 'c'): 'access' is empty: the item is public (every caller sees it); write "
        "`access: [label, ...]` to restrict it, or leave the key out"),
    ]
