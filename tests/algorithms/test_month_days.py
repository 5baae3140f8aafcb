"""A day of a month ("since Nov 3", "between 1 and 5 Nov", "on 2026-11-03") read as a
window when the caller asks for days (``days=True``: an index whose items carry dates).

Found walking an incident index: "incidents since Nov 3", the most natural question there,
set no window and was only noted as a time not read, as in a tool request, where such a
date is an argument ("book a table on 2026-12-03") the text search must keep. Without
``days`` the phrases stay unread (test_month_then_day.py, test_day_month_notes.py).
A day is [00:00, 24:00) UTC; a day without a year is the most recent such day not in the
future.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import (
    TimeWindow,
    parse_time_window,
    strip_time_phrase,
    unread_time_phrase,
)
from skill_retriever.exceptions import QueryError

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)  # a Sunday


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [
        ("incidents since Nov 3", at(2026, 11, 3), NOW, "since Nov 3"),
        ("incidents since 3 Nov", at(2026, 11, 3), NOW, "since 3 Nov"),
        ("incidents since the 3rd of November", at(2026, 11, 3), NOW, "since the 3rd of November"),
        ("incidents between 1 and 5 Nov", at(2026, 11, 1), at(2026, 11, 6), "between 1 and 5 Nov"),
        ("incidents between 1st and 5th of November 2025", at(2025, 11, 1), at(2025, 11, 6),
         "between 1st and 5th of November 2025"),
        ("incidents from 1 to 5 Nov", at(2026, 11, 1), at(2026, 11, 6), "from 1 to 5 Nov"),
        ("incidents between 5 and 1 Nov", at(2026, 11, 1), at(2026, 11, 6), "between 5 and 1 Nov"),
        ("incidents between 1 Nov and 5 Nov 2026", at(2026, 11, 1), at(2026, 11, 6), "between 1 Nov and 5 Nov 2026"),
        ("incidents between Nov 1 and Nov 5", at(2026, 11, 1), at(2026, 11, 6), "between Nov 1 and Nov 5"),
        ("deploys from Nov 28 to Dec 2", at(2026, 11, 28), at(2026, 12, 3), "from Nov 28 to Dec 2"),
        ("what broke on 2026-11-03", at(2026, 11, 3), at(2026, 11, 4), "on 2026-11-03"),
        ("what broke on Nov 3", at(2026, 11, 3), at(2026, 11, 4), "on Nov 3"),
        ("the 12th of March outage", at(2026, 3, 12), at(2026, 3, 13), "the 12th of March"),
        ("outages in November 5th", at(2026, 11, 5), at(2026, 11, 6), "in November 5th"),
        ("employees who joined after January 1, 2017", at(2017, 1, 2), NOW, "after January 1, 2017"),
        ("weather until October 6 in East Lansing", None, at(2026, 10, 7), "until October 6"),
        ("incidents before March 20th", None, at(2026, 3, 20), "before March 20th"),
        ("outages since Nov 3, 2025", at(2025, 11, 3), NOW, "since Nov 3, 2025"),
        # not in the future: Dec 25 on 2026-12-06 is last year's; today is this year's
        ("outages since Dec 25", at(2025, 12, 25), NOW, "since Dec 25"),
        ("outages on Dec 6", at(2026, 12, 6), at(2026, 12, 7), "on Dec 6"),
        # the last Feb 29 before 2026
        ("outages on Feb 29", at(2024, 2, 29), at(2024, 3, 1), "on Feb 29"),
        # a month and a year, or a month alone, stay a month
        ("incidents since Nov 2025", at(2025, 11, 1), NOW, "since Nov 2025"),
        ("incidents since November, 3 of them", at(2026, 11, 1), NOW, "since November"),
        ("since March 2026 3 incidents", at(2026, 3, 1), NOW, "since March 2026"),
        # the other forms as without days
        ("deploys in the last 24h", at(2026, 12, 5, 12), NOW, "in the last 24h"),
        ("incidents since 2026-11-03", at(2026, 11, 3), NOW, "since 2026-11-03"),
    ],
)  # fmt: skip
def test_days_of_a_month_are_windows(query: str, start: datetime | None, end: datetime | None, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window == TimeWindow(start, end, phrase)
    assert phrase not in strip_time_phrase(query, window)


@pytest.mark.parametrize(
    "query",
    ["incidents since Nov 3", "what broke on 2026-11-03", "incidents between 1 and 5 Nov", "book a table on 3 Nov",
     "after January 1, 2017"],
)
def test_without_days_they_stay_unread(query: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) is not None


@pytest.mark.parametrize(
    "query",
    ["add 3 marketing campaigns", "between 1 and 5 pods", "what 5 may break", "scale to 2 decks",
     "release-2026-11-03 notes", "the novel 3 chapters", "build 2026-11-03-rc1"],
)
def test_numbers_and_words_that_are_no_day_set_no_window(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None


@pytest.mark.parametrize(
    ("query", "said"),
    [("incidents since 31 Nov", "'31 Nov' in the query is not a valid date"),
     ("incidents on Feb 30", "'Feb 30' in the query is not a valid date"),
     ("incidents on 2026-02-30", "'2026-02-30' in the query is not a valid date"),
     ("incidents between 31 and 5 Nov", "day 31 of November 2026 in the query is not a valid date")],
)  # fmt: skip
def test_a_day_the_month_does_not_have_is_refused(query: str, said: str) -> None:
    with pytest.raises(QueryError, match=said):
        parse_time_window(query, NOW, days=True)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [("revenue from March 12 to December 19, 2012", at(2012, 3, 12), at(2012, 12, 20)),
     ("between January 1st and December 31st, 2022", at(2022, 1, 1), at(2023, 1, 1)),
     ("since Nov 3 until Nov 5, 2025", at(2025, 11, 3), at(2025, 11, 6))],
)  # fmt: skip
def test_a_first_day_without_a_year_takes_the_year_of_the_last(query: str, start: datetime, end: datetime) -> None:
    # read alone, "March 12" was 2026-03-12, and the window ran from 2012 to 2026
    window = parse_time_window(query, NOW, days=True)
    assert window is not None and (window.start, window.end) == (start, end)


def test_the_last_day_of_year_9999_runs_to_the_end_of_time() -> None:
    window = parse_time_window("incidents on Dec 31, 9999", NOW, days=True)
    assert window is not None and window.start == at(9999, 12, 31)
    assert window.end == datetime.max.replace(tzinfo=UTC)


@pytest.mark.parametrize(("query", "now", "start", "end"), [
    # across a new year: each day alone came out as the most recent one, January 2nd's a
    # year back, and the swap made a window of the year between them
    ("between Dec 28 and Jan 2", datetime(2027, 1, 1, tzinfo=UTC), datetime(2026, 12, 28, tzinfo=UTC),
     datetime(2027, 1, 3, tzinfo=UTC)),
    ("between Dec 28 and Jan 2", datetime(2026, 12, 6, tzinfo=UTC), datetime(2025, 12, 28, tzinfo=UTC),
     datetime(2026, 1, 3, tzinfo=UTC)),
    # the shorter reading of days written the other way round is still the swap
    ("between Mar 5 and Jan 2", datetime(2027, 4, 1, tzinfo=UTC), datetime(2027, 1, 2, tzinfo=UTC),
     datetime(2027, 3, 6, tzinfo=UTC)),
    ("between Nov 30 and Nov 1", datetime(2026, 12, 6, tzinfo=UTC), datetime(2026, 11, 1, tzinfo=UTC),
     datetime(2026, 12, 1, tzinfo=UTC)),
    ("between 2026-12-28 and 2026-01-02", datetime(2027, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC),
     datetime(2026, 12, 29, tzinfo=UTC)),  # written with years: as written
])
def test_a_range_of_year_less_days_across_a_new_year(query: str, now: datetime, start: datetime, end: datetime) -> None:
    window = parse_time_window(query, now, days=True)
    assert window is not None and (window.start, window.end) == (start, end)


@pytest.mark.parametrize(("query", "now", "start", "end"), [
    # Dec 31 alone is 2025-12-31 on 2026-12-02, and the shorter reading of the two was the
    # two days across that new year
    ("incidents from January 1 to December 31", datetime(2026, 12, 2, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC),
     datetime(2027, 1, 1, tzinfo=UTC)),
    ("deploys between Feb 1 and Dec 15", datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC),
     datetime(2026, 12, 16, tzinfo=UTC)),
    ("from March 3 through March 10", datetime(2026, 3, 5, tzinfo=UTC), datetime(2026, 3, 3, tzinfo=UTC),
     datetime(2026, 3, 11, tzinfo=UTC)),
])
def test_year_less_days_in_the_calendars_order_are_one_years(query: str, now: datetime, start: datetime,
                                                             end: datetime) -> None:
    window = parse_time_window(query, now, days=True)
    assert window is not None and (window.start, window.end) == (start, end)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [("incidents between Monday and Wednesday", at(2026, 12, 7), at(2026, 12, 10)),
     ("incidents from Monday to Friday", at(2026, 12, 7), at(2026, 12, 12)),
     ("incidents between Friday and Monday", at(2026, 12, 4), at(2026, 12, 8))],
)  # fmt: skip
def test_a_range_of_weekdays_runs_forward_through_the_week(query: str, start: datetime, end: datetime) -> None:
    # Asked on Wednesday 2026-12-09, each weekday alone is the most recent before today:
    # Wednesday was 2026-12-02, before Monday 2026-12-07, and the swap made Dec 2 to Dec 8,
    # the week before the one asked about.
    window = parse_time_window(query, at(2026, 12, 9, 15, 30))
    assert window is not None
    assert (window.start, window.end) == (start, end)
