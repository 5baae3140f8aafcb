"""Explanations name the graph only where the caller's view holds an edge (walkthrough:
metatool has none, yet the CLI said "close in meaning (semantic, graph)" and the agent
tool "via keyword #1, semantic #1, graph #1"). The graph channel over no edges only hands
its seeds back; the ranking keeps it, only the text leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest
from bigtool_support import mk

from skill_retriever.adapters.bigtool import index_tool_registry
from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.components.view import CallerView
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.render import has_edges, named_channels, render
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "holiday plans abroad"  # no word of any tool: every reason is "close in meaning"


@pytest.fixture
def index(tmp_path: Path) -> Index:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(64), create=True)
    index_tool_registry(
        index,
        {
            "weather": mk("weather", "Get the weather forecast for a city"),
            "fx": mk("convert_currency", "Convert money between currencies"),
            "mail": mk("send_email", "Send an email to a recipient"),
        },
        calibrate=False,
    )
    return index


def _item_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if " tokens, via " in line]


def test_no_edges_no_graph_in_the_cli_reason_nor_the_tool_text(index: Index) -> None:
    response = Retriever(index).search(QUERY, k=3)
    assert all("graph" in r.channels for r in response.results)  # ranked with the graph channel
    view = CallerView.of(index, None)
    assert not has_edges(view)
    reasons = [line for line in render(QUERY, response, view) if "close in meaning" in line]
    assert len(reasons) == 3 and not any("graph" in line for line in reasons), reasons
    text = make_search_skills_tool(index, k=3).invoke({"query": QUERY})
    lines = _item_lines(text)
    assert len(lines) == 3 and not any("graph #" in line for line in lines), text
    assert "via semantic #1" in lines[0]


def test_edges_the_caller_cannot_see_do_not_count(index: Index) -> None:
    private = [
        Node(id=f"doc:{n}", kind=NodeKind.DOCUMENT, name=n, text=f"the {n} runbook", access=("team-a",))
        for n in ("failover", "restore")
    ]
    index.upsert(private, [Edge("doc:failover", "doc:restore", EdgeKind.RELATED_TO)])
    public, team = CallerView.of(index, None), CallerView.of(index, ["team-a"])
    assert not has_edges(public) and has_edges(team)
    response = Retriever(index, principals=["team-a"]).search(QUERY, k=3, kinds=["tool"])
    top = response.results[0]
    assert "graph" in top.channels and not top.path
    assert "graph" in named_channels(top, team)  # the caller's graph has edges: named
    assert "graph" not in named_channels(top, public)
    shown = make_search_skills_tool(index, k=3, kinds="tool", principals=["team-a"]).invoke({"query": QUERY})
    assert any("graph #" in line for line in _item_lines(shown)), shown
    hidden = make_search_skills_tool(index, k=3, kinds="tool").invoke({"query": QUERY})
    assert not any("graph #" in line for line in _item_lines(hidden)), hidden
