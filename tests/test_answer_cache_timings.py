"""An answer served from the answer cache reports the time of the call that served it.

It used to carry the per-phase ``ms`` of the search that computed it, marked only by
``stats["cache"] == {"hit": True}``: whoever added up the phases' ``ms`` (the ``--json``
stats, the server graph's output, a notebook's latency column) counted a hit at the
first search's time. A hit's phases did not run: they keep their figures (the route and
what decided it, what the budget dropped) but no ``ms``; ``stats["cache"]`` holds this
call's ``ms`` and the computing search's phase times under ``original_ms``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import pytest

from skill_retriever.responses import SearchResponse
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERIES = ["alembic migrations revision scripts", "structured logging for a service"]


def phase_ms(stats: Mapping[str, Any]) -> dict[str, float]:
    """Each phase's ``ms``, as a caller adding up the stats reads them."""
    return {name: st["ms"] for name, st in stats.items() if isinstance(st, Mapping) and "ms" in st and name != "cache"}


def summed_ms(stats: Mapping[str, Any]) -> float:
    """What a caller gets who adds up every ``ms`` of the stats (the walk-through notebook's sum)."""
    return float(sum(st.get("ms", 0.0) for st in stats.values() if isinstance(st, Mapping)))


def assert_reports_its_own_time(hit: SearchResponse, first: SearchResponse) -> None:
    computed = phase_ms(first.stats)
    assert len(computed) >= 5 and "cache" not in first.stats
    cache = hit.stats["cache"]
    assert cache["hit"] is True
    assert phase_ms(hit.stats) == {}, "a hit's phases did not run: they report no time"
    assert cache["original_ms"] == computed
    assert isinstance(cache["ms"], float) and 0.0 <= cache["ms"]
    assert hit.total_ms == cache["ms"] == pytest.approx(summed_ms(hit.stats))
    # The phases' figures other than time still describe the answer served.
    for name, st in first.stats.items():
        assert {k: v for k, v in st.items() if k != "ms"} == hit.stats[name]
    assert str(hit) == str(first) and hit.failed_phases == first.failed_phases


def test_a_second_search_many_reports_the_hits_own_time(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    firsts = retriever.search_many(QUERIES, route="quick")
    hits = retriever.search_many(QUERIES, route="quick")
    for first, hit in zip(firsts, hits, strict=True):
        assert first.total_ms == pytest.approx(summed_ms(first.stats), abs=0.01)
        assert_reports_its_own_time(hit, first)


def test_search_and_asearch_hits_report_their_own_time(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    first = retriever.search(QUERIES[0], route="smart")
    assert_reports_its_own_time(retriever.search(QUERIES[0], route="smart"), first)
    assert_reports_its_own_time(asyncio.run(retriever.asearch(QUERIES[0], route="smart")), first)


def test_the_json_of_a_hit_carries_no_phase_time(shared_tiny_index: Index) -> None:
    """``query --json``'s shape (``to_dict``) and the server graph's (``to_output``)."""
    retriever = Retriever(shared_tiny_index, reranker=None)
    first = retriever.search(QUERIES[1])
    hit = retriever.search(QUERIES[1])
    for shape in (hit.to_dict(), hit.to_output()):
        stats = json.loads(json.dumps(shape))["stats"]
        assert phase_ms(stats) == {} and summed_ms(stats) == stats["cache"]["ms"]
        assert stats["cache"]["original_ms"] == phase_ms(first.stats)
    back = SearchResponse.from_dict(json.loads(json.dumps(hit.to_dict())))
    assert back.total_ms == hit.total_ms


def test_each_hit_times_itself_and_the_kept_answer_keeps_its_phase_times(shared_tiny_index: Index) -> None:
    """A hit's stats are its own copy: the next hit starts again from the computed answer."""
    retriever = Retriever(shared_tiny_index, reranker=None)
    first = retriever.search(QUERIES[0], k=3)
    one = retriever.search(QUERIES[0], k=3)
    one.stats["cache"]["original_ms"].clear()
    two = retriever.search(QUERIES[0], k=3)
    assert two.stats["cache"]["original_ms"] == phase_ms(first.stats)
    assert "cache" not in two.stats["cache"]["original_ms"]
