"""The wiring of the retrieval graph, pinned: any change to nodes or edges shows here."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from skill_retriever.context import RetrievalContext
from skill_retriever.graph import build_graph, graph
from skill_retriever.stores.index import Index

SNAPSHOT = Path(__file__).parent / "snapshots" / "retrieval_graph.mmd"


def test_mermaid_matches_snapshot() -> None:
    # To refresh after an intended wiring change:
    #   .venv/bin/python -c "from skill_retriever.graph import graph; open('tests/snapshots/retrieval_graph.mmd','w').write(graph.get_graph().draw_mermaid())"
    assert graph.get_graph().draw_mermaid() == SNAPSHOT.read_text(encoding="utf-8")


def test_build_graph_is_deterministic() -> None:
    assert build_graph().get_graph().draw_mermaid() == SNAPSHOT.read_text(encoding="utf-8")


def test_the_package_exports_the_compiled_graph() -> None:
    import skill_retriever

    assert skill_retriever.graph is graph
    assert {"plan_query", "fuse_rrf", "apply_token_budget"} <= set(skill_retriever.graph.get_graph().nodes)


@pytest.mark.parametrize("route", ["smart", "quick", "ppr"])
def test_the_drawing_labels_each_route_on_the_edges_it_takes(route: str, shared_tiny_index: Index) -> None:
    """Studio and draw_mermaid() draw the graph from get_graph(): every route is named on
    each branch edge it takes (smart and quick share the edge to expand_graph, which was
    drawn as "quick" alone), and a run forced onto the route follows exactly those edges."""
    drawn = {
        (e.source, e.target)
        for e in graph.get_graph().edges
        if e.conditional and e.data and route in str(e.data).split(", ")
    }
    ctx = RetrievalContext(index=shared_tiny_index)
    ran = [next(iter(update)) for update in graph.stream(
        {"query": "deploy the service", "route": route, "k": 2}, context=ctx, stream_mode="updates")]
    taken = {pair for pair in itertools.pairwise(ran) if pair[0] in ("retrieve_seeds", "expand_graph")}
    assert drawn == taken and drawn, (route, drawn, ran)
