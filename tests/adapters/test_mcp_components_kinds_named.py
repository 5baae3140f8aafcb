"""``search_components`` asked for a component kind the index does not hold: its warning
ended "`stats` lists its kinds", a command an agent cannot run, where ``search`` names the
kinds the caller may ask for. Now it names the component kinds the caller may see (not
documents or incidents, which this tool refuses). Through the SDK's MCP client."""

from __future__ import annotations

from pathlib import Path

from mcp_in_process import tool_answers
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_search_components_names_the_component_kinds_it_may_ask_for(tmp_path: Path) -> None:
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:  # no hook in it
        index.add([n for n in tiny_nodes() if n.kind.value != "hook"],
                  [e for e in tiny_edges() if not e.source.startswith("hook:")])
    said = tool_answers(tmp_path / "ix", ["*"], {
        "components": ("search_components", {"query": "ruff pre-commit", "kinds": ["hook"]}),
        "search": ("search", {"query": "ruff pre-commit", "kinds": ["hook"]}),
    })
    (warning,) = said["components"]["warnings"]
    assert warning == "the index holds no hook items you may see; the kinds you may see are skill, agent, command, mcp_server"
    assert "`stats`" not in " ".join(said["search"]["warnings"])
