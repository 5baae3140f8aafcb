"""More time phrases that were read wrong or passed over (a walk of leftovers): an hour in a
part of a day ("last night at 11pm") was the whole part, "the previous day" the past 24 hours
and "the day before" nothing; "a day or two ago" was only noted as "two ago" and "in the past
day or two" the past day; "late last week", "end of last month" were the whole period.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import parse_time_window

NOW = datetime(2026, 12, 2, 15, 30, tzinfo=UTC)  # a Wednesday
HOUR = timedelta(hours=1)


def at(month: int, day: int, hour: int = 0, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "phrase"), [
    ("errors last night at 11pm", at(12, 1, 23), "last night at 11pm"),
    ("errors last night at 2am", at(12, 2, 2), "last night at 2am"),  # after midnight: today's
    ("errors last night at 9:30", at(12, 1, 21, 30), "last night at 9:30"),  # no am/pm: the night's
    ("errors at 11pm last night", at(12, 1, 23), "at 11pm last night"),
    ("deploy this morning at 9am", at(12, 2, 9), "this morning at 9am"),
    ("crash this afternoon at 3:15", at(12, 2, 15, 15), "this afternoon at 3:15"),
    ("crash yesterday evening at 7pm", at(12, 1, 19), "yesterday evening at 7pm"),
    ("errors since last night at 11pm", at(12, 1, 23), "since last night at 11pm"),
])  # fmt: skip
def test_an_hour_in_a_part_of_a_day_is_that_hour_where_items_carry_dates(
    query: str, start: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    end = NOW if phrase.startswith("since") else start + HOUR
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


def test_without_days_a_part_of_a_day_stays_the_whole_part() -> None:
    # as "yesterday at 14:00" is yesterday there: a time in a tool request is an argument
    window = parse_time_window("errors last night at 11pm", NOW)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(12, 1, 18), at(12, 2, 6), "last night")


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("logs from the previous day", at(12, 1), at(12, 2), "from the previous day"),  # was the past 24 h
    ("what broke the day before?", at(12, 1), at(12, 2), "the day before"),  # was none
    ("previous day errors", at(12, 1), at(12, 2), "previous day"),
    ("errors since the previous day", at(12, 1), NOW, "since the previous day"),
    ("errors before the previous day", None, at(12, 1), "before the previous day"),
    # two counts of one unit: the wider reading
    ("errors in the past day or two", NOW - timedelta(days=2), NOW, "in the past day or two"),  # was 1 day
    ("errors the last 2 or 3 days", NOW - timedelta(days=3), NOW, "the last 2 or 3 days"),
    ("errors a day or two ago", at(11, 30), at(12, 2), "a day or two ago"),  # was a note: "two ago"
    ("errors a week or two ago", at(11, 18), at(11, 26), "a week or two ago"),
    ("errors 2 or 3 days ago", at(11, 29), at(12, 1), "2 or 3 days ago"),
    ("errors a month or two ago", at(10, 1), at(12, 1), "a month or two ago"),
    # a part of a calendar period: its first, last or middle half, in whole days (was the whole period)
    ("deploys late last week", at(11, 26), at(11, 30), "late last week"),
    ("deploys early last week", at(11, 23), at(11, 27), "early last week"),
    ("deploys at the end of last month", at(11, 16), at(12, 1), "at the end of last month"),
    ("deploys early this month", at(12, 1), NOW, "early this month"),  # up to now, as "this month"
    ("deploys mid last year", at(4, 2, year=2025), at(10, 2, year=2025), "mid last year"),
    ("deploys in the middle of last month", at(11, 8), at(11, 24), "in the middle of last month"),
])  # fmt: skip
def test_a_leftover_phrase_is_read(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    read_both_ways(query, NOW, start, end, phrase)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # beside another date "the previous day" is that date's: the date is read, not yesterday
    ("errors last Monday or the day before", at(11, 30), at(12, 1), "last Monday"),
    ("errors in the previous day and since 2026-11-03", at(11, 3), NOW, "since 2026-11-03"),
    # "by the end of this month" is a deadline: this month, as it was
    ("finish the report by the end of this month", at(12, 1), NOW, "this month"),
    ("errors until the end of last month", None, at(12, 1), "until the end of last month"),
    ("papers from the beginning of this year", at(1, 1), NOW, "from the beginning of this year"),
    # the part takes the place only of its own period's reading: the span written first stays
    ("errors in the last 3 days, not late last week", NOW - timedelta(days=3), NOW, "in the last 3 days"),
])  # fmt: skip
def test_what_stays_as_it_was(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


@pytest.mark.parametrize("query", [
    "what changed the day before the release",  # an event's day before
    "book a flight the day after tomorrow, then change the ticket to the day before.",  # a day ahead's
])  # fmt: skip
def test_the_day_before_something_else_is_no_day(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
