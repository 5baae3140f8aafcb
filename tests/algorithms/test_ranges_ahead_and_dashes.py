"""Ranges that were read as one of their ends, the wrong way, or not at all, now Wednesday 2026-12-02
15:00 (`from_now`, `date_bounds`, `month_days`, `day_hours`):

* "between now and Friday", "between today and Friday": now or today written first looks ahead, so a
  date without a year or week is the next one. It was no window ("now" is no date), or from last
  Friday to today, the other way from what was asked.
* "between 9am and now", "since noon", "from 9am to noon today" (where items carry dates): from that
  time of day; "between 9am and now" was no window, "noon" and "midnight" no time.
* "from March 3 through March 10", "March 3 - March 10", "2026-03-03 – 2026-03-10", "March 3-10"
  (where items carry dates): the days from the first to the last; each read as its first day alone
  or as nothing. "from last Monday through yesterday" read as last Monday.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_calls import indexed_graph
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import parse_time_window, strip_time_phrase
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 2, 15, tzinfo=UTC)  # a Wednesday


def at(month: int, day: int, hour: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("maintenance between now and Friday", NOW, at(12, 5)),  # the coming Friday, taken in
    ("maintenance between today and Friday", at(12, 2), at(12, 5)),  # was last Friday to today
    ("maintenance between now and the end of the month", NOW, at(1, 1, year=2027)),
    ("maintenance between now and tomorrow", NOW, at(12, 4)),
    ("maintenance from now until March", NOW, at(4, 1, year=2027)),  # the next March, not March 2026
    ("maintenance from today to Monday", at(12, 2), at(12, 8)),
    # a date that is behind whatever its reading: the range the other way, as "between X and now"
    ("errors between now and last Monday", at(11, 30), NOW),
    ("errors between today and yesterday", at(12, 1), at(12, 3)),
    ("errors between now and the start of this week", at(11, 30), NOW),
])  # fmt: skip
def test_a_range_from_now_or_today_looks_ahead(query: str, start: datetime, end: datetime) -> None:
    window = read_both_ways(query, NOW, start, end, query.split(maxsplit=1)[1])
    assert strip_time_phrase(query, window) == query.split()[0]


@pytest.mark.parametrize(("query", "end"), [
    ("maintenance between now and March 10", at(3, 11, year=2027)),
    ("maintenance between now and Dec 10", at(12, 11)),
    ("maintenance between now and Feb 29", at(3, 1, year=2028)),  # the next leap year's
    ("maintenance from now through 2027-01-15", at(1, 16, year=2027)),
])  # fmt: skip
def test_a_day_of_a_month_from_now_is_the_next_one_where_items_carry_dates(query: str, end: datetime) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end) == (NOW, end)
    # without days a day of a month is no date, as "since Nov 3": no range
    if "20" not in query:
        assert parse_time_window(query, NOW) is None


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("errors between 9am and now", at(12, 2, 9), NOW, "between 9am and now"),
    ("errors between 9am today and now", at(12, 2, 9), NOW, "between 9am today and now"),
    ("errors from noon to the present", at(12, 2, 12), NOW, "from noon to the present"),
    ("errors from 3 PM yesterday to now", at(12, 1, 15), NOW, "from 3 PM yesterday to now"),
    ("errors since 9am until now", at(12, 2, 9), NOW, "since 9am until now"),
    ("errors since noon", at(12, 2, 12), NOW, "since noon"),
    ("errors since midnight", at(12, 2), NOW, "since midnight"),
    ("errors from 9am to noon today", at(12, 2, 9), at(12, 2, 12), "from 9am to noon today"),
    ("flights at 12:00 noon today", at(12, 2, 12), at(12, 2, 13), "at 12:00 noon today"),  # "12:00" not left
    ("errors last night at midnight", at(12, 2), at(12, 2, 1), "last night at midnight"),
    ("5 May at noon", at(5, 5, 12), at(5, 5, 13), "5 May at noon"),
    ("errors from 9am today", at(12, 2, 9), at(12, 2, 10), "9am today"),  # no end: that hour, as before
])  # fmt: skip
def test_a_time_of_day_as_a_bound_where_items_carry_dates(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


@pytest.mark.parametrize("query", ["errors between 9am and now", "errors since noon", "errors from 9am to noon"])
def test_a_time_of_day_is_no_window_where_items_carry_no_dates(query: str) -> None:
    # a tool request's argument ("book the room from 9am to noon"), as "since 9am" is
    assert parse_time_window(query, NOW) is None


@pytest.mark.parametrize(("query", "start", "end"), [
    ("errors from March 3 through March 10", at(3, 3), at(3, 11)),
    ("errors from March 3 thru March 10", at(3, 3), at(3, 11)),
    ("errors from 2026-11-01 through 2026-11-15", at(11, 1), at(11, 16)),
    ("errors from March through June", at(3, 1), at(7, 1)),
    ("errors March 3 - March 10", at(3, 3), at(3, 11)),
    ("errors 2026-03-03 – 2026-03-10", at(3, 3), at(3, 11)),  # an en dash
    ("errors 2026-03-03 - 2026-03-10", at(3, 3), at(3, 11)),
    ("errors from Nov 1 — Nov 5", at(11, 1), at(11, 6)),  # an em dash
    ("errors Nov 1 thru Nov 5", at(11, 1), at(11, 6)),
    ("errors March 3-10", at(3, 3), at(3, 11)),
    ("errors 3–10 March", at(3, 3), at(3, 11)),
    ("errors Nov 3–5, 2025", at(11, 3, year=2025), at(11, 6, year=2025)),
    ("errors Dec 28 - Jan 2", at(12, 28, year=2025), at(1, 3)),  # across a new year, as "between"
])  # fmt: skip
def test_two_days_through_or_with_a_dash_are_a_range_where_items_carry_dates(
    query: str, start: datetime, end: datetime
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end) == (start, end)
    assert strip_time_phrase(query, window) == "errors"


@pytest.mark.parametrize(("query", "start", "end"), [
    ("errors from September 6, 2025 through September 30", at(9, 6, year=2025), at(10, 1, year=2025)),
    ("errors between Nov 3, 2025 and Nov 5", at(11, 3, year=2025), at(11, 6, year=2025)),
    ("errors Sept 6, 2025 - Sept 30", at(9, 6, year=2025), at(10, 1, year=2025)),
    ("errors from Dec 28, 2025 to Jan 2", at(12, 28, year=2025), at(1, 3)),  # the next year's, as before
])  # fmt: skip
def test_a_last_day_without_a_year_is_of_the_first_days_year(query: str, start: datetime, end: datetime) -> None:
    # the last day alone was the most recent such day: the window ran a year on (traject-bench)
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize("query", [
    "errors from last Monday through yesterday", "errors from Monday through Wednesday",
])  # fmt: skip
def test_through_between_relative_days_is_a_range_either_way(query: str) -> None:
    for days in (False, True):
        window = parse_time_window(query, NOW, days=days)
        assert window is not None
        assert (window.start, window.end) == (at(11, 30), at(12, 2 if "yesterday" in query else 3))


@pytest.mark.parametrize("query", [
    "errors March 3 - March 10", "errors 2026-03-03 – 2026-03-10", "errors March 3-10",
    "errors from March 3 through March 10", "errors from March through June",
])  # fmt: skip
def test_days_and_months_through_or_with_a_dash_stay_words_where_items_carry_no_dates(query: str) -> None:
    # a tool request's span of arguments ("monthly data from January 2020 through December 2023")
    assert parse_time_window(query, NOW) is None


@pytest.mark.parametrize(("query", "phrase"), [
    ("the top 3-5 May releases", None),  # a count of May's releases
    ("open Monday-Friday 9am-5pm", None),  # opening hours
    ("the 2024-25 season", None),
    ("errors after 2017-01-01—something I can point to", "after 2017-01-01"),  # a dash before no date
])  # fmt: skip
def test_a_dash_between_no_two_days_is_no_range(query: str, phrase: str | None) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert (window and window.phrase) == phrase


GRAPH = {"nodes": [
    {"id": "inc:last-week", "kind": "incident", "name": "checkout maintenance", "text": "checkout maintenance",
     "created": "2026-11-25T10:00:00Z"},
    {"id": "inc:friday", "kind": "incident", "name": "payments maintenance", "text": "payments maintenance",
     "created": "2026-12-04T22:00:00Z"},
    {"id": "inc:next-week", "kind": "incident", "name": "search maintenance", "text": "search maintenance",
     "created": "2026-12-09T07:00:00Z"},
]}  # fmt: skip


def test_the_temporal_channel_ranks_the_items_dated_from_now_to_friday(tmp_path: Path) -> None:
    index = Index.open(indexed_graph(tmp_path, GRAPH))
    try:
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(
            "maintenance between now and Friday", k=10
        )
    finally:
        index.close()
    listed = [r.id for r in response.results if "temporal" in r.channels]
    assert response.stats["search_temporal"]["window"] == "between now and Friday"
    # the window was none: last Friday to today, or nothing, not the maintenance planned for Friday
    assert listed == ["inc:friday"]
