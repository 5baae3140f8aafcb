"""Only an answer that depends on the wall clock expires with the minute.

The answer cache's key held the minute whenever no fixed ``now`` was configured, for every
query: a server asked "structured logging for a service" twice, a few minutes apart,
computed it again though nothing it reads had changed. A query that names a time ("last
24h", "recent") has a window counted from now: its answer still lasts one minute.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever import answer_cache
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture
def minute(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    clock = [29_000_000]
    monkeypatch.setattr(answer_cache, "wall_minute", lambda: clock[0])
    return clock


def test_an_answer_that_reads_no_time_outlives_the_minute(shared_tiny_index: Index, minute: list[int]) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    first = retriever.search("structured logging for a service")
    assert "cache" not in first.stats
    minute[0] += 30
    again = retriever.search("structured logging for a service")
    assert again.stats["cache"]["hit"] is True
    assert [r.id for r in again.results] == [r.id for r in first.results]


@pytest.mark.parametrize("query", ["deploys in the last 24h", "recent logging changes", "incidents since Monday"])
def test_an_answer_whose_window_is_counted_from_now_lasts_a_minute(
    shared_tiny_index: Index, minute: list[int], query: str
) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    retriever.search(query)
    assert retriever.search(query).stats["cache"]["hit"] is True  # the same minute
    minute[0] += 1
    assert "cache" not in retriever.search(query).stats  # the window moved: computed again


def test_which_queries_read_the_clock() -> None:
    config = RetrievalConfig()
    assert answer_cache.reads_the_clock("deploys in the last 24h", config)
    assert answer_cache.reads_the_clock("what changed yesterday", config)
    assert not answer_cache.reads_the_clock("structured logging for a service", config)
    assert not answer_cache.reads_the_clock("pdf merge tool", config)
    # whether a query names a time does not depend on when it is asked
    for now in (datetime(2020, 1, 1, tzinfo=UTC), datetime(2030, 6, 15, 23, 59, tzinfo=UTC)):
        assert answer_cache.reads_the_clock("deploys in the last 24h", RetrievalConfig(now=now))
