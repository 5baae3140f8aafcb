"""Each retrieval phase is its own named run in a trace, tagged with the query, route and
its stats; checked with local tracers (no network)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.context import collect_runs
from langchain_core.tracers.schemas import Run

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.graph import graph
from skill_retriever.stores.index import Index
from skill_retriever.tracing import TAG, annotate_current_run

PHASES = {
    "plan_query", "retrieve_seeds", "expand_graph", "check_completeness", "fill_gaps",
    "rank_multifactor", "run_ppr", "prune_flow", "search_keywords", "search_temporal",
    "fuse_rrf", "cover_clauses", "rerank_cross_encoder", "apply_token_budget",
}  # fmt: skip
ROUTE_PHASES = {
    "quick": {"expand_graph"},
    "smart": {"expand_graph", "check_completeness", "rank_multifactor"},
    "ppr": {"run_ppr", "prune_flow"},
}
COMMON = {
    "plan_query",
    "retrieve_seeds",
    "search_keywords",
    "search_temporal",
    "fuse_rrf",
    "cover_clauses",
    "rerank_cross_encoder",
    "apply_token_budget",
}
QUERY = "How does the migrations-alembic skill relate to postgres-schema-design?"


class EndTimeTracer(BaseTracer):
    """Records each run as it ends: what LangSmith's tracer sends in its closing PATCH."""

    def __init__(self) -> None:
        super().__init__()
        self.ended: list[tuple[str, UUID | None, dict[str, Any], list[str]]] = []

    def _persist_run(self, run: Run) -> None:
        pass

    def _on_chain_end(self, run: Run) -> None:
        meta = dict((run.extra or {}).get("metadata") or {})
        self.ended.append((run.name, run.parent_run_id, meta, list(run.tags or [])))


def phase_runs(root: Run) -> list[Run]:
    out: list[Run] = []
    stack = [root]
    while stack:
        run = stack.pop()
        if run.name in PHASES and (run.extra or {}).get("metadata", {}).get("phase") == run.name:
            out.append(run)
        stack.extend(run.child_runs)
    return out


@pytest.mark.parametrize("route", ["quick", "smart", "ppr"])
def test_each_phase_is_a_named_run_with_query_route_stats(sample_index: Index, route: str) -> None:
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig())
    with collect_runs() as cb:
        out = graph.invoke(
            {"query": QUERY, "route": route, "k": 5}, context=ctx, config={"callbacks": [cb]}
        )
    (root,) = cb.traced_runs
    assert root.name == "skill_retriever"
    runs = phase_runs(root)
    names = {r.name for r in runs}
    assert COMMON | ROUTE_PHASES[route] <= names
    assert all(r.parent_run_id == root.id for r in runs)  # each phase directly under the graph run
    for run in runs:
        meta = run.extra["metadata"]
        assert meta["query"] == QUERY
        assert meta["route"] == route
        assert meta["stats"] == out["stats"][run.name] or run.name in (
            "check_completeness",
            "fill_gaps",
        )
        assert "ms" in meta["stats"]
        assert meta["langgraph_node"] == run.name  # LangGraph's own node metadata is kept
        assert {TAG, f"phase:{run.name}", f"route:{route}"} <= set(run.tags or [])
    plan = next(r for r in runs if r.name == "plan_query")
    assert plan.extra["metadata"]["stats"]["route"] == route


def test_annotations_are_there_when_the_run_ends(sample_index: Index) -> None:
    tracer = EndTimeTracer()
    graph.invoke(
        {"query": QUERY},
        context=RetrievalContext(index=sample_index),
        config={"callbacks": [tracer]},
    )
    ended = {name: (meta, tags) for name, _, meta, tags in tracer.ended if name in PHASES}
    assert {"plan_query", "fuse_rrf", "apply_token_budget"} <= set(ended)
    route = ended["plan_query"][0]["route"]
    assert route in ("smart", "ppr", "quick")
    for name, (meta, tags) in ended.items():
        assert meta["phase"] == name and meta["route"] == route and meta["query"] == QUERY
        assert f"phase:{name}" in tags


def test_a_degraded_phase_is_tagged(sample_index: Index) -> None:
    class Broken:
        name = "broken"

        def score(self, query: str, texts: list[str]) -> list[float]:
            raise RuntimeError("model crashed")

    with collect_runs() as cb:
        out = graph.invoke(
            {"query": QUERY, "route": "quick"},
            context=RetrievalContext(index=sample_index, reranker=Broken()),
            config={"callbacks": [cb]},
        )
    assert out["results"] and out["warnings"]
    rerank = next(r for r in phase_runs(cb.traced_runs[0]) if r.name == "rerank_cross_encoder")
    assert "degraded" in rerank.tags
    assert "model crashed" in rerank.extra["metadata"]["stats"]["failed"]


def test_phases_nest_under_the_retriever_run(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index, k=3, reranker=None)
    with collect_runs() as cb:
        retriever.invoke("format python code", config={"callbacks": [cb], "tags": ["my-app"]})
    (root,) = cb.traced_runs
    assert root.run_type == "retriever" and root.name == "SkillRetriever"
    (graph_run,) = root.child_runs
    assert graph_run.name == "skill_retriever"
    runs = phase_runs(graph_run)
    assert {"plan_query", "fuse_rrf", "apply_token_budget"} <= {r.name for r in runs}
    assert all("my-app" in r.tags for r in runs)  # the caller's tags are inherited


def test_no_tracer_no_annotation() -> None:
    assert annotate_current_run({"phase": "x"}, ["t"]) == 0


def test_langsmith_tracer_sends_the_annotations(sample_index: Index) -> None:
    """LangSmith's own tracer, pointed at a stub endpoint on loopback, sends each phase's
    tags and metadata in the run's closing PATCH."""
    import http.server
    import json
    import threading

    from langchain_core.tracers.langchain import LangChainTracer
    from langsmith import Client

    patches: list[dict[str, Any]] = []

    class Stub(http.server.BaseHTTPRequestHandler):
        def _reply(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            if self.command == "PATCH":
                patches.append(json.loads(body))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        do_POST = do_PATCH = do_GET = _reply

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = Client(
            api_url=f"http://127.0.0.1:{server.server_address[1]}",
            api_key="stub",
            auto_batch_tracing=False,
        )
        tracer = LangChainTracer(client=client, project_name="skill-retriever-test")
        graph.invoke(
            {"query": QUERY, "route": "ppr"},
            context=RetrievalContext(index=sample_index),
            config={"callbacks": [tracer]},
        )
        tracer.wait_for_futures()
    finally:
        server.shutdown()
    sent = {p["name"]: p for p in patches if p.get("name") in PHASES}
    assert {"plan_query", "run_ppr", "prune_flow", "fuse_rrf", "apply_token_budget"} <= set(sent)
    for name, patch in sent.items():
        meta = patch["extra"]["metadata"]
        assert meta["phase"] == name and meta["route"] == "ppr" and meta["query"] == QUERY
        assert "ms" in meta["stats"]
        assert {TAG, f"phase:{name}", "route:ppr"} <= set(patch["tags"])
