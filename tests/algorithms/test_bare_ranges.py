"""Two time points with "through", "thru", "until" or "to" and no "from" or "between", now Wednesday
2026-12-02 15:00 (`date_bounds`): "incidents last Monday through yesterday" read as last Monday alone,
"last Monday until yesterday" as "until yesterday", a silent wrong window; "from last Monday through
yesterday" was already Monday to yesterday's end. Read as "from X to Y" only where both ends are a
window on their own: a weekday alone is none (`weekdays`: "Monday to Friday" is opening hours as often
as days past), nor a month alone, nor "prod" or "the staging cluster", so those stay as they were. The last
may be now, as after "from X" ("last Monday to now" read as last Monday alone, "to now" left in the text),
never the first: "switch to now"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import parse_time_window, strip_time_phrase

NOW = datetime(2026, 12, 2, 15, tzinfo=UTC)  # a Wednesday


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("incidents last Monday through yesterday", at(11, 30), at(12, 2)),  # was last Monday alone
    ("incidents last Monday thru yesterday", at(11, 30), at(12, 2)),
    ("incidents last Monday until yesterday", at(11, 30), at(12, 2)),  # was "until yesterday": no start
    ("incidents yesterday through today", at(12, 1), at(12, 3)),  # was yesterday alone
    ("incidents last week to yesterday", at(11, 23), at(12, 2)),  # was last week alone
    ("incidents 3 days ago until yesterday", at(11, 29), at(12, 2)),
    ("incidents early last week to yesterday", at(11, 23), at(12, 2)),  # as "from early last week to yesterday"
    ("incidents last night to this morning", at(12, 1, 18), at(12, 2, 12)),
])  # fmt: skip
def test_two_points_with_no_from_are_the_range_from_the_first_to_the_last(
    query: str, start: datetime, end: datetime
) -> None:
    window = read_both_ways(query, NOW, start, end, query.split(maxsplit=1)[1])
    assert strip_time_phrase(query, window) == "incidents"
    written = parse_time_window(query.replace("incidents ", "incidents from "), NOW)  # as "from X to Y" reads
    assert written is not None and (written.start, written.end) == (start, end)


def test_two_iso_days_are_a_range_where_items_carry_dates_and_words_elsewhere() -> None:
    window = parse_time_window("errors 2026-11-01 to 2026-11-05", NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(11, 1), at(11, 6), "2026-11-01 to 2026-11-05")  # was the 1st
    assert parse_time_window("errors 2026-11-01 to 2026-11-05", NOW) is None  # a tool request's arguments


@pytest.mark.parametrize(("query", "phrase"), [
    ("Monday to Wednesday", None),  # a weekday alone is no time point ("open Monday to Friday")
    ("what broke Monday to Wednesday", None),  # nor after a past verb as a range's first day (`weekdays`)
    ("errors March to May", None),  # a month alone is none: "from March to May" is a range
    ("last week to fix the bug", "last week"),
    ("deploy to prod yesterday", "yesterday"),
    ("yesterday to the staging cluster", "yesterday"),
    ("move last week to next week", "last week"),  # a time ahead is never read
    ("today to tomorrow", "today"),
    ("copy the notes of yesterday to today's standup", "yesterday"),  # a possessive names no day
    ("errors before last Monday to yesterday", "before last Monday"),  # a bound reads its own point
])  # fmt: skip
def test_an_end_that_is_no_time_point_leaves_the_reading_as_it_was(query: str, phrase: str | None) -> None:
    for days in (False, True):
        window = parse_time_window(query, NOW, days=days)
        assert (window and window.phrase) == phrase


def test_a_day_after_on_stays_that_day_where_items_carry_dates() -> None:
    # a date moved, not a range: "change my flight on March 7th to March 10th" (a tool request's words)
    query = "change the release on Nov 3 to Nov 5"
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(11, 3), at(11, 4), "on Nov 3")


@pytest.mark.parametrize(("query", "start"), [
    ("incidents last Monday to now", at(11, 30)),  # was last Monday alone, "to now" left in the text
    ("incidents yesterday until now", at(12, 1)),
    ("incidents last Monday through now", at(11, 30)),
    ("incidents yesterday up to now", at(12, 1)),
    ("incidents 3 days ago until now", at(11, 29)),
    ("incidents today to now", at(12, 2)),  # was today whole, to tomorrow's start
    ("incidents last week to the present", at(11, 23)),
    ("incidents last Monday to this day", at(11, 30)),
    ("incidents yesterday to date", at(12, 1)),
    ("incidents early last week to now", at(11, 23)),
    ("incidents the end of last week to now", at(11, 30)),  # from its end, as "from the end of last week to now"
])  # fmt: skip
def test_a_point_to_now_with_no_from_runs_to_now_as_from_x_to_now_does(query: str, start: datetime) -> None:
    window = read_both_ways(query, NOW, start, NOW, query.split(maxsplit=1)[1])
    assert strip_time_phrase(query, window) == "incidents"
    written = parse_time_window(query.replace("incidents ", "incidents from "), NOW)
    assert written is not None and (written.start, written.end) == (start, NOW)


def test_an_iso_day_to_now_is_a_range_where_items_carry_dates_as_two_iso_days_are() -> None:
    window = parse_time_window("incidents 2026-11-02 to now", NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(11, 2), NOW, "2026-11-02 to now")  # was the 2nd
    assert parse_time_window("incidents 2026-11-02 to now", NOW) is None  # an ISO day alone is no window here


@pytest.mark.parametrize(("query", "phrase"), [
    ("switch to now", None),  # "to now" after a word that is no time
    ("migrate to now-playing", None),
    ("yesterday to now-playing", "yesterday"),  # "now-playing" is no now
    ("Monday to now", None),  # a weekday or a month alone is still no first point
    ("errors March to now", None),
    ("last week to present at standup", "last week"),  # "present" a verb, not at a clause's end
    ("docs yesterday up to date", "yesterday"),  # "up to date" is no end, as after "from"
    ("last week to this day of the week", "last week"),
    ("errors before last Monday to now", "before last Monday"),  # a bound reads its own point
])  # fmt: skip
def test_an_end_that_is_no_now_leaves_the_reading_as_it_was(query: str, phrase: str | None) -> None:
    for days in (False, True):
        window = parse_time_window(query, NOW, days=days)
        assert (window and window.phrase) == phrase


def test_a_day_after_on_then_now_stays_that_day_where_items_carry_dates() -> None:
    window = parse_time_window("errors on Nov 3 to now", NOW, days=True)
    assert window is not None and (window.start, window.end, window.phrase) == (at(11, 3), at(11, 4), "on Nov 3")
