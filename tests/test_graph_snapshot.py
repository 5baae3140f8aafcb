"""The wiring of the retrieval graph, pinned: any change to nodes or edges shows here."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.graph import build_graph, graph

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
