"""The example agent in graphs/coding_agent.py: the retrieval graph as a subgraph both ways
LangGraph supports, with a checkpointer on the parent and subgraph streaming."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.adapters.langgraph_server import PRINCIPALS_ENV, ServerContext
from skill_retriever.context import RetrievalContext
from skill_retriever.model import Node
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TASK = "Write an Alembic migration that adds a column safely under live traffic"
ROUTE_PHASES = {
    "quick": {"expand_graph"},
    "smart": {"expand_graph", "check_completeness", "rank_multifactor"},
    "ppr": {"run_ppr", "prune_flow"},
}
ALWAYS = {
    "plan_query",
    "retrieve_seeds",
    "search_keywords",
    "search_temporal",
    "fuse_rrf",
    "cover_clauses",
    "rerank_cross_encoder",
    "apply_token_budget",
}


def stream_updates(
    agent: Any, payload: dict[str, Any], config: dict[str, Any], **kw: Any
) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    return list(agent.stream(payload, config, stream_mode="updates", subgraphs=True, **kw))


def check_stream(events: list[tuple[tuple[str, ...], dict[str, Any]]], subgraph_node: str) -> str:
    """The subgraph's phases stream in its own namespace; returns the route taken."""
    top = [node for ns, upd in events if ns == () for node in upd]
    inner = [(ns, node, upd[node]) for ns, upd in events if ns != () for node in upd]
    assert inner, "no subgraph events"
    namespaces = {ns for ns, _, _ in inner}
    assert len(namespaces) == 1
    (ns,) = namespaces
    assert len(ns) == 1 and ns[0].startswith(f"{subgraph_node}:")  # "<node>:<task id>"
    phases = [node for _, node, _ in inner]
    route = next(upd["route_taken"] for _, node, upd in inner if node == "plan_query")
    assert ALWAYS | ROUTE_PHASES[route] <= set(phases)
    assert phases[0] == "plan_query" and phases[-1] == "apply_token_budget"
    assert subgraph_node in top and top[-1] == "act"
    return str(route)


OUTPUT = ("skills", "prompt", "answer", "warnings", "fit")


def check_output(out: dict[str, Any], index: Index, budget: int) -> None:
    assert set(out) == set(OUTPUT)
    assert isinstance(out["warnings"], list) and set(out["fit"]) == {"confidence", "nothing_fits", "top_similarity", "agree"}
    skills = out["skills"]
    assert skills and len(skills) <= 5
    assert sum(s["token_count"] for s in skills) <= budget
    assert {s["kind"] for s in skills} <= {"skill", "agent", "command", "hook", "mcp_server"}
    names = [s["name"] for s in skills]
    assert "migrations-alembic" in names
    for s in skills:
        assert s["text"] == index.nodes[s["id"]].embedding_text()
        assert s["text"].strip() in out["prompt"]  # the full text is passed on
    assert out["prompt"].startswith(f"Task: {TASK}")


def test_wrapper_node_agent_with_checkpointer(
    coding_agent: ModuleType, sample_index: Index
) -> None:
    saver = InMemorySaver()
    ctx = RetrievalContext(index=sample_index, reranker=EmbeddingReranker(sample_index.embedder))
    agent = coding_agent.build_agent_with_wrapper_node(retrieval=ctx, checkpointer=saver)
    config = {"configurable": {"thread_id": "wrapped-1"}}
    events = stream_updates(agent, {"task": TASK}, config)
    check_stream(events, "retrieve_skills")

    state = agent.get_state(config)
    assert state.next == ()
    check_output({k: state.values[k] for k in OUTPUT}, sample_index, coding_agent.DEFAULT_BUDGET)
    assert state.values["retrieval"]["reranker"].startswith("embedding:")
    assert state.values["answer"] is None  # no model: the prompt is the product
    namespaces = {c.config["configurable"]["checkpoint_ns"] for c in saver.list(None)}
    assert "" in namespaces and any(ns.startswith("retrieve_skills:") for ns in namespaces)

    # a second turn on the same thread replaces the first one's output
    out = agent.invoke({"task": "Add structured JSON logs to a FastAPI service", "k": 3}, config)
    assert 1 <= len(out["skills"]) <= 3 and out["prompt"].startswith(
        "Task: Add structured JSON logs"
    )
    assert len(list(agent.get_state_history(config))) > len([e for e in events if e[0] == ()])


def test_subgraph_node_agent_shares_keys(coding_agent: ModuleType, sample_index: Index) -> None:
    saver = InMemorySaver()
    agent = coding_agent.build_agent_with_subgraph_node(checkpointer=saver)
    config = {"configurable": {"thread_id": "shared-1"}}
    ctx = RetrievalContext(index=sample_index)
    events = stream_updates(agent, {"task": TASK}, config, context=ctx)
    route = check_stream(events, "skill_retriever")
    # the subgraph node wrote its output keys into the parent's state
    values = agent.get_state(config).values
    assert values["route_taken"] == route and values["reranker"] == "none"
    assert [r["id"] for r in values["results"]] == [s["id"] for s in values["skills"]]
    assert {"plan_query", "fuse_rrf", "apply_token_budget"} <= set(values["stats"])
    check_output({k: values[k] for k in OUTPUT}, sample_index, coding_agent.DEFAULT_BUDGET)
    # the subgraph's own checkpoints live under its namespace
    sub = agent.get_state(config, subgraphs=True)
    assert sub.values["query"] == TASK
    assert any(
        c.config["configurable"]["checkpoint_ns"].startswith("skill_retriever:")
        for c in saver.list(None)
    )


def test_optional_chat_model_gets_the_prompt(coding_agent: ModuleType, sample_index: Index) -> None:
    seen: list[Any] = []

    class Recording(GenericFakeChatModel):
        def invoke(self, input: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            seen.append(input)
            return super().invoke(input, *args, **kwargs)

    model = Recording(messages=iter([AIMessage("1. expand: add the nullable column ...")]))
    agent = coding_agent.build_agent_with_wrapper_node(
        model=model, retrieval=RetrievalContext(index=sample_index)
    )
    out = agent.invoke({"task": TASK, "k": 2})
    assert out["answer"].startswith("1. expand")
    (messages,) = seen
    assert messages[0].content == out["prompt"] and messages[1].content == TASK


def test_server_graph_object_is_the_wrapper(coding_agent: ModuleType) -> None:
    drawn = coding_agent.graph.get_graph(xray=1).draw_mermaid()
    assert "retrieve_skills" in drawn and "act" in drawn


def test_served_agent_searches_as_the_deployment_says(
    coding_agent: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Served (no RetrievalContext given), the agent reads $SKILL_RETRIEVER_PRINCIPALS like
    the server graph: a private skill reaches the prompt only when the deployment grants it."""
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.add([
        Node(id="skill:alembic", kind="skill", name="migrations-alembic", text="Alembic migrations: add a column safely."),
        Node(id="skill:alembic-internal", kind="skill", name="alembic-internal",
             text="Our internal Alembic migration runbook: add a column under live traffic.", access=("team-a",)),
    ])  # fmt: skip
    index.close()
    agent = coding_agent.build_agent_with_wrapper_node()
    context = ServerContext(index_dir=str(tmp_path / "ix"), rerank=False)

    def names() -> list[str]:
        return [s["name"] for s in agent.invoke({"task": TASK}, context=context)["skills"]]

    monkeypatch.delenv(PRINCIPALS_ENV, raising=False)
    assert names() == ["migrations-alembic"]
    monkeypatch.setenv(PRINCIPALS_ENV, "team-a")
    assert sorted(names()) == ["alembic-internal", "migrations-alembic"]
