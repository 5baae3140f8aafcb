"""ingest_json_graph: good items kept, every bad item one problem naming item and file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.model import EdgeKind, NodeKind

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _node(id: str, kind: str = "document", text: str = "some text", **more: Any) -> dict[str, Any]:
    return {"id": id, "kind": kind, "name": id.title(), "text": text, **more}


def _write(tmp_path: Path, data: Any, name: str = "graph.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_good_graph_round_trips(tmp_path: Path) -> None:
    nodes = [
        _node("svc-a", "service", "Payment API", tags=["payments"], owner="team-x"),
        _node("inc-1", "incident", "Checkout 500s", created="2026-11-01T12:00:00Z"),
        _node("doc-1", text="Runbook for the payment API"),
    ]
    edges = [
        {"source": "inc-1", "target": "svc-a", "kind": "AFFECTS"},
        {"source": "doc-1", "target": "svc-a", "type": "related_to", "weight": 0.5},
    ]
    result = ingest_json_graph(_write(tmp_path, {"nodes": nodes, "edges": edges}))
    assert result.problems == []
    assert [n.id for n in result.nodes] == ["svc-a", "inc-1", "doc-1"]
    assert result.nodes[0].kind is NodeKind.SERVICE
    assert result.nodes[0].attrs == {  # unknown keys go to attrs; provenance is recorded
        "owner": "team-x",
        "source_root": str(tmp_path.resolve()),
        "source_name": tmp_path.name,
        "source_file": str((tmp_path / "graph.json").resolve()),
    }
    assert result.nodes[1].created is not None and result.nodes[1].created.year == 2026
    assert [(e.kind, e.weight) for e in result.edges] == [
        (EdgeKind.AFFECTS, 1.0), (EdgeKind.RELATED_TO, 0.5)
    ]
    assert result.seconds >= 0


def test_bad_items_become_problems_and_good_items_stay(tmp_path: Path) -> None:
    nodes = [
        _node("ok-1"),
        _node("bad-kind", kind="spaceship"),
        _node("empty", text="   "),
        _node("bad-time", updated="last tuesday"),
        _node("ok-1", text="a second node with the first id"),
        {"kind": "document", "name": "no id", "text": "x"},
        "not an object",
        _node("ok-2"),
    ]
    edges = [
        {"source": "ok-1", "target": "ok-2", "kind": "DEPENDS_ON"},
        {"source": "ok-1", "target": "ghost", "kind": "USES"},
        {"source": "ok-2", "target": "bad-kind", "kind": "USES"},  # to a rejected node
        {"source": "ok-2", "target": "ok-2", "kind": "USES"},
        {"source": "ok-1", "target": "ok-2", "kind": "DEPENDS_ON"},  # repeated
        {"source": "ok-2", "target": "ok-1", "kind": "LIKES"},
        {"source": "ok-2", "target": "ok-1", "kind": "USES", "weight": -1},
        {"source": "ok-2"},
    ]
    path = _write(tmp_path, {"nodes": nodes, "edges": edges})
    result = ingest_json_graph(path)
    # a bad time costs that time, not the node (tests/ingest/test_json_graph_bad_times.py)
    assert [n.id for n in result.nodes] == ["ok-1", "bad-time", "ok-2"]
    assert [(e.source, e.target) for e in result.edges] == [("ok-1", "ok-2")]
    assert all(p.path == str(path) for p in result.problems)
    messages = [p.message for p in result.problems]
    assert len(messages) == 6 + 7
    for fragment in [
        "nodes[1] (id 'bad-kind'): unknown node kind 'spaceship'",
        "nodes[2] (id 'empty')", "text is empty",
        "nodes[3] (id 'bad-time')", "not ISO-8601",
        "nodes[4] (id 'ok-1'): duplicate node id 'ok-1'",
        "nodes[5]: node without an id",
        "nodes[6]: a node must be a JSON object",
        "edges[1] (source 'ok-1', target 'ghost'): node 'ghost' does not exist",
        "edges[2] (source 'ok-2', target 'bad-kind'): node 'bad-kind' does not exist",
        "edges[3] (source 'ok-2', target 'ok-2'): self edge",
        "edges[4] (source 'ok-1', target 'ok-2'): repeats edge",
        "unknown edge kind 'LIKES'",
        "weight must be a positive finite number",
        "edges[7] (source 'ok-2'): edge missing field 'target'",
    ]:
        assert any(fragment in m for m in messages), (fragment, messages)


def test_edges_may_point_at_known_ids(tmp_path: Path) -> None:
    path = _write(tmp_path, {"nodes": [_node("new")],
                             "edges": [{"source": "new", "target": "old", "kind": "ENHANCES"}]})
    assert ingest_json_graph(path).edges == []
    result = ingest_json_graph(path, known_ids={"old"})
    assert [e.target for e in result.edges] == ["old"] and result.problems == []


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"nodes": [', "not valid JSON"),
        ("", "is empty: there is no JSON in it"),
        ("[1, 2]", "got a list"),
        ('{"edges": []}', '"nodes" is missing'),
        ('{"nodes": {"a": 1}}', '"nodes" is missing or not a list'),
        ('{"nodes": [], "edges": 3}', '"edges" is not a list'),
        ("[" * 100_000, "JSON"),
    ],
)
def test_unreadable_file_is_one_problem(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    result = ingest_json_graph(path)
    assert result.nodes == [] and result.edges == []
    assert len(result.problems) == 1 and fragment in result.problems[0].message
    assert result.problems[0].path == str(path)


def test_not_utf8_and_oversized_files(tmp_path: Path) -> None:
    latin = tmp_path / "latin1.json"
    latin.write_bytes('{"nodes": [{"id": "café"}]}'.encode("latin-1"))
    assert "not UTF-8" in ingest_json_graph(latin).problems[0].message
    big = _write(tmp_path, {"nodes": [_node("a")]})
    result = ingest_json_graph(big, max_bytes=10)
    assert result.nodes == [] and "over the limit of 10" in result.problems[0].message


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        ingest_json_graph(tmp_path / "nope.json")
    folder = ingest_json_graph(tmp_path)  # a problem of that path: the run goes on
    assert folder.nodes == [] and folder.problems[0].message.startswith("is a folder, not a file: pass the file's path")
    _write(tmp_path, {"nodes": [_node("a")]})  # a folder holding a graph: it is named
    (held,) = [p.name for p in tmp_path.glob("*.json")]
    said = ingest_json_graph(tmp_path).problems[0].message
    assert said.startswith(f"is a folder, not a file: pass the file's path (it holds {held})")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "kind", "name", "text", "source", "target", "weight", "x"]),
        inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nodes=st.lists(_json, max_size=5), edges=_json)
def test_arbitrary_json_never_crashes(tmp_path: Path, nodes: list[Any], edges: Any) -> None:
    path = _write(tmp_path, {"nodes": nodes, "edges": edges})
    result = ingest_json_graph(path)
    if edges is not None and not isinstance(edges, list):
        assert len(result.problems) == 1 and not result.nodes
        return
    # Every item is either kept or reported, exactly once.
    node_problems = [p for p in result.problems if p.message.startswith("nodes[")]
    edge_problems = [p for p in result.problems if p.message.startswith("edges[")]
    assert len(result.nodes) + len(node_problems) == len(nodes)
    assert len(result.edges) + len(edge_problems) == len(edges or [])


@pytest.mark.skipif(not (DATA / "toolret" / "traject-bench").is_dir(), reason="shared data absent")
def test_real_tool_graph_round_trips_through_json(tmp_path: Path) -> None:
    original = ingest_toolret(DATA / "toolret" / "traject-bench")
    path = _write(tmp_path, {"nodes": [n.to_dict() for n in original.nodes],
                             "edges": [e.to_dict() for e in original.edges]})
    result = ingest_json_graph(path, source_name="copy")
    assert result.problems == []
    # The copy records where it was read from; everything else is as written.
    assert {n.attrs["source_root"] for n in result.nodes} == {str(tmp_path.resolve())}
    assert {n.attrs["source_name"] for n in result.nodes} == {"copy"}
    moved = {"source_root": str(tmp_path.resolve()), "source_name": "copy",
             "source_file": str(path.resolve())}
    assert result.nodes == [n.with_changes(attrs={**n.attrs, **moved}) for n in original.nodes]
    assert result.edges == original.edges


def test_a_passage_list_read_as_a_graph_says_to_index_it_as_passages(tmp_path: Path) -> None:
    passages = [{"idx": 0, "title": "Alpha", "text": "Alpha is a letter."}]
    (problem,) = ingest_json_graph(_write(tmp_path, passages)).problems
    assert "got a list; a list of passages ({title, text}) is a corpus: index it with --kind passages" in problem.message
    (other,) = ingest_json_graph(_write(tmp_path, [1, 2])).problems
    assert "--kind passages" not in other.message  # a list of something else: no such hint


def test_a_field_of_the_wrong_type_is_named_as_such(tmp_path: Path) -> None:
    """A number for a name read "name is empty", a list for a text "text is empty", and a
    list for attrs gave Python's own words ("cannot convert dictionary update sequence
    element #0 to a sequence"; found in a walkthrough)."""
    path = _write(tmp_path, {"nodes": [
        {**_node("a"), "name": 12345}, _node("b", text=["a", "list"]), _node("c", attrs=[1, 2]), _node("d", name=" ")]})
    messages = [p.message for p in ingest_json_graph(path).problems]
    assert messages == [
        "nodes[0] (id 'a'): name must be text, got a number; give every node a name",
        "nodes[1] (id 'b'): text must be text, got a list; a node needs text to embed and index",
        "nodes[2] (id 'c'): attrs must be an object, got a list",
        "nodes[3] (id 'd'): name is empty; give every node a name",
    ]


def test_a_problem_names_its_item_once(tmp_path: Path) -> None:
    """"nodes[2] (id 'inc:2'): node 'inc:2': ..." said the id twice; an edge's ends too."""
    path = _write(tmp_path, {"nodes": [_node("ok-1"), _node("ok-2"), _node("inc:2", created="soon"),
                                       _node("t", tags=[1]), _node("x" * 100, kind="spaceship")],
                             "edges": [{"source": "ok-1", "target": "ok-2", "kind": "USES", "weight": -1}]})
    messages = [p.message for p in ingest_json_graph(path).problems]
    assert messages[:3] == [
        ("nodes[2] (id 'inc:2'): 'created': timestamp 'soon' is not ISO-8601 (e.g. 2026-11-01T12:00:00Z); "
         "the node is indexed without it"),
        "nodes[3] (id 't'): tags must be a list of strings, got [1]",
        # an id the label cuts short is said whole after it
        f"nodes[4] (id {'x' * 100!r:.80}): node {'x' * 100!r}: unknown node kind 'spaceship'; use one of: "
        + ", ".join(k.value for k in NodeKind),
    ]
    assert messages[3] == "edges[0] (source 'ok-1', target 'ok-2'): weight must be a positive finite number, got -1.0"


def test_a_node_without_an_id_is_quoted_as_written_and_its_id_like_key_named(tmp_path: Path) -> None:
    """An incident export keyed by ``incident_number`` (or ``ID``): the problem quoted the
    node with ``created_at`` already renamed ``created``, which the file does not say, and
    gave no clue which of its keys was meant as the id."""
    path = _write(tmp_path, {"nodes": [
        {"incident_number": 7, "kind": "incident", "name": "db down", "text": "DB down.", "created_at": "2026-12-01"},
        {"ID": "INC-9", "kind": "incident", "name": "api down", "text": "API down."},
        {"kind": "incident", "name": "nothing like an id", "text": "x"},
    ]})
    first, second, third = (p.message for p in ingest_json_graph(path).problems)
    assert '"created_at": "2026-12-01"' in first and '"created"' not in first
    assert first.endswith("""; it gives 'incident_number': is that its id? write it as "id\"""")
    assert second.endswith("""; it gives 'ID': is that its id? write it as "id\"""")
    assert third.startswith("nodes[2]: node without an id: {") and "is that its id" not in third
