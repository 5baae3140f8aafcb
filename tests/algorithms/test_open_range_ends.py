"""An open end of a range after "from X" or "since X" ("to the present", "until now", "up to now",
"to date", "to this day", "through today"; `date_bounds`), now Wednesday 2026-12-02 15:00. "incidents
from the beginning of last month to the present" read as last month alone (ultratool asks it so): the
end words were no date, so the range did not match and the last-month rule read its middle.
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


def test_the_temporal_channel_ranks_every_item_from_the_start_to_now(tmp_path: Path) -> None:
    index = Index.open(indexed_graph(tmp_path, GRAPH))
    try:
        query = "outages from the beginning of last month to the present"
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(query, k=10)
    finally:
        index.close()
    listed = sorted((r for r in response.results if "temporal" in r.channels), key=lambda r: r.channels["temporal"])
    assert response.stats["search_temporal"]["window"] == "from the beginning of last month to the present"
    # this month's incident was left out: the window was last month alone
    assert [r.id for r in listed] == ["inc:this-month", "inc:last-month"]
