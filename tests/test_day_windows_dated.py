"""A day of a month in a query ("incidents since Nov 3", "what broke on 2026-11-03") is a
time window on an index whose items carry dates, and stays words of the query on one
where none does (a tool set, skills, QA passages).

Found walking an incident index: "incidents since Nov 3", the most natural question
there, set no window (only a note that it looked like a time), so the incidents since
November 3rd were not what came first. On a tool set such a date is an argument ("book a
table on 2026-12-03") that the text channels must keep: there nothing changes.

Each builds a small real index (HashingEmbedder) through the Index API and searches it
with the real Retriever, one search and a batch.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from skill_retriever import answer_cache
from skill_retriever.config import RetrievalConfig
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.retriever_args import search_texts
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)
UNREAD = "looks like a time but names no window"


def incidents() -> list[Node]:
    return [
        Node(id=f"incident:{day}", kind="incident", name=f"checkout outage {day}",
             text=f"Checkout was down on November {day}.", created=f"2026-11-{day:02d}T10:00:00Z")
        for day in (1, 2, 3, 4, 20)
    ]  # fmt: skip


def tools() -> list[Node]:
    return [
        Node(id="tool:book", kind="tool", name="book_table", text="Book a restaurant table on a given date."),
        Node(id="tool:weather", kind="tool", name="weather", text="The weather forecast for a city."),
    ]


def retriever(index: Index) -> Retriever:
    return Retriever(index, RetrievalConfig(now=NOW, use_calibration=False), reranker=None, cache_size=0)


MakeIndex = Callable[[list[Node]], Index]  # the `make_index` fixture (conftest.py)


@pytest.mark.parametrize(
    ("query", "phrase", "inside"),
    [("checkout incidents since Nov 3", "since Nov 3", {"incident:3", "incident:4", "incident:20"}),
     ("checkout incidents between 2 and 4 Nov", "between 2 and 4 Nov", {"incident:2", "incident:3", "incident:4"}),
     ("what broke checkout on 2026-11-03", "on 2026-11-03", {"incident:3"})],
)  # fmt: skip
def test_a_day_is_a_window_where_items_carry_dates(make_index: MakeIndex, query: str, phrase: str,
                                                   inside: set[str]) -> None:
    found = retriever(make_index(incidents())).search(query, k=5)
    assert found.stats["plan_query"]["time_window"] == phrase
    assert {r.id for r in found.results[: len(inside)]} == inside  # the window's items first
    assert not [w for w in found.warnings if UNREAD in w]


def test_a_day_stays_words_where_no_item_carries_one(make_index: MakeIndex) -> None:
    found = retriever(make_index(tools())).search("book a table on 2026-12-03", k=2)
    assert found.stats["plan_query"]["time_window"] is None
    assert not [w for w in found.warnings if UNREAD in w]  # as before: no time applies here


def test_the_batch_embeds_what_the_search_searches() -> None:
    config = RetrievalConfig(now=NOW)
    query = "checkout incidents since Nov 3"
    assert search_texts([(query, config)], dated=True) == ["checkout incidents"]
    assert search_texts([(query, config)], dated=False) == [query]


def test_the_batch_on_a_dated_index_answers_as_one_search(make_index: MakeIndex) -> None:
    index = make_index(incidents())
    queries = ["checkout incidents since Nov 3", "checkout incidents on 2026-11-01"]
    batch = retriever(index).search_many(queries, k=3)
    alone = [retriever(index).search(q, k=3) for q in queries]
    assert [[r.id for r in b.results] for b in batch] == [[r.id for r in a.results] for a in alone]
    assert [b.stats["plan_query"]["time_window"] for b in batch] == ["since Nov 3", "on 2026-11-01"]


def test_a_day_reads_the_clock_only_where_it_is_a_window() -> None:
    config = RetrievalConfig()
    assert answer_cache.reads_the_clock("incidents since Nov 3", config, dated=True)
    assert not answer_cache.reads_the_clock("incidents since Nov 3", config, dated=False)


def releases() -> list[Node]:
    return [
        Node(id=f"deploy:{day}", kind="deploy", name=f"checkout release {day}",
             text=f"Checkout release of May {day}.", created=f"2026-05-{day:02d}T10:00:00Z")
        for day in (2, 5, 9, 15, 20, 28)
    ]  # fmt: skip


def test_a_number_that_counts_is_no_day(make_index: MakeIndex) -> None:
    # "top 5 May releases" was read as the day May 5: the window held its one release, and
    # the temporal channel put it first; five releases of May are asked for.
    found = retriever(make_index(releases())).search("top 5 May releases", k=5)
    assert found.stats["plan_query"]["time_window"] is None
    assert not [w for w in found.warnings if UNREAD in w]  # no time "not read" either: it is a count
    assert len(found.results) == 5
    on_the_day = retriever(make_index(releases())).search("releases on 5 May", k=5)
    assert on_the_day.stats["plan_query"]["time_window"] == "on 5 May"
    assert on_the_day.results[0].id == "deploy:5"


def test_a_time_of_day_is_the_hour_from_it(make_index: MakeIndex) -> None:
    # Items' times are kept to the second: "on Nov 3 at 2pm" read as the day put the
    # morning's and the evening's failures level with the one at 14:20.
    nodes = [Node(id=f"incident:{hour}", kind="incident", name=f"checkout outage at {hour}",
                  text="Checkout was down.", created=f"2026-11-03T{hour}:20:00Z") for hour in ("09", "14", "18")]  # fmt: skip
    found = retriever(make_index(nodes)).search("what broke checkout on Nov 3 at 2pm", k=3)
    assert found.stats["plan_query"]["time_window"] == "on Nov 3 at 2pm"
    assert found.results[0].id == "incident:14"


@pytest.mark.parametrize("query", ["what broke checkout on Nov 3 at 2pm PST", "checkout outages 14:00 CET on 2026-11-03"])
def test_a_zone_name_left_unread_is_said(make_index: MakeIndex, query: str) -> None:
    # "2pm PST" is 22:00 UTC: the hour cannot be read as UTC, so the day alone is, which the
    # answer said nothing of: the caller took the day's items for the hour's.
    found = retriever(make_index(incidents())).search(query, k=3)
    said = [w for w in found.warnings if "time zone" in w]
    assert len(said) == 1
    assert "the whole day" in said[0] and "+01:00" in said[0]
    assert found.stats["plan_query"]["time_window"] in ("on Nov 3", "on 2026-11-03")
