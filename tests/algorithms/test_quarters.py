"""A calendar quarter ("this quarter", "last quarter", "Q3 2026", "in Q3") is a window on an
index whose items carry dates (``days=True``): it was only noted as a time not read, so
"deploys this quarter" ranked by the text alone (a walk of time phrases on a dated index).
A quarter is a calendar one (Q1 is January to March); "last quarter" is the one before the
current, whole; "Q3" without a year the most recent third quarter that has begun. In a
tool request ("sales report for last quarter") it stays words, as before.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)  # in Q4 2026


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "now", "start", "end", "phrase"),
    [("deploys this quarter", NOW, at(2026, 10, 1), NOW, "this quarter"),
     ("deploys in the current quarter", NOW, at(2026, 10, 1), NOW, "current quarter"),
     ("incidents last quarter", NOW, at(2026, 7, 1), at(2026, 10, 1), "last quarter"),
     ("incidents in the previous quarter", at(2026, 2, 1), at(2025, 10, 1), at(2026, 1, 1), "previous quarter"),
     ("incidents in Q3 2026", NOW, at(2026, 7, 1), at(2026, 10, 1), "in Q3 2026"),
     ("incidents 2025-Q4", NOW, at(2025, 10, 1), at(2026, 1, 1), "2025-Q4"),
     ("incidents in q1", NOW, at(2026, 1, 1), at(2026, 4, 1), "in q1"),
     ("incidents in Q4", at(2026, 5, 1), at(2025, 10, 1), at(2026, 1, 1), "in Q4")],  # the latest begun
)  # fmt: skip
def test_a_quarter_is_a_window_where_items_carry_dates(query: str, now: datetime, start: datetime,
                                                       end: datetime, phrase: str) -> None:
    window = parse_time_window(query, now, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


@pytest.mark.parametrize("query", ["sales report for last quarter", "revenue in Q3 2026"])
def test_without_days_a_quarter_stays_words(query: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) is not None


@pytest.mark.parametrize("query", ["the q3a model", "Q5 results", "a quarter of the pods failed"])
def test_no_quarter_no_window(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
