"""Everyday time phrases from a user walkthrough ("what broke last night", "over the
weekend", "past fortnight"): each read as a window against a fixed Wednesday and a fixed
Sunday, its words taken out of the text the other channels search; time phrases still
not read are named for the caller's note, and ordinary words are neither."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from skill_retriever.algorithms.temporal import (
    TimeWindow,
    parse_time_window,
    strip_time_phrase,
    unread_time_phrase,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import QueryError
from skill_retriever.model import Node
from skill_retriever.querytext import search_text_of
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

WED = datetime(2026, 11, 11, 15, 30, tzinfo=UTC)  # a Wednesday afternoon
SUN = datetime(2026, 11, 15, 9, 0, tzinfo=UTC)  # a Sunday morning
DEV_QUERIES = Path("/work/shared/data/skills/queries/dev.jsonl")


def at(day: int, hour: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


# (query, phrase, Wednesday window, Sunday window); a window is (start, end).
CASES = [
    ("what broke last night", "last night", (at(10, 18), at(11, 6)), (at(14, 18), at(15, 6))),
    ("payments incidents last weekend", "last weekend",
     (at(7), at(9)), (at(7), at(9))),  # on a Sunday the current weekend is not complete
    ("payments incidents past weekend", "past weekend", (at(7), at(9)), (at(7), at(9))),
    ("what failed over the weekend", "over the weekend", (at(7), at(9)), (at(14), at(16))),
    ("what failed during the weekend", "during the weekend", (at(7), at(9)), (at(14), at(16))),
    ("deploys this weekend", "this weekend", (at(7), at(9)), (at(14), at(16))),
    ("errors this morning", "this morning", (at(11), at(11, 12)), (at(15), at(15, 12))),
    ("errors this afternoon", "this afternoon", (at(11, 12), at(11, 18)), (at(15, 12), at(15, 18))),
    ("errors this evening", "this evening", (at(11, 18), at(12)), (at(15, 18), at(16))),
    ("alerts yesterday morning", "yesterday morning", (at(10), at(10, 12)), (at(14), at(14, 12))),
    ("alerts Yesterday Evening", "Yesterday Evening", (at(10, 18), at(11)), (at(14, 18), at(15))),
    ("outages the day before yesterday", "the day before yesterday", (at(9), at(10)), (at(13), at(14))),
    ("what broke yesterday", "yesterday", (at(10), at(11)), (at(14), at(15))),
    ("what broke today", "today", (at(11), at(12)), (at(15), at(16))),
    ("since last night", "since last night", (at(10, 18), WED), (at(14, 18), SUN)),
    ("since the weekend", "since the weekend", (at(7), WED), (at(14), SUN)),
    ("since last weekend", "since last weekend", (at(7), WED), (at(7), SUN)),
    ("before this morning", "before this morning", (None, at(11)), (None, at(15))),
    ("after yesterday evening", "after yesterday evening", (at(11), WED), (at(15), SUN)),
]  # fmt: skip


@pytest.mark.parametrize(("query", "phrase", "wed", "sun"), CASES)
def test_named_spans_on_a_wednesday_and_a_sunday(
    query: str,
    phrase: str,
    wed: tuple[datetime | None, datetime | None],
    sun: tuple[datetime | None, datetime | None],
) -> None:
    assert parse_time_window(query, WED) == TimeWindow(*wed, phrase)
    assert parse_time_window(query, SUN) == TimeWindow(*sun, phrase)


@pytest.mark.parametrize(
    ("query", "days"),
    [("past fortnight", 14), ("deploys in the last fortnight", 14), ("previous 2 fortnights", 28)],
)
def test_fortnight_is_fourteen_days_ending_now(query: str, days: int) -> None:
    for now in (WED, SUN):
        window = parse_time_window(query, now)
        assert window is not None and window.phrase == query.removeprefix("deploys ")
        assert (window.start, window.end) == (now - timedelta(days=days), now)


def test_last_weekend_on_saturday_and_monday() -> None:
    # Saturday: this weekend is under way, so "last weekend" is the one before it.
    sat = at(14, 10)
    assert parse_time_window("last weekend", sat) == TimeWindow(at(7), at(9), "last weekend")
    assert parse_time_window("this weekend", sat) == TimeWindow(at(14), at(16), "this weekend")
    # Monday just after midnight: the weekend that just ended is complete.
    mon = at(16, 0) + timedelta(minutes=5)
    assert parse_time_window("last weekend", mon) == TimeWindow(at(14), at(16), "last weekend")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what broke last night", "what broke"),
        ("payments incidents last weekend", "payments incidents"),
        ("payments incidents over the weekend, and why?", "payments incidents, and why?"),
        ("errors this morning on checkout-api", "errors on checkout-api"),
        ("deploys in the past fortnight", "deploys"),
    ],
)
def test_read_phrase_leaves_the_searched_text(query: str, expected: str) -> None:
    assert strip_time_phrase(query, parse_time_window(query, WED)) == expected
    assert search_text_of(query, RetrievalConfig(now=WED))[0] == expected


@pytest.mark.parametrize(
    ("query", "phrase"),
    [
        ("revenue dashboards like last quarter", "last quarter"),
        ("what did we ship this sprint", "this sprint"),
        ("checkout errors at lunchtime", "at lunchtime"),
        ("deploys at 3pm", "at 3pm"),
        ("what breaks tonight", "tonight"),
        ("failures on Monday", "on Monday"),
        ("outages in 2025", "in 2025"),
        ("incidents at the weekend", "at the weekend"),
        ("freeze next week", "next week"),
        # a date with a time of day: not read as one day ("from X until Y" and "until X"
        # are a window and an upper bound: tests/test_fix_time_words.py)
        ("release 2026-12-03 10:00", "2026-12-03"),
        # a bare date: in a tool request most often an argument (the module docstring)
        ("payments incidents on 2026-12-03", "2026-12-03"),
        ("2026-11-03 checkout outage", "2026-11-03"),
    ],
)
def test_time_phrases_still_unread_are_named(query: str, phrase: str) -> None:
    assert parse_time_window(query, WED) is None
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize(
    "query",
    ["weekend cabin rental", "night mode toggle", "morning standup notes template",
     "spring boot config", "SLA is 6am for the nightly job", "the last iteration of the loop",
     "evening out the load across shards", "backup-2026-12-03.tar restore",
     "release/2026-12-03 branch"],
)  # fmt: skip
def test_ordinary_words_are_no_window_and_no_note(query: str) -> None:
    for now in (WED, SUN):
        assert parse_time_window(query, now) is None
    if "2026" not in query:  # a date inside a name stays noted, as before
        assert unread_time_phrase(query) is None


def test_a_date_that_does_not_exist_is_a_clear_error() -> None:
    with pytest.raises(QueryError, match="2026-02-30"):
        parse_time_window("incidents since 2026-02-30", WED)


# Of the 50 dev queries, these three already named a time before this change ("Q3",
# "Since" as a conjunction, "last month"); every other one must stay without either.
DEV_KNOWN = {"q014": (None, "Q3"), "q023": (None, "Since the orders"), "q041": ("last month", None)}


@pytest.mark.skipif(not DEV_QUERIES.exists(), reason=f"{DEV_QUERIES} is not here")
def test_skill_queries_gain_no_window_and_no_note() -> None:
    seen = {}
    for line in DEV_QUERIES.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for now in (WED, SUN):
            window = parse_time_window(row["query"], now)
            found = (window.phrase if window else None, None if window else unread_time_phrase(row["query"]))
            if found != (None, None):
                seen[row["id"]] = found
    assert seen == {k: DEV_KNOWN.get(k) for k in seen}


@pytest.fixture
def retriever(tmp_path: Path) -> Iterator[Retriever]:
    nodes = [
        Node(id="incident:night", kind="incident", name="night", text="payments outage card declines",
             created="2026-11-10T23:00:00Z"),
        Node(id="incident:noon", kind="incident", name="noon", text="payments outage card declines",
             created="2026-11-10T12:00:00Z"),
        Node(id="incident:weekend", kind="incident", name="weekend", text="payments outage card declines",
             created="2026-11-08T03:00:00Z"),
    ]  # fmt: skip
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index.add(nodes, [])
    yield Retriever(index, RetrievalConfig(now=WED), reranker=None, cache_size=0)
    index.close()


def temporal_ids(resp: object) -> list[str]:
    results = resp.results  # type: ignore[attr-defined]
    return [i for _, i in sorted((r.channels["temporal"], r.id) for r in results if "temporal" in r.channels)]


def test_search_reads_last_night_and_the_weekend(retriever: Retriever) -> None:
    resp = retriever.search("payments outage last night")
    assert resp.stats["plan_query"]["time_window"] == "last night"
    assert temporal_ids(resp) == ["incident:night"]
    resp = retriever.search("payments outage over the weekend")
    assert temporal_ids(resp) == ["incident:weekend"]
    assert not any("looks like a time" in w for w in resp.warnings)


@pytest.mark.parametrize(("query", "phrase"), [
    ("payments outage at lunchtime", "at lunchtime"),
    ("payments outage the other day", "the other day"),  # was passed over in silence
    ("payments outage in the last week of November", "last week of November"),  # was the past 7 days
])  # fmt: skip
def test_search_notes_a_time_it_does_not_read(retriever: Retriever, query: str, phrase: str) -> None:
    resp = retriever.search(query)
    assert resp.stats["plan_query"]["time_window"] is None
    assert any(f"{phrase!r} looks like a time" in w for w in resp.warnings)


@pytest.mark.parametrize(
    ("query", "end", "phrase"),
    [("errors before the last 3 days", WED - timedelta(days=3), "before the last 3 days"),
     ("errors before the last week", WED - timedelta(days=7), "before the last week"),
     # a calendar week or month: "before" leaves it out, "until" takes it in (they were
     # 7 and 30 days back from now)
     ("incidents before last week", at(2), "before last week"),
     ("deploys until last month", datetime(2026, 11, 1, tzinfo=UTC), "until last month"),
     ("deploys until the previous week", at(9), "until the previous week")],
)  # fmt: skip
def test_before_a_last_span_ends_where_it_starts(query: str, end: datetime, phrase: str) -> None:
    # "before last week" was read as "last week", the very days it leaves out.
    window = parse_time_window(query, WED)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (None, end, phrase)


@pytest.mark.parametrize(
    ("query", "start", "phrase"),
    [("deploys since the start of the month", datetime(2026, 11, 1, tzinfo=UTC), "since the start of the month"),
     ("incidents since the beginning of this week", datetime(2026, 11, 9, tzinfo=UTC),
      "since the beginning of this week"),
     ("incidents year to date", datetime(2026, 1, 1, tzinfo=UTC), "year to date"),
     ("incidents YTD", datetime(2026, 1, 1, tzinfo=UTC), "YTD"),
     ("errors month-to-date", datetime(2026, 11, 1, tzinfo=UTC), "month-to-date")],
)  # fmt: skip
def test_since_the_start_of_this_unit_is_this_unit(query: str, start: datetime, phrase: str) -> None:
    # Each was no window: "since the start" was noted as a time not read, "year to date" not even that.
    window = parse_time_window(query, WED)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, WED, phrase)
