"""An open end of a range after "from X" or "since X" ("to the present", "until now", "up to now",
"to date", "to this day", "through today"; `date_bounds`), now Wednesday 2026-12-02 15:00. "incidents
from the beginning of last month to the present" read as last month alone (ultratool asks it so): the
end words were no date, so the range did not match and the last-month rule read its middle. "between X
and now" or "and the present" read as X alone the same way; "until now" with no start was noted as a
time not read, where "till now" and "up to now" were not.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_calls import indexed_graph
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import (
    parse_time_window,
    strip_time_phrase,
    unread_time_phrase,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 2, 15, tzinfo=UTC)  # a Wednesday


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # each was last month, last Monday, last week or the start's day alone, or no window
    ("incidents from the beginning of last month to the present", at(11, 1), NOW,
     "from the beginning of last month to the present"),
    ("incidents from the start of last month to present", at(11, 1), NOW, "from the start of last month to present"),
    ("incidents from the start of last month to present.", at(11, 1), NOW, "from the start of last month to present"),
    ("incidents from last Monday till now", at(11, 30), NOW, "from last Monday till now"),
    ("deploys from last week up to now", at(11, 23), NOW, "from last week up to now"),
    ("deploys from last week to now", at(11, 23), NOW, "from last week to now"),
    ("errors from March to date", at(3, 1), NOW, "from March to date"),  # as "year to date": up to now
    ("errors from 2026-11-01 to this day", at(11, 1), NOW, "from 2026-11-01 to this day"),
    ("errors from early last week to the present", at(11, 23), NOW, "from early last week to the present"),
    # "through today" to today's end, as "until today" and "to today" are
    ("errors from March through today", at(3, 1), at(12, 3), "from March through today"),
    # the window was the same, the end words left in the text the other channels read
    ("incidents since last Monday until now", at(11, 30), NOW, "since last Monday until now"),
    ("errors since the end of last week to now", at(11, 30), NOW, "since the end of last week to now"),
])  # fmt: skip
def test_an_open_end_after_a_start_runs_to_now(query: str, start: datetime, end: datetime, phrase: str) -> None:
    window = read_both_ways(query, NOW, start, end, phrase)
    # the other channels read the words left, the end words no longer among them
    assert strip_time_phrase(query, window).rstrip(".") == query.split()[0]


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("errors from March until today", at(3, 1), at(12, 3), "from March until today"),
    ("errors from March to today", at(3, 1), at(12, 3), "from March to today"),
    ("errors since the end of last week", at(11, 30), NOW, "since the end of last week"),  # from this Monday
    ("year to date revenue", at(1, 1), NOW, "year to date"),
])  # fmt: skip
def test_the_forms_an_open_end_sits_beside_read_as_they_did(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    read_both_ways(query, NOW, start, end, phrase)


def test_an_open_end_after_a_start_ahead_of_now_has_no_end_as_since_it() -> None:
    window = parse_time_window("errors from the end of this month to now", NOW)
    assert window is not None
    assert (window.start, window.end) == (datetime(2027, 1, 1, tzinfo=UTC), None)


@pytest.mark.parametrize("query", [
    # no start: the query asked for no window
    "what happened up to now", "what happened till now", "everything to date", "all incidents to the present",
    # "present" a verb, "date" a word of a name
    "present the results", "update to date-fns", "migrate from 2025 to date-fns",
])  # fmt: skip
def test_an_open_end_alone_or_a_lookalike_names_no_window(query: str) -> None:
    for days in (False, True):
        assert parse_time_window(query, NOW, days=days) is None


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # each was X alone: last Monday, last month, last week, or no window ("March")
    ("incidents between last Monday and now", at(11, 30), NOW, "between last Monday and now"),
    ("incidents between last Monday and the present", at(11, 30), NOW, "between last Monday and the present"),
    ("incidents between last Monday and present.", at(11, 30), NOW, "between last Monday and present"),
    ("incidents between the start of last month and now", at(11, 1), NOW, "between the start of last month and now"),
    ("errors between early last week and now", at(11, 23), NOW, "between early last week and now"),
    ("errors between the end of last week and now", at(11, 30), NOW, "between the end of last week and now"),
    ("errors between March and now", at(3, 1), NOW, "between March and now"),
    ("errors between yesterday and now", at(12, 1), NOW, "between yesterday and now"),
    # "the present day" or "date" whole: "day" was left in the text the other channels read
    ("errors from March to the present day", at(3, 1), NOW, "from March to the present day"),
    ("errors between March and the present date", at(3, 1), NOW, "between March and the present date"),
])  # fmt: skip
def test_between_a_start_and_now_runs_to_now(query: str, start: datetime, end: datetime, phrase: str) -> None:
    window = read_both_ways(query, NOW, start, end, phrase)
    assert strip_time_phrase(query, window).rstrip(".") == query.split()[0]


def test_between_a_day_and_now_runs_to_now_where_items_carry_dates() -> None:
    window = parse_time_window("errors between Nov 3 and now", NOW, days=True)
    assert window is not None
    assert (window.start, window.end) == (at(11, 3), NOW)
    # a day of a month is no date without days: no window, as "since Nov 3"
    assert parse_time_window("errors between Nov 3 and now", NOW) is None


def test_between_a_start_ahead_of_now_and_now_is_from_now_to_it() -> None:
    # "between" names no order: the two ends swapped, as "between yesterday and the start of this week"
    window = parse_time_window("errors between the end of this month and now", NOW)
    assert window is not None
    assert (window.start, window.end) == (NOW, datetime(2027, 1, 1, tzinfo=UTC))


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("incidents between last Monday and today", at(11, 30), at(12, 3), "between last Monday and today"),  # to today's end
    ("errors between last Monday and yesterday", at(11, 30), at(12, 2), "between last Monday and yesterday"),
    ("errors between 2 and 3 days ago", at(11, 29), at(11, 30), "3 days ago"),  # a count, no date: as before
    # a possessive is no date: the day it names, as before ("between" reads no range to a release)
    ("changes between today's release and the next one", at(12, 2), at(12, 3), "today"),
])  # fmt: skip
def test_between_two_dates_reads_as_it_did(query: str, start: datetime, end: datetime, phrase: str) -> None:
    read_both_ways(query, NOW, start, end, phrase)


@pytest.mark.parametrize("query", [
    "what changed between now and then",  # no date: neither end is one
    "differences between now and later",
    "errors between last Monday and right now-ish",  # "now-ish" is no now
])  # fmt: skip
def test_between_now_and_a_word_that_is_no_date_names_no_range(query: str) -> None:
    for days in (False, True):
        window = parse_time_window(query, NOW, days=days)
        assert window is None or window.end != NOW


@pytest.mark.parametrize("query", [
    "what happened until now", "what happened till now", "what happened up to now", "what happened up until now",
    "the history of the city from its founding until the present day", "everything until the present",
])  # fmt: skip
def test_an_open_end_with_no_start_is_no_window_and_no_time_left_unread(query: str) -> None:
    # all up to now is what no window gives; "until now" alone was noted as a time ignored
    assert parse_time_window(query, NOW, days=True) is None
    assert unread_time_phrase(query) is None


@pytest.mark.parametrize(("query", "phrase"), [
    ("errors until the presentation", "until the presentation"),
    ("errors until now-ish", "until now-ish"),
    ("errors since the outage until now", "since the outage"),
])  # fmt: skip
def test_until_before_a_word_that_is_no_now_is_still_noted(query: str, phrase: str) -> None:
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize(("query", "phrase"), [
    ("slides from last week to present at standup", "from last week"),  # "present" the verb
    ("are the docs from last week up to date", "from last week"),  # "up to date": current
    ("errors from 2026-11-01 to this day of the week", "2026-11-01"),
])  # fmt: skip
def test_a_lookalike_after_a_start_is_no_open_end(query: str, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert window.phrase == phrase and window.end != NOW


def test_through_before_a_date_is_no_range() -> None:
    # a tool request's span of arguments (traject-bench: "monthly data from January 2020 through
    # December 2023"): read as a range it would leave the text the keyword and dense channels read
    assert parse_time_window("monthly data from January 2020 through December 2023", NOW) is None


GRAPH = {"nodes": [
    {"id": "inc:october", "kind": "incident", "name": "checkout outage", "text": "checkout outage",
     "created": "2026-10-20T10:00:00Z"},
    {"id": "inc:last-month", "kind": "incident", "name": "payments outage", "text": "payments outage",
     "created": "2026-11-10T10:00:00Z"},
    {"id": "inc:this-month", "kind": "incident", "name": "search outage", "text": "search outage",
     "created": "2026-12-01T07:00:00Z"},
]}  # fmt: skip


@pytest.mark.parametrize("window", [
    "from the beginning of last month to the present",
    "between the start of last month and now",
])
def test_the_temporal_channel_ranks_every_item_from_the_start_to_now(tmp_path: Path, window: str) -> None:
    index = Index.open(indexed_graph(tmp_path, GRAPH))
    try:
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(f"outages {window}", k=10)
    finally:
        index.close()
    listed = sorted((r for r in response.results if "temporal" in r.channels), key=lambda r: r.channels["temporal"])
    assert response.stats["search_temporal"]["window"] == window
    # this month's incident was left out: the window was last month alone
    assert [r.id for r in listed] == ["inc:this-month", "inc:last-month"]


@pytest.mark.parametrize("query", ["outages until now", "outages till now", "outages up to now"])
def test_an_open_end_alone_gets_no_warning_on_a_dated_index(tmp_path: Path, query: str) -> None:
    index = Index.open(indexed_graph(tmp_path, GRAPH))
    try:
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(query, k=10)
    finally:
        index.close()
    # "until now" was said to look like a time that names no window: all up to now is what was searched
    assert not [w for w in response.warnings if "looks like a time" in w]
    assert response.stats["plan_query"]["time_window"] is None
