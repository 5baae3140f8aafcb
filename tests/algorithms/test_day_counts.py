"""A number before a month that counts what follows is no day: "top 5 May releases" asks for
five of May's releases, where it was read as the day May 5 (found on a dated index: the
window held May 5's release alone). The rule (`day_counts`): "5 May" is a count after a count
word (top, first, last, best, ...), or when the month is followed by a plural word, the
things counted ("5 May releases"); an ordinal, "of", a year, or a word that introduces a
date before it ("on 5 May") makes it a day, and a day written after its month ("May 5
releases") is always one.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def day(month: int, dom: int, year: int = 2026) -> tuple[datetime, datetime]:
    return datetime(year, month, dom, tzinfo=UTC), datetime(year, month, dom + 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "query",
    ["top 5 May releases", "5 May releases", "the last 3 Nov incidents", "first 10 March deploys",
     "the 3 Nov outages", "top 5 May 2026 releases", "best 3 Nov deploys", "show the top 5 May releases"],
)  # fmt: skip
def test_a_number_that_counts_is_no_day(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
    assert unread_time_phrase(query) is None  # nor a time "not read": it is no time


@pytest.mark.parametrize(
    ("query", "span", "phrase"),
    [("May 5 releases", day(5, 5), "May 5"),
     ("releases on 5 May", day(5, 5), "on 5 May"),
     ("what broke on 5 May", day(5, 5), "on 5 May"),
     ("incidents 3 Nov", day(11, 3), "3 Nov"),
     ("the 5 May release", day(5, 5), "the 5 May"),  # singular: the day names which release
     ("the 5th May releases", day(5, 5), "the 5th May"),
     ("the 5th of May releases", day(5, 5), "the 5th of May"),
     ("list 3 May 2026 incidents", day(5, 3), "3 May 2026"),
     ("5 May at lunchtime", day(5, 5), "5 May"),  # "at" is no thing counted (at noon: the hour)
     ("top 10 Nov 3 deploys", day(11, 3), "Nov 3"),  # the count is 10, the day Nov 3
     ("top 5 releases on 5 May", day(5, 5), "on 5 May")],
)  # fmt: skip
def test_a_day_stays_a_day(query: str, span: tuple[datetime, datetime], phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (*span, phrase)
