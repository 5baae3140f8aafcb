"""A served run asking for a kind the index lacks is told the kinds it may ask for, as the
agent tool and the MCP tools tell it: the served ``retrieval`` graph and ``coding_agent``
answered ``kinds: ["incident"]`` with "the index holds no incident items you may see;
`stats` lists its kinds", a command a server's client cannot run. Only the kinds of items
the deployment's principals may see are named (a private item's kind is not said to exist).
Sample index (hashing embedder) and a private item added to a copy, real LangGraph."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SAMPLE_KINDS = "skill, agent, command, hook, mcp_server, plugin"


@pytest.fixture
def served_ctx(sample_index_path: Path, tmp_path: Path) -> dict[str, object]:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    with Index.open(index_dir, embedder=HashingEmbedder(64)) as index:  # a kind only a team may see
        index.upsert([Node(id="private-tool", kind=NodeKind.TOOL, name="vault", description="team tool", text="a team tool",
                           access=("ops",))])
    return {"index_dir": str(index_dir), "cross_encoder": None}


def _absent_kind_warning(warnings: list[str]) -> str:
    (said,) = [w for w in warnings if w.startswith("the index holds no ")]
    return said


def test_the_served_retrieval_graph_names_the_kinds(served_ctx: dict[str, object]) -> None:
    out = srv.build_server_graph().invoke({"query": "add tracing", "filters": {"kinds": ["incident"]}},
                                          context=served_ctx)
    said = _absent_kind_warning(out["warnings"])
    assert said == f"the index holds no incident items you may see; the kinds you may see are {SAMPLE_KINDS}"


def test_the_served_coding_agent_names_the_kinds(coding_agent: ModuleType, served_ctx: dict[str, object]) -> None:
    out = coding_agent.build_agent_with_wrapper_node().invoke({"task": "add tracing", "kinds": "tool"},
                                                              context=served_ctx)
    said = _absent_kind_warning(out["warnings"])
    assert said == f"the index holds no tool items you may see; the kinds you may see are {SAMPLE_KINDS}"


def test_a_granted_principal_sees_the_private_kind_named(monkeypatch: pytest.MonkeyPatch,
                                                         served_ctx: dict[str, object]) -> None:
    monkeypatch.setenv(srv.PRINCIPALS_ENV, "ops")
    out = srv.build_server_graph().invoke({"query": "add tracing", "filters": {"kinds": ["incident"]}},
                                          context=served_ctx)
    assert _absent_kind_warning(out["warnings"]).endswith(f"the kinds you may see are {SAMPLE_KINDS}, tool")
