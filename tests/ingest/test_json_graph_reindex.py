"""Re-indexing a JSON graph file one of whose entries cannot be read.

The file was parsed, so it is authoritative for what it states: a node or edge taken out
of it goes. Only an entry it holds but cannot read keeps its earlier version: a node that
names its id (and the edges touching it), or, when a bad node names no id (which stored
item it was cannot be told), the whole file's. Before, any problem in the file kept every
item it ever held, so nothing removed from it while one entry was bad ever went.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def node(node_id: str, text: str = "") -> dict[str, Any]:
    return {"id": node_id, "kind": "document", "name": node_id.upper(), "text": text or f"{node_id} text"}


def write(path: Path, nodes: list[Any], relations: list[tuple[str, str]]) -> None:
    edges = [{"source": s, "target": t, "kind": "RELATED_TO"} for s, t in relations]
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")


@pytest.fixture
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


def _state(index: Index) -> tuple[dict[str, str], list[tuple[str, str]]]:
    snap = index.snapshot()
    return {i: n.text for i, n in snap.nodes.items()}, sorted((e.source, e.target) for e in snap.edges.values())


def test_a_bad_node_keeps_its_earlier_version_and_the_rest_of_the_file_is_read(index: Index, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write(path, [node("a"), node("b"), node("c"), node("d")], [("a", "b"), ("a", "c"), ("c", "d")])
    index_sources(index, [path])
    bad_b = {**node("b", "b changed"), "kind": "no-such-kind"}
    write(path, [node("a", "a changed"), bad_b, node("d")], [("a", "b")])  # c taken out
    run = index_sources(index, [path])
    assert next(p.message for s in run.sources for p in s.problems).startswith("nodes[1] (id 'b')")
    nodes, relations = _state(index)
    assert nodes == {"a": "a changed", "b": "b text", "d": "d text"}  # c is gone, b as it was
    assert relations == [("a", "b")]  # a -> c went with c; a -> b stays with b


def test_an_edge_taken_out_goes_though_another_entry_is_bad(index: Index, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write(path, [node("a"), node("b"), node("c")], [("a", "b"), ("b", "c")])
    index_sources(index, [path])
    write(path, [node("a"), node("b"), node("c"), node("a")], [("b", "c"), ("c", "nowhere")])  # a duplicate, a dangling edge
    run = index_sources(index, [path])
    assert len([p for s in run.sources for p in s.problems]) == 2
    assert _state(index)[1] == [("b", "c")]


def test_a_bad_node_without_an_id_keeps_the_whole_file(index: Index, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write(path, [node("a"), node("b"), node("c")], [("a", "b")])
    index_sources(index, [path])
    write(path, [node("a"), {"kind": "document", "name": "no id"}], [])
    index_sources(index, [path])
    nodes, relations = _state(index)
    assert set(nodes) == {"a", "b", "c"} and relations == [("a", "b")]
