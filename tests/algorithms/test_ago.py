"""A time counted back from now ("2 days ago", "3 hours ago", "a week ago"): the span of that
unit it falls in (`algorithms/ago.py`). They set no window, only a "looks like a time" warning."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, strip_time_phrase
from skill_retriever.exceptions import QueryError

NOW = datetime(2026, 11, 12, 15, 30, tzinfo=UTC)  # a Thursday


def at(month: int, day: int, hour: int = 0, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("what broke 2 days ago", at(11, 10), at(11, 11), "2 days ago"),  # that calendar day
    ("errors 3 hours ago", at(11, 12, 12), at(11, 12, 13), "3 hours ago"),  # that clock hour
    ("what broke an hour ago", at(11, 12, 14), at(11, 12, 15), "an hour ago"),
    ("deploys a week ago", at(11, 5), at(11, 6), "a week ago"),  # the Thursday before
    ("outages a couple of weeks ago", at(10, 29), at(10, 30), "a couple of weeks ago"),
    ("deploys 3d ago", at(11, 9), at(11, 10), "3d ago"),
    ("the deploy two days ago", at(11, 10), at(11, 11), "two days ago"),
    ("what broke a month ago", at(10, 1), at(11, 1), "a month ago"),  # that calendar month
    ("incidents 11 months ago", at(12, 1, year=2025), at(1, 1), "11 months ago"),
    ("releases a year ago", at(1, 1, year=2025), at(1, 1), "a year ago"),
    ("5 minutes ago", at(11, 12, 15, 25), at(11, 12, 15, 26), "5 minutes ago"),
])  # fmt: skip
def test_n_units_ago_is_the_span_of_that_unit(query: str, start: datetime, end: datetime, phrase: str) -> None:
    for days in (False, True):  # read as "yesterday" is, with or without days
        window = parse_time_window(query, NOW, days=days)
        assert window is not None and (window.start, window.end, window.phrase) == (start, end, phrase)
    assert phrase not in strip_time_phrase(query, window)


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
