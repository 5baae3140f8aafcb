"""Input a user's walkthrough found taken the wrong way:

- A query of invisible characters only (zero-width spaces, direction marks, a BOM,
  combining marks) was searched, while a blank one was refused as empty.
- Of an ANSI escape sequence only the ESC was removed: a colour code pasted from a
  terminal was searched as "[31m", and a query of colour codes only as "[31m [0m".
- ``search_many`` with one bad query among good ones searched the good ones before it,
  then raised an error that did not say which query was bad: their answers were lost.
- ``filters={"since": ""}`` meant no filter while ``" "`` was refused; ``since`` as a
  ``datetime.date`` was refused though the same day as text was read; ``kinds="skill,agent"``
  was refused as one unknown kind, with no word of passing a list.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from skill_retriever.exceptions import ConfigError, QueryError, QueryTooLongError
from skill_retriever.filters import Filters
from skill_retriever.graph import graph as compiled
from skill_retriever.querytext import clean_query
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def retriever(shared_tiny_index: Index) -> Retriever:
    return Retriever(shared_tiny_index, reranker=None, cache_size=0)


# -- queries that show nothing ------------------------------------------------------------
@pytest.mark.parametrize(
    "query",
    ["\u200b\u200e", "\ufeff", "\u0301\u0302", " \u200b\t\u20dd\u2060 ", "\x1b[31m\x1b[0m", "\x1b]0;title\x07"],
    ids=["zero-width-and-mark", "bom", "combining-only", "mixed-blank", "ansi-only", "osc-only"],
)
def test_a_query_with_nothing_visible_is_empty(retriever: Retriever, query: str) -> None:
    with pytest.raises(QueryError, match=r"^the query is empty"):
        clean_query(query, 1000)
    with pytest.raises(QueryError, match=r"^the query is empty"):
        retriever.search(query)


def test_invisible_characters_among_visible_ones_are_kept() -> None:
    # A zero-width joiner belongs to its emoji, a combining accent to its letter.
    for query in ("a\u200bb", "e\u0301", "\ufeffdeploy", "\U0001f469\u200d\U0001f4bb setup"):
        assert clean_query(query, 1000) == query


# -- ANSI escape sequences ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "clean"),
    [
        ("create \x1b[31ma PowerPoint\x1b[0m presentation", "create a PowerPoint presentation"),
        ("\x1b[1;38;5;208mpostgres\x1b[m migrations", "postgres migrations"),
        ("\x1b]8;;https://example.com\x1b\\postgres\x1b]8;;\x1b\\ migrations", "postgres migrations"),
        ("\x1b]0;a title\x07deploy", "deploy"),
        ("\x1b(Bdeploy\x1b7 now", "deploy now"),
        ("deploy \x1b canary", "deploy   canary"),  # a stray ESC is a control character: a space
    ],
    ids=["csi-colour", "csi-256", "osc-link", "osc-title", "two-char", "stray-esc"],
)
def test_ansi_escape_sequences_are_removed_whole(query: str, clean: str) -> None:
    assert clean_query(query, 1000) == clean


def test_a_coloured_query_is_searched_as_its_words(retriever: Retriever) -> None:
    coloured = retriever.search("\x1b[1mpostgres\x1b[0m \x1b[32mmigrations\x1b[0m rollback", k=5)
    plain = retriever.search("postgres migrations rollback", k=5)
    assert coloured.ids == plain.ids
    assert [r.score for r in coloured.results] == [r.score for r in plain.results]


# -- search_many: a bad query is refused before any work ----------------------------------------
class _CountingGraph:
    """The real compiled graph, counting the searches it runs."""

    def __init__(self) -> None:
        self.runs = 0

    def invoke(self, *args: Any, **kwargs: Any) -> Any:
        self.runs += 1
        return compiled.invoke(*args, **kwargs)


@pytest.mark.parametrize(
    ("queries", "says", "overrides"),
    [
        (["create a PowerPoint presentation", "", "bake"], r"^query 2 of 3: the query is empty", {}),
        (["postgres", "deploy", "\u200b"], r"^query 3 of 3: the query is empty", {}),
        (["postgres", 7], r"^query 2 of 2: the query must be text, got int", {}),
        (["postgres", "deploy since 2026-13-01"], r"^query 2 of 2: '2026-13-01' in the query is not a valid date", {}),
        (["postgres", "x" * 50], r"^query 2 of 2: the query is 50 characters, over the limit of 20", {"max_query_chars": 20}),
    ],
    ids=["empty", "invisible", "not-text", "bad-date", "too-long"],
)
def test_search_many_names_the_bad_query_and_searches_none(
    shared_tiny_index: Index, queries: list[Any], says: str, overrides: dict[str, Any]
) -> None:
    counting = _CountingGraph()
    retriever = Retriever(shared_tiny_index, reranker=None, graph=counting)
    with pytest.raises(QueryError, match=says):
        retriever.search_many(queries, **overrides)
    assert counting.runs == 0  # refused before any search: no answer was computed and lost


def test_search_many_keeps_the_kind_of_error(retriever: Retriever) -> None:
    with pytest.raises(QueryTooLongError) as info:
        retriever.search_many(["postgres", "x" * 50], max_query_chars=20)
    assert (info.value.length, info.value.limit) == (50, 20)


def test_search_many_of_good_queries_answers_each_as_search_does(retriever: Retriever) -> None:
    queries = ["postgres migrations", "deploy checkout-api with a canary", "pytest fixtures"]
    many = retriever.search_many(queries, k=3)
    assert [r.ids for r in many] == [retriever.search(q, k=3).ids for q in queries]


# -- filters ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "value", "says"), [("since", "", "empty"), ("until", "", "empty"), ("since", "  ", "blank")])
def test_an_empty_or_blank_time_filter_is_refused_alike(name: str, value: str, says: str) -> None:
    message = rf"^filters\.{name} is {says}; give a time .*or leave {name} out for no limit"
    with pytest.raises(ConfigError, match=message):
        Filters.from_spec({name: value})
    assert Filters.from_spec({name: None}) == Filters()  # null still means no limit


def test_a_date_is_its_day_start_in_utc_like_its_text(retriever: Retriever) -> None:
    day = Filters(since=date(2026, 5, 1), until=date(2026, 11, 1))  # type: ignore[arg-type]
    text = Filters.from_spec({"since": "2026-05-01", "until": "2026-11-01"})
    assert day == text
    assert day.since == datetime(2026, 5, 1, tzinfo=UTC)
    asked = retriever.search("postgres deploy", k=20, filters={"since": date(2026, 5, 1)})
    assert asked.ids and asked.ids == retriever.search("postgres deploy", k=20, filters={"since": "2026-05-01"}).ids


def test_kinds_as_one_comma_separated_string_says_to_pass_a_list(retriever: Retriever) -> None:
    hint = r"pass several kinds as a list, e\.g\. kinds=\[\"skill\", \"agent\"\], not one comma-separated string"
    with pytest.raises(ConfigError, match=r"^kinds: unknown kind\(s\) \['skill,agent'\]; .*" + hint):
        retriever.search("postgres", kinds="skill,agent")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=hint):
        Filters.from_spec({"kinds": ["skill, agent"]})
    with pytest.raises(ConfigError) as info:
        Filters(kinds=["spaceship"])
    assert "as a list" not in str(info.value)  # the hint only where a comma is
