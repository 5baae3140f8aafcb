"""`stores.graph.EdgeIndex`: each side is grouped on first use, and a kind the snapshot
does not hold is answered without grouping anything (the CLI asks every passage shown
for the DEPENDS_ON edges into it)."""

from __future__ import annotations

from skill_retriever.model import Edge, EdgeKind
from skill_retriever.stores.graph import EdgeIndex


def test_edge_index_sides_hold_every_edge_once() -> None:
    a_b, a_c, c_a = (Edge(source="a", target="b", kind=EdgeKind.MENTIONS),
                     Edge(source="a", target="c", kind=EdgeKind.DEPENDS_ON), Edge(source="c", target="a", kind=EdgeKind.MENTIONS))
    index = EdgeIndex({e.id: e for e in (a_b, a_c, c_a)})
    assert index.out_edges("a") == [a_b, a_c]
    assert index.out_edges("a", EdgeKind.MENTIONS) == [a_b]
    assert index.in_edges("a") == [c_a]
    assert index.edges_of("c") == [c_a, a_c]
    assert index.in_edges("nowhere") == [] == index.out_edges("b")


def test_a_kind_not_held_groups_nothing() -> None:
    a_b = Edge(source="a", target="b", kind=EdgeKind.MENTIONS)
    index = EdgeIndex({a_b.id: a_b})
    assert index.kinds == frozenset({EdgeKind.MENTIONS})
    assert index.in_edges("b", EdgeKind.DEPENDS_ON) == [] == index.out_edges("a", EdgeKind.DEPENDS_ON)
    assert "_in" not in vars(index) and "_out" not in vars(index)
    assert index.in_edges("b", EdgeKind.MENTIONS) == [a_b] and "_out" not in vars(index)


def test_warm_groups_both_sides() -> None:
    a_b = Edge(source="a", target="b", kind=EdgeKind.MENTIONS)
    index = EdgeIndex({a_b.id: a_b})
    index.warm()
    assert "_in" in vars(index) and "_out" in vars(index)
