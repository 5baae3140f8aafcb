"""`components.dedup`: the same-name candidates of a node are read from a name map of its
own kind only (kept per snapshot and kind), and give what the map of every node gave:
nodes of that kind that share a name variant, visible to the caller, never the node."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.components.dedup import _name_map, _same_name_ids
from skill_retriever.components.view import CallerView
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_same_name_ids_are_of_the_nodes_own_kind(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    nodes = [
        Node(id="a/deploy", kind="skill", name="deploy", text="ships it", attrs={"path": "a/skills/deploy/SKILL.md"}),
        Node(id="b/deploy", kind="skill", name="Deploy", text="ships it too"),
        Node(id="c/ship", kind="skill", name="ship", text="x", attrs={"path": "c/skills/deploy/SKILL.md"}),
        Node(id="d/deploy", kind="skill", name="deploy", text="private", access=("ops",)),
        Node(id="agent/deploy", kind="agent", name="deploy", text="an agent"),
        Node(id="passage:1", kind="passage", name="Deploy", text="a passage"),
    ]
    index.add(nodes, [])
    try:
        public = CallerView.of(index, None)
        assert _same_name_ids(public, public.get("a/deploy")) == ["b/deploy", "c/ship"]
        assert _same_name_ids(CallerView.of(index, ["ops"]), public.get("b/deploy")) == ["a/deploy", "c/ship", "d/deploy"]
        assert _same_name_ids(public, public.get("agent/deploy")) == []
        assert _same_name_ids(public, public.get("passage:1")) == []
        passages = _name_map(public, NodeKind.PASSAGE)
        assert passages == {"deploy": ("passage:1",)}  # no skill, agent or fact read into it
        assert _name_map(public, NodeKind.PASSAGE) is passages  # kept with the snapshot
    finally:
        index.close()
