"""Time words in a query: "until X" is an upper bound (it was read as the bare "X": "until
yesterday" became the window of yesterday alone), "since X until Y" a window, a time
ahead of now ("in the next 24h") is named in a warning instead of passing in silence, and
the temporal channel ranks an item created or updated inside the window, as the
``since`` / ``until`` filters admit it (an incident opened yesterday and updated today is
one of yesterday's)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_calls import indexed_graph

from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window, unread_time_phrase
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)  # a Saturday


def at(*ymd: int) -> datetime:
    return datetime(*ymd, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("incidents until yesterday", None, at(2026, 12, 5), "until yesterday"),
    ("deploys till 2026-11-01", None, at(2026, 11, 2), "till 2026-11-01"),
    ("deploys up until March", None, at(2026, 4, 1), "up until March"),
    ("deploys until 2026-11-01T12:00Z", None, at(2026, 11, 1, 12), "until 2026-11-01T12:00Z"),
    ("before yesterday", None, at(2026, 12, 4), "before yesterday"),  # "before" still leaves the day out
    ("since 2026-11-01 until 2026-11-03", at(2026, 11, 1), at(2026, 11, 4), "since 2026-11-01 until 2026-11-03"),
    ("from Monday until yesterday", at(2026, 11, 30), at(2026, 12, 5), "from Monday until yesterday"),
    ("the day before yesterday", at(2026, 12, 3), at(2026, 12, 4), "the day before yesterday"),
])  # fmt: skip
def test_until_is_an_upper_bound(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    assert parse_time_window(query, NOW) == TimeWindow(start, end, phrase)


@pytest.mark.parametrize(("query", "phrase"), [
    ("incidents in the next 24h", "in the next 24h"),
    ("deploys over the coming 3 days", "over the coming 3 days"),
    ("what deploys within the next few hours", "within the next few hours"),
    ("maintenance next week", "next week"),
    ("what is scheduled tomorrow", "tomorrow"),
    ("incidents until the outage ended", "until the outage"),
    ("follow the next step of the runbook", None),  # "next" before no unit is an ordinary word
])  # fmt: skip
def test_a_time_ahead_of_now_is_named_not_read(query: str, phrase: str | None) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == phrase


GRAPH = {"nodes": [
    {"id": "inc:opened-yesterday", "kind": "incident", "name": "checkout outage", "text": "checkout outage",
     "created": "2026-12-04T10:00:00Z", "updated": "2026-12-05T08:00:00Z"},
    {"id": "inc:two-days-ago", "kind": "incident", "name": "payments outage", "text": "payments outage",
     "created": "2026-12-03T10:00:00Z"},
    {"id": "inc:today", "kind": "incident", "name": "search outage", "text": "search outage",
     "created": "2026-12-05T07:00:00Z"},
    {"id": "svc:checkout", "kind": "service", "name": "checkout", "text": "takes payment"},
]}  # fmt: skip


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed_graph(tmp_path_factory.mktemp("words"), GRAPH)


def _temporal(index_dir: Path, query: str) -> tuple[list[str], list[str], dict[str, object]]:
    """The ids the temporal channel listed, best first; the warnings; its stats."""
    index = Index.open(index_dir)
    try:
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(query, k=10)
    finally:
        index.close()
    listed = sorted((r for r in response.results if "temporal" in r.channels), key=lambda r: r.channels["temporal"])
    return [r.id for r in listed], list(response.warnings), dict(response.stats["search_temporal"])


def test_the_channel_ranks_an_item_created_inside_and_updated_after(index_dir: Path) -> None:
    ids, _, stats = _temporal(index_dir, "outage yesterday")
    assert stats["window"] == "yesterday"
    assert ids == ["inc:opened-yesterday"]


def test_until_yesterday_ranks_everything_up_to_yesterdays_end(index_dir: Path) -> None:
    ids, _, stats = _temporal(index_dir, "outage until yesterday")
    assert stats["window"] == "until yesterday"
    # latest time inside the window first; today's incident is after it
    assert ids == ["inc:opened-yesterday", "inc:two-days-ago"]


def test_a_window_ahead_of_now_is_a_warning(index_dir: Path) -> None:
    ids, warnings, stats = _temporal(index_dir, "incidents in the next 24h")
    assert ids == [] and stats["window"] is None
    assert any(w.startswith("'in the next 24h' looks like a time but names no window") for w in warnings)
