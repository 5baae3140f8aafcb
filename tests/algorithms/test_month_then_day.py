"""A month name followed by a day ("since Nov 3", "after January 1, 2017") is not read as the
whole month.

Found walking an incident index: "incidents since Nov 3" was read as "since Nov", from
November 1st, so incidents of Nov 1 and 2 were "dated inside the query's time window";
"after January 1, 2017" as after January of this year, nine years off; "until October 6"
up to November 1st. Such a phrase now sets no window and is named as a time not read,
as "between 1 and 5 Nov" is (a day of a month is not read as a window: in a tool request it
is an argument). On an index whose items carry dates they are read as windows
(``days=True``; test_month_days.py).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("query", "phrase"), [
    ("incidents since Nov 3", "since Nov 3"),
    ("employees who joined after January 1, 2017", "January 1"),
    ("weather until October 6 in East Lansing", "until October 6"),
    ("outages in November 5th", "November 5th"),
    ("incidents before March 20th", "March 20th"),
])  # fmt: skip
def test_a_month_then_a_day_sets_no_window_and_is_named(query: str, phrase: str) -> None:
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("incidents since Nov 2025", datetime(2025, 11, 1, tzinfo=UTC), NOW, "since Nov 2025"),
    ("incidents in November", datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC), "in November"),
    ("since March 2026 3 incidents", datetime(2026, 3, 1, tzinfo=UTC), NOW, "since March 2026"),
    ("incidents since November, 3 of them", datetime(2026, 11, 1, tzinfo=UTC), NOW, "since November"),
])  # fmt: skip
def test_a_month_alone_or_with_its_year_is_still_the_month(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    assert parse_time_window(query, NOW) == TimeWindow(start, end, phrase)
