"""A year in a time phrase ("incidents in 2025", "since 2024", "between 2023 and 2024") is a
window on an index whose items carry dates (``days=True``), as a month or a day is there: it
was only noted as a time not read, so "outages in 2025" ranked by the text alone. Elsewhere
(QA passages, tool requests) a year stays words of the question ("won the World Series in
1986"), as before.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [("outages in 2025", at(2025, 1, 1), at(2026, 1, 1), "in 2025"),
     ("incidents during 2024", at(2024, 1, 1), at(2025, 1, 1), "during 2024"),
     ("incidents since 2025", at(2025, 1, 1), NOW, "since 2025"),
     ("incidents after 2024", at(2025, 1, 1), NOW, "after 2024"),
     ("incidents before 2026", None, at(2026, 1, 1), "before 2026"),
     ("incidents between 2023 and 2024", at(2023, 1, 1), at(2025, 1, 1), "between 2023 and 2024"),
     ("incidents from 2024 to 2023", at(2023, 1, 1), at(2025, 1, 1), "from 2024 to 2023")],
)  # fmt: skip
def test_a_year_is_a_window_where_items_carry_dates(query: str, start: datetime | None, end: datetime,
                                                    phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


@pytest.mark.parametrize("query", ["who won the World Series in 1986", "incidents since 2025"])
def test_without_days_a_year_stays_words(query: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) is not None


@pytest.mark.parametrize("query", ["python 2025 edition", "between 1000 and 2000 rows", "in 2025-rc1 builds"])
def test_a_number_that_is_no_year_phrase_sets_no_window(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
