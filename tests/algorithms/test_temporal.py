"""Time phrases against a fixed `now` (Thursday 2026-11-12 15:30 UTC), and recency ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from skill_retriever.algorithms.temporal import (
    TimeWindow,
    parse_time_window,
    rank_by_recency,
    strip_time_phrase,
)
from skill_retriever.exceptions import ConfigError, QueryError

NOW = datetime(2026, 11, 12, 15, 30, tzinfo=UTC)  # a Thursday


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [
        ("deploys in the last 24h", NOW - timedelta(hours=24), None, "in the last 24h"),
        ("last 24 hours", NOW - timedelta(hours=24), None, "last 24 hours"),
        ("errors over the past 3 days", NOW - timedelta(days=3), None, "over the past 3 days"),
        ("last week", NOW - timedelta(days=7), None, "last week"),
        ("past week", NOW - timedelta(days=7), None, "past week"),
        ("this week", at(2026, 11, 9), None, "this week"),  # Monday 00:00
        ("last month", NOW - timedelta(days=30), None, "last month"),
        ("past 2 weeks", NOW - timedelta(days=14), None, "past 2 weeks"),
        ("in the last 48 hours", NOW - timedelta(hours=48), None, "in the last 48 hours"),
        ("past an hour", NOW - timedelta(hours=1), None, "past an hour"),
        ("last two days", NOW - timedelta(days=2), None, "last two days"),
        ("last 1.5 days", NOW - timedelta(hours=36), None, "last 1.5 days"),
        ("last 90 min", NOW - timedelta(minutes=90), None, "last 90 min"),
        ("last year", NOW - timedelta(days=365), None, "last year"),
        ("since last week", NOW - timedelta(days=7), None, "since last week"),
        ("this month", at(2026, 11, 1), None, "this month"),
        ("this year", at(2026, 1, 1), None, "this year"),
        ("today", at(2026, 11, 12), at(2026, 11, 13), "today"),
        ("what broke Yesterday", at(2026, 11, 11), at(2026, 11, 12), "Yesterday"),
        ("since 2026-11-01", at(2026, 11, 1), None, "since 2026-11-01"),
        ("since 2026-11-01T12:00Z", at(2026, 11, 1, 12), None, "since 2026-11-01T12:00Z"),
        ("since yesterday", at(2026, 11, 11), None, "since yesterday"),
        ("after 2026-11-01", at(2026, 11, 2), None, "after 2026-11-01"),
        ("before 2026-11-01", None, at(2026, 11, 1), "before 2026-11-01"),
        ("between 2026-11-01 and 2026-11-05", at(2026, 11, 1), at(2026, 11, 6),
         "between 2026-11-01 and 2026-11-05"),
        ("from 2026-11-01 to 2026-11-03", at(2026, 11, 1), at(2026, 11, 4),
         "from 2026-11-01 to 2026-11-03"),
        ("recent deploys", NOW - timedelta(days=7), None, "recent"),
        ("what changed recently?", NOW - timedelta(days=7), None, "recently"),
        ("latest release", NOW - timedelta(days=7), None, "latest"),
        ("newest skills", NOW - timedelta(days=7), None, "newest"),
        ("most recent incident", NOW - timedelta(days=7), None, "most recent"),
        # an explicit window wins over a recency word
        ("latest deploys in the last 24h", NOW - timedelta(hours=24), None, "in the last 24h"),
    ],
)  # fmt: skip
def test_phrases(query: str, start: datetime | None, end: datetime | None, phrase: str) -> None:
    assert parse_time_window(query, NOW) == TimeWindow(start, end, phrase)


@pytest.mark.parametrize(
    "query", ["deploy checkout-api", "last deploy of checkout-api", "past due", "", "weekly report"]
)
def test_no_time_expression(query: str) -> None:
    assert parse_time_window(query, NOW) is None


def test_recent_days_and_naive_now() -> None:
    w = parse_time_window("recent incidents", datetime(2026, 11, 12, 15, 30), recent_days=2.5)
    assert w == TimeWindow(NOW - timedelta(hours=60), None, "recent")
    assert w is not None and w.start is not None and w.start.tzinfo is not None
    with pytest.raises(ConfigError, match="recent_days"):
        parse_time_window("recent", NOW, recent_days=0)


def test_other_timezones_are_converted_to_utc() -> None:
    berlin = timezone(timedelta(hours=1))
    w = parse_time_window("today", datetime(2026, 11, 13, 0, 30, tzinfo=berlin))
    assert w == TimeWindow(at(2026, 11, 12), at(2026, 11, 13), "today")  # 23:30 UTC on the 12th


def test_invalid_date_and_huge_span() -> None:
    with pytest.raises(QueryError, match="2026-13-01"):
        parse_time_window("since 2026-13-01", NOW)
    assert parse_time_window("last 99999999 years", NOW) == TimeWindow(
        None, None, "last 99999999 years"
    )


def test_contains_is_half_open_and_reads_naive_as_utc() -> None:
    w = TimeWindow(at(2026, 11, 11), at(2026, 11, 12), "yesterday")
    assert w.contains(at(2026, 11, 11))
    assert w.contains(datetime(2026, 11, 11, 23, 59))  # naive -> UTC
    assert not w.contains(at(2026, 11, 12))
    assert not w.contains(at(2026, 11, 10, 23, 59))
    assert TimeWindow(None, None, "").contains(at(1, 1, 1))
    # naive bounds are read as UTC too
    assert TimeWindow(datetime(2026, 11, 11), None, "x").start == at(2026, 11, 11)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What broke in the last 24 hours, and why?", "What broke, and why?"),
        ("recent deploys of checkout-api", "deploys of checkout-api"),
        ("incidents since 2026-11-01 on payments", "incidents on payments"),
        ("recent", ""),
    ],
)
def test_strip_time_phrase(query: str, expected: str) -> None:
    assert strip_time_phrase(query, parse_time_window(query, NOW)) == expected


def test_strip_without_window_returns_the_query() -> None:
    assert strip_time_phrase("deploy  checkout", None) == "deploy  checkout"


ITEMS = [
    ("old", at(2026, 10, 1)),
    ("b", at(2026, 11, 12, 10)),
    ("a", at(2026, 11, 12, 10)),  # same time as b: ordered by id
    ("undated", None),
    ("yday", at(2026, 11, 11, 8)),
    ("naive", datetime(2026, 11, 12, 12)),
]


def test_rank_by_recency_without_window() -> None:
    assert rank_by_recency(ITEMS, None) == ["naive", "a", "b", "yday", "old"]


def test_rank_by_recency_inside_window() -> None:
    assert rank_by_recency(ITEMS, parse_time_window("yesterday", NOW)) == ["yday"]
    assert rank_by_recency(ITEMS, parse_time_window("last 24h", NOW)) == ["naive", "a", "b"]
    assert rank_by_recency([], None) == []


def test_rank_by_recency_repeated_id_uses_its_latest_time_in_the_window() -> None:
    items = [("x", at(2026, 11, 1)), ("y", at(2026, 11, 5)), ("x", at(2026, 11, 10))]
    assert rank_by_recency(items, None) == ["x", "y"]
    window = TimeWindow(None, at(2026, 11, 6), "before 2026-11-06")
    assert rank_by_recency(items, window) == ["y", "x"]
