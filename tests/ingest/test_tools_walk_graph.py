"""JSON graph tool nodes (user walkthrough): a node kind in any case, as edge kinds are
read, and a node with a description but no text."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.model import NodeKind


def test_node_kinds_in_any_case_and_description_as_text(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"nodes": [
        {"id": "t1", "kind": "TOOL", "name": "Überweisung", "text": "Bank transfer"},
        {"id": "t2", "kind": "Mcp_Server", "name": "srv", "text": "A server"},
        {"id": "t3", "kind": "tool", "name": "sms", "description": "Send an SMS"},
        {"id": "t4", "kind": "tool", "name": "sms2", "description": "Send a text", "text": None},
        {"id": "t5", "kind": "tool", "name": "bare"},
        {"id": "t6", "kind": "tool", "name": "blank", "description": "  "},
        {"id": "t7", "kind": "TOOLS", "name": "typo", "text": "x"},
    ], "edges": [{"source": "t1", "target": "t3", "kind": "feeds"}]}), encoding="utf-8")
    result = ingest_json_graph(path)
    nodes = {n.id: n for n in result.nodes}
    assert list(nodes) == ["t1", "t2", "t3", "t4"] and len(result.edges) == 1
    assert nodes["t1"].kind is NodeKind.TOOL and nodes["t2"].kind is NodeKind.MCP_SERVER
    assert (nodes["t3"].text, nodes["t3"].description) == ("Send an SMS", "Send an SMS")
    assert nodes["t4"].text == "Send a text"
    assert "description" not in nodes["t3"].attrs and "text" not in nodes["t3"].attrs
    problems = [p.message for p in result.problems]
    assert problems[0].startswith("nodes[4] (id 't5'): missing field 'text'")
    assert "nodes[5] (id 't6')" in problems[1] and "text" in problems[1]
    assert "unknown node kind 'tools'" in problems[2] and len(problems) == 3
