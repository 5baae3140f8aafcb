"""A time counted back from now ("2 days ago", "3 hours ago", "a week ago"): the span of that
unit it falls in (`algorithms/ago.py`). They set no window, only a "looks like a time" warning."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import (
    parse_time_window,
    strip_time_phrase,
    unread_time_phrase,
)
from skill_retriever.exceptions import QueryError

NOW = datetime(2026, 11, 12, 15, 30, tzinfo=UTC)  # a Thursday


def at(month: int, day: int, hour: int = 0, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("what broke 2 days ago", at(11, 10), at(11, 11), "2 days ago"),  # that calendar day
    ("errors 3 hours ago", at(11, 12, 12), at(11, 12, 13), "3 hours ago"),  # that clock hour
    ("what broke an hour ago", at(11, 12, 14), at(11, 12, 15), "an hour ago"),
    ("deploys a week ago", at(11, 5), at(11, 6), "a week ago"),  # the Thursday before
    ("deploys 3d ago", at(11, 9), at(11, 10), "3d ago"),
    ("the deploy two days ago", at(11, 10), at(11, 11), "two days ago"),
    ("what broke a month ago", at(10, 1), at(11, 1), "a month ago"),  # that calendar month
    ("incidents 11 months ago", at(12, 1, year=2025), at(1, 1), "11 months ago"),
    ("releases a year ago", at(1, 1, year=2025), at(1, 1), "a year ago"),
    ("5 minutes ago", at(11, 12, 15, 25), at(11, 12, 15, 26), "5 minutes ago"),
])  # fmt: skip
def test_n_units_ago_is_the_span_of_that_unit(query: str, start: datetime, end: datetime, phrase: str) -> None:
    window = read_both_ways(query, NOW, start, end, phrase)  # read as "yesterday" is, with or without days
    assert phrase not in strip_time_phrase(query, window)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # "a few" is 2 to 5: from the start of 5 days ago to the end of 2 days ago
    ("what broke a few days ago", at(11, 7), at(11, 11), "a few days ago"),
    ("outages a couple of weeks ago", at(10, 22), at(11, 6), "a couple of weeks ago"),  # 1 to 3
    ("deploys a couple days ago", at(11, 9), at(11, 12), "a couple days ago"),
    ("errors several hours ago", at(11, 12, 8), at(11, 12, 13), "several hours ago"),  # 3 to 7
    ("the outage a few months ago", at(6, 1), at(10, 1), "a few months ago"),
    ("releases a few years ago", at(1, 1, year=2021), at(1, 1, year=2025), "a few years ago"),
])  # fmt: skip
def test_a_vague_count_ago_is_a_span_of_those_units(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    # Read as one unit ("a few" = 3), "a few days ago" was the one day 3 days back, and
    # "several hours ago" the hour 1 hour back ("hours ago"): a person means roughly that far.
    window = read_both_ways(query, NOW, start, end, phrase)
    assert strip_time_phrase(query, window) == query.removesuffix(" " + phrase)


def test_a_vague_count_ago_is_a_bound_at_the_edge_of_its_span() -> None:
    since = parse_time_window("incidents since a few days ago", NOW)
    assert since is not None and (since.start, since.end) == (at(11, 7), NOW)
    until = parse_time_window("deploys until several days ago", NOW)
    assert until is not None and (until.start, until.end) == (None, at(11, 10))


def test_ago_is_a_bound_of_since_until_and_between() -> None:
    since = parse_time_window("incidents since 3 days ago", NOW)
    assert since is not None and (since.start, since.end) == (at(11, 9), NOW)
    until = parse_time_window("deploys until 2 days ago", NOW)
    assert until is not None and (until.start, until.end) == (None, at(11, 11))
    between = parse_time_window("deploys between 5 days ago and 3 days ago", NOW)
    assert between is not None and (between.start, between.end) == (at(11, 7), at(11, 10))


def test_further_back_than_year_one_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="further back than the year 1"):
        parse_time_window("what broke 99999 years ago", NOW)
    with pytest.raises(QueryError, match="further back than the year 1"):
        parse_time_window("what broke 9999999999 days ago", NOW)


def test_a_word_before_ago_that_is_no_unit_stays_unread() -> None:
    assert parse_time_window("the cache I cleared ages ago", NOW) is None


@pytest.mark.parametrize("query", ["the cache I cleared days ago", "errors many hours ago", "a deploy some weeks ago"])
def test_units_ago_with_no_count_stay_unread(query: str) -> None:
    # "days ago" was read as "1 day ago": a plural with no count names no number of days
    for days in (False, True):
        assert parse_time_window(query, NOW, days=days) is None
    assert unread_time_phrase(query) is not None
