"""Time phrases against a fixed `now` (Thursday 2026-11-12 15:30 UTC), and recency ranking."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import (
    TimeWindow,
    parse_time_window,
    rank_by_recency,
    strip_time_phrase,
    unread_time_phrase,
)
from skill_retriever.exceptions import ConfigError, QueryError

NOW = datetime(2026, 11, 12, 15, 30, tzinfo=UTC)  # a Thursday


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [
        ("deploys in the last 24h", NOW - timedelta(hours=24), NOW, "in the last 24h"),
        ("last 24 hours", NOW - timedelta(hours=24), NOW, "last 24 hours"),
        ("errors over the past 3 days", NOW - timedelta(days=3), NOW, "over the past 3 days"),
        # "last week" is the calendar week before this one, as "last quarter" is the quarter;
        # "past week" and "the last week" are the past 7 days (was: "last week" too)
        ("last week", at(2026, 11, 2), at(2026, 11, 9), "last week"),
        ("past week", NOW - timedelta(days=7), NOW, "past week"),
        ("deploys in the last week", NOW - timedelta(days=7), NOW, "in the last week"),
        ("deploys over the past month", NOW - timedelta(days=30), NOW, "over the past month"),
        ("the previous week", at(2026, 11, 2), at(2026, 11, 9), "previous week"),
        ("last week's deploys", at(2026, 11, 2), at(2026, 11, 9), "last week"),
        ("this week", at(2026, 11, 9), NOW, "this week"),  # Monday 00:00
        ("last month", at(2026, 10, 1), at(2026, 11, 1), "last month"),
        ("past 2 weeks", NOW - timedelta(days=14), NOW, "past 2 weeks"),
        ("in the last 48 hours", NOW - timedelta(hours=48), NOW, "in the last 48 hours"),
        ("past an hour", NOW - timedelta(hours=1), NOW, "past an hour"),
        ("last two days", NOW - timedelta(days=2), NOW, "last two days"),
        ("last 1.5 days", NOW - timedelta(hours=36), NOW, "last 1.5 days"),
        ("last 90 min", NOW - timedelta(minutes=90), NOW, "last 90 min"),
        ("last year", at(2025, 1, 1), at(2026, 1, 1), "last year"),
        ("over the last year", NOW - timedelta(days=365), NOW, "over the last year"),
        ("since last week", at(2026, 11, 2), NOW, "since last week"),
        ("this month", at(2026, 11, 1), NOW, "this month"),
        ("this year", at(2026, 1, 1), NOW, "this year"),
        ("today", at(2026, 11, 12), at(2026, 11, 13), "today"),
        ("what broke Yesterday", at(2026, 11, 11), at(2026, 11, 12), "Yesterday"),
        ("since 2026-11-01", at(2026, 11, 1), NOW, "since 2026-11-01"),
        ("since 2026-11-01T12:00Z", at(2026, 11, 1, 12), NOW, "since 2026-11-01T12:00Z"),
        ("since yesterday", at(2026, 11, 11), NOW, "since yesterday"),
        ("after 2026-11-01", at(2026, 11, 2), NOW, "after 2026-11-01"),
        ("before 2026-11-01", None, at(2026, 11, 1), "before 2026-11-01"),
        ("between 2026-11-01 and 2026-11-05", at(2026, 11, 1), at(2026, 11, 6),
         "between 2026-11-01 and 2026-11-05"),
        ("from 2026-11-01 to 2026-11-03", at(2026, 11, 1), at(2026, 11, 4),
         "from 2026-11-01 to 2026-11-03"),
        ("recent deploys", NOW - timedelta(days=7), NOW, "recent"),
        ("what changed recently?", NOW - timedelta(days=7), NOW, "recently"),
        ("latest release", NOW - timedelta(days=7), NOW, "latest"),
        ("newest skills", NOW - timedelta(days=7), NOW, "newest"),
        ("most recent incident", NOW - timedelta(days=7), NOW, "most recent"),
        # an explicit window wins over a recency word
        ("latest deploys in the last 24h", NOW - timedelta(hours=24), NOW, "in the last 24h"),
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
    assert w == TimeWindow(NOW - timedelta(hours=60), NOW, "recent")
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
        None, NOW, "last 99999999 years"
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


# Units are whole words: a number word glued to a one-letter unit ("a" + "d") is no window.
@pytest.mark.parametrize(
    "query",
    ["what broke the last ad campaign", "the last word", "past a dog", "last a dog", "last h",
     "the last yak", "last an hwy", "past w", "the last mob"],
)  # fmt: skip
def test_units_match_whole_words_only(query: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert strip_time_phrase(query, parse_time_window(query, NOW)) == query


@pytest.mark.parametrize(
    ("query", "span"),
    [("last 3d", timedelta(days=3)), ("last 3 d", timedelta(days=3)), ("past 2w", timedelta(weeks=2)),
     ("last 1y", timedelta(days=365)), ("last 2mo", timedelta(days=60)), ("last 5 hrs", timedelta(hours=5))],
)  # fmt: skip
def test_one_letter_units_after_digits(query: str, span: timedelta) -> None:
    assert parse_time_window(query, NOW) == TimeWindow(NOW - span, NOW, query)


def test_last_window_ends_now_so_future_items_are_out() -> None:
    items = [("future", at(2027, 6, 1)), ("fresh", at(2026, 11, 12, 9))]
    assert rank_by_recency(items, parse_time_window("in the last 24h", NOW)) == ["fresh"]
    assert rank_by_recency(items, parse_time_window("recent deploys", NOW)) == ["fresh"]


@pytest.mark.parametrize("query", ["since 2026-11-01", "after last Monday", "this week", "this year", "since March"])
def test_an_open_window_ends_now_so_future_items_are_out(query: str) -> None:
    """A planned maintenance dated next year topped every "since ..." (the channel ranks
    the latest time first): a window that names no end ends now."""
    items = [("planned", at(2027, 3, 1)), ("fresh", at(2026, 11, 12, 9))]
    assert rank_by_recency(items, parse_time_window(query, NOW)) == ["fresh"]


def test_a_window_from_a_time_ahead_of_now_has_no_end() -> None:
    # "maintenance after 2027-01-01" asks for what is planned: the window cannot end at now
    window = parse_time_window("maintenance after 2027-01-01", NOW)
    assert window == TimeWindow(at(2027, 1, 2), None, "after 2027-01-01")
    assert rank_by_recency([("planned", at(2027, 3, 1))], window) == ["planned"]


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [
        ("since March", at(2026, 3, 1), NOW, "since March"),
        ("since december", at(2025, 12, 1), NOW, "since december"),  # not begun yet in 2026
        ("since Nov 2025", at(2025, 11, 1), NOW, "since Nov 2025"),
        ("incidents in November", at(2026, 11, 1), at(2026, 12, 1), "in November"),
        ("outages in May 2026", at(2026, 5, 1), at(2026, 6, 1), "in May 2026"),
        ("during 2026-02", at(2026, 2, 1), at(2026, 3, 1), "during 2026-02"),
        ("errors over the past few days", NOW - timedelta(days=3), NOW, "over the past few days"),
        ("last a couple of weeks", NOW - timedelta(weeks=2), NOW, "last a couple of weeks"),
        ("since last Monday", at(2026, 11, 9), NOW, "since last Monday"),
        ("since Thursday", at(2026, 11, 5), NOW, "since Thursday"),  # today is a Thursday
        ("what broke last Friday", at(2026, 11, 6), at(2026, 11, 7), "last Friday"),
        ("since 2026-03", at(2026, 3, 1), NOW, "since 2026-03"),
        ("before 2026-03", None, at(2026, 3, 1), "before 2026-03"),
        ("between 2026-11-30 and 2026-11-01", at(2026, 11, 1), at(2026, 12, 1),
         "between 2026-11-30 and 2026-11-01"),
        ("between March and May", at(2026, 3, 1), at(2026, 6, 1), "between March and May"),
    ],
)  # fmt: skip
def test_common_phrases(
    query: str, start: datetime | None, end: datetime | None, phrase: str
) -> None:
    assert parse_time_window(query, NOW) == TimeWindow(start, end, phrase)


def test_a_time_with_a_lower_case_z_is_read_as_with_z() -> None:
    # as --since reads it (`model.parse_timestamp`): RFC 3339 allows z; it was an unread time
    window = parse_time_window("incidents since 2026-11-01T10:00z", NOW)
    assert window is not None and window.start == datetime(2026, 11, 1, 10, tzinfo=UTC)
    assert window.phrase == "since 2026-11-01T10:00z"
    assert strip_time_phrase("incidents since 2026-11-01T10:00z", window) == "incidents"


def test_may_the_verb_is_no_month_and_bad_months_raise() -> None:
    assert parse_time_window("what may break in may", NOW) is None
    with pytest.raises(QueryError, match="13"):
        parse_time_window("since 2026-13", NOW)


@pytest.mark.parametrize(
    ("query", "phrase"),
    [("incidents since the outage", "since the outage"), ("what broke in Q3", "Q3"),
     ("deploy checkout-api", None),
     # "N days ago" is a window (test_ago); a word that is no unit stays a phrase
     ("what broke ages ago", "ages ago"), ("the cache cleared moments ago", "moments ago")],
)  # fmt: skip
def test_unread_time_phrases_are_named_and_kept(query: str, phrase: str | None) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == phrase
    assert strip_time_phrase(query, None) == query


@pytest.mark.parametrize("query", ["incidents in the last 0 days", "past 0h", "last 0.0 weeks", "before the last 0 days"])
def test_a_last_span_of_zero_is_a_query_error(query: str) -> None:
    # it read as [now, now): an empty window, every item outside it, and no word said
    with pytest.raises(QueryError, match="names no time; write a span longer than 0"):
        parse_time_window(query, NOW)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # ultratool 655: "until the end of December" was read alone (no start), or "today" without days
    ("the bookings from today until the end of December", at(2026, 11, 12), at(2027, 1, 1),
     "from today until the end of December"),
    ("deploys from the start of March to the end of May", at(2026, 3, 1), at(2026, 6, 1),
     "from the start of March to the end of May"),
    ("incidents between 2026-11-01 and the start of 2026-11-05", at(2026, 11, 1), at(2026, 11, 5),
     "between 2026-11-01 and the start of 2026-11-05"),
    ("deploys from the end of October until today", at(2026, 11, 1), at(2026, 11, 13),
     "from the end of October until today"),
])  # fmt: skip
def test_a_span_between_the_start_or_end_of_two_dates(query: str, start: datetime, end: datetime, phrase: str) -> None:
    read_both_ways(query, NOW, start, end, phrase)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # "this week" alone was read from "between yesterday and the start of this week", its
    # bounds passed over; a week, month or year is a calendar one here (NOW: Thursday Nov 12)
    ("errors between yesterday and the start of this week", at(2026, 11, 9), at(2026, 11, 12),
     "between yesterday and the start of this week"),
    ("deploys between the start of last week and yesterday", at(2026, 11, 2), at(2026, 11, 12),
     "between the start of last week and yesterday"),
    ("incidents from the end of last week until today", at(2026, 11, 9), at(2026, 11, 13),
     "from the end of last week until today"),
    ("deploys between last week and this week", at(2026, 11, 2), at(2026, 11, 16),
     "between last week and this week"),
    ("outages between the start of last month and the end of this month", at(2026, 10, 1), at(2026, 12, 1),
     "between the start of last month and the end of this month"),
    ("alerts since this week", at(2026, 11, 9), NOW, "since this week"),
    ("alerts since the start of last week", at(2026, 11, 2), NOW, "since the start of last week"),
    ("alerts since the end of last month", at(2026, 11, 1), NOW, "since the end of last month"),
    ("alerts before this month", None, at(2026, 11, 1), "before this month"),  # was this month itself
    ("alerts until the end of this month", None, at(2026, 12, 1), "until the end of this month"),
    ("alerts until the start of this week", None, at(2026, 11, 9), "until the start of this week"),
    ("alerts until this year", None, at(2027, 1, 1), "until this year"),
    ("alerts until the end of the month", None, at(2026, 12, 1), "until the end of the month"),
    # "last week" is the calendar one here too: "since last week" was the past 7 days, "since the
    # start of last week" from its Monday
    ("alerts since last week", at(2026, 11, 2), NOW, "since last week"),
    ("alerts after last month", at(2026, 11, 1), NOW, "after last month"),
    ("alerts since the previous week", at(2026, 11, 2), NOW, "since the previous week"),
])  # fmt: skip
def test_this_or_last_week_or_month_is_a_bound(
    query: str, start: datetime | None, end: datetime, phrase: str
) -> None:
    read_both_ways(query, NOW, start, end, phrase)
