"""An item whose access labels hold "*" reads like "everyone" but is shown only to callers
holding the principal "*": indexing says so, and the item stays hidden from the others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.filters import star_access_note
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _node(node_id: str, access: tuple[str, ...]) -> Node:
    return Node(id=node_id, kind=NodeKind.DOCUMENT, name=node_id, text="rotate the vault keys", access=access)


def test_the_note_names_the_starred_items_only() -> None:
    assert star_access_note([_node("a", ()), _node("b", ("team",))]) is None
    note = star_access_note([_node("b", ("*",)), _node("a", ("team", "*")), _node("c", ())])
    assert note is not None and note.startswith("2 item(s) carry the access label '*' (a, ...)")
    assert "leave access empty" in note


def test_indexing_says_it_and_the_item_stays_hidden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    graph = tmp_path / "graph.json"
    graph.write_text(json.dumps({"nodes": [
        {"id": "doc:open", "kind": "document", "name": "rotate keys", "text": "rotate the vault keys"},
        {"id": "doc:star", "kind": "document", "name": "rotate keys too", "text": "rotate the vault keys",
         "access": ["*"]},
    ], "edges": []}), encoding="utf-8")
    index_dir = tmp_path / "index"
    Index.open(index_dir, embedder=HashingEmbedder(), create=True).close()
    assert main(["index", str(graph), "--index-dir", str(index_dir)]) == 0
    captured = capsys.readouterr()
    assert "1 item(s) carry the access label '*' (doc:star)" in captured.out + captured.err
    with Index.open(index_dir, embedder=HashingEmbedder()) as index:
        retriever = Retriever(index, reranker=None, cache_size=0)
        assert retriever.search("rotate the vault keys", principals=None).ids == ["doc:open"]
        assert retriever.search("rotate the vault keys", principals=["team"]).ids == ["doc:open"]
        assert set(retriever.search("rotate the vault keys", principals=["*"]).ids) == {"doc:open", "doc:star"}
