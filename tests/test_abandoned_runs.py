"""Runs of the retrieval graph that never reach their last phase do not hold old index
snapshots for good.

Each query pins its view (a snapshot) in the shared ``RetrievalContext``, and its last
phase releases it. A stream its reader stopped reading, or an ``ainvoke`` cancelled, never
gets there; with a write between runs, each such view held a whole old snapshot, one per
abandoned run, up to 1,024 (found in a walkthrough on trailofbits' skills; bounded since,
by `MAX_HELD_VERSIONS`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.context import MAX_HELD_VERSIONS, RetrievalContext
from skill_retriever.graph import graph
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    opened.upsert([Node(f"s{i}", NodeKind.SKILL, f"skill {i}", f"audit contract number {i}") for i in range(20)])
    yield opened
    opened.close()


def _held_versions(context: RetrievalContext) -> set[int]:
    return {id(v.snapshot) for v in context._views.values()}


def _write(index: Index, i: int) -> None:
    index.upsert([Node("extra", NodeKind.SKILL, "extra", f"extra text {i}")])


def test_streams_stopped_early_hold_at_most_a_few_versions(index: Index) -> None:
    context = RetrievalContext(index=index)
    for i in range(12):
        _write(index, i)
        for update in graph.stream({"query": f"audit a contract {i}", "k": 5}, context=context, stream_mode="updates"):
            if "retrieve_seeds" in update:
                break  # the reader goes away
    assert len(context._views) >= MAX_HELD_VERSIONS  # the abandoned runs still hold views,
    assert len(_held_versions(context)) == MAX_HELD_VERSIONS  # but of the newest versions only
    assert index.snapshot() in [v.snapshot for v in context._views.values()]
    done = graph.invoke({"query": "audit a contract", "k": 5}, context=context)  # still answers
    assert done["results"]


def test_cancelled_runs_hold_at_most_a_few_versions(index: Index) -> None:
    context = RetrievalContext(index=index)

    async def cancelled(i: int) -> None:
        _write(index, i)
        task = asyncio.ensure_future(graph.ainvoke({"query": f"audit a contract {i}"}, context=context))
        now = index.snapshot()
        while all(v.snapshot is not now for v in context._views.values()):  # until its first phase pinned
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    async def main() -> None:
        for i in range(10):
            await cancelled(i)

    asyncio.run(main())
    assert len(_held_versions(context)) == MAX_HELD_VERSIONS


def test_a_query_on_a_version_let_go_resolves_its_view_again(index: Index) -> None:
    context = RetrievalContext(index=index)
    first, view = context.pin({"query": "audit"})
    for i in range(MAX_HELD_VERSIONS):
        _write(index, i)
        context.pin({"query": "audit"})
    assert first not in context._views  # its version is the oldest of five
    again = context.view({"pin": first, "query": "audit"})
    assert again.snapshot is index.snapshot() and again.snapshot is not view.snapshot
    assert context._views[first] is again  # held again, for the phases after it
