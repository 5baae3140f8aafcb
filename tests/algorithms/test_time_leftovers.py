"""Time phrases that were read wrong or passed over in silence (a walk of leftovers): "more
than a week ago" was that one day, "prior to yesterday" yesterday itself, "half an hour ago"
the hour before; "the week before last", "two weeks back", "in the last couple hours",
"in early November" named no window and no note; "the last week of November" was the past 7
days. Those a person means one way are read; the rest ("the other day", "H1 2026") are named
by `unread_time_phrase`, which the search's warnings say.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

NOW = datetime(2026, 12, 6, 17, 30, tzinfo=UTC)  # a Sunday


def at(month: int, day: int, hour: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("errors more than a week ago", None, NOW - timedelta(days=7), "more than a week ago"),
    ("errors over a year ago", None, NOW - timedelta(days=365), "over a year ago"),
    ("errors at least 2 hours ago", None, NOW - timedelta(hours=2), "at least 2 hours ago"),
    ("errors less than 3 days ago", NOW - timedelta(days=3), NOW, "less than 3 days ago"),
    ("errors under a month ago", NOW - timedelta(days=30), NOW, "under a month ago"),
    ("errors half an hour ago", at(12, 6, 17), at(12, 6, 18), "half an hour ago"),  # was 16:00 to 17:00
    ("deploys two weeks back", at(11, 22), at(11, 23), "two weeks back"),
    ("deploys the week before last", at(11, 16), at(11, 23), "the week before last"),
    ("deploys the week before last week", at(11, 16), at(11, 23), "the week before last week"),
    ("deploys the month before last", at(10, 1), at(11, 1), "the month before last"),
    ("deploys since the week before last", at(11, 16), NOW, "since the week before last"),
    ("errors prior to yesterday", None, at(12, 5), "prior to yesterday"),
    ("errors prior to last week", None, at(11, 23), "prior to last week"),
    ("errors in the last couple hours", NOW - timedelta(hours=2), NOW, "in the last couple hours"),
    ("errors in the last several days", NOW - timedelta(days=5), NOW, "in the last several days"),
    # the vague span of "a couple of days ago" still, "a couple" a count of 2 only in "last N"
    ("errors a couple days ago", at(12, 3), at(12, 6), "a couple days ago"),
    ("errors couple days ago", at(12, 3), at(12, 6), "couple days ago"),
])  # fmt: skip
def test_a_leftover_phrase_is_read(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    read_both_ways(query, NOW, start, end, phrase)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("errors in early November", at(11, 1), at(12, 1), "in early November"),
    ("errors mid-November", at(11, 1), at(12, 1), "mid-November"),
    ("releases in late Nov 2025", at(11, 1, year=2025), at(12, 1, year=2025), "in late Nov 2025"),
])  # fmt: skip
def test_early_mid_or_late_in_a_month_is_that_month_where_items_carry_dates(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)
    # over QA passages it is words of the question ("the Late-May 1998 tornado outbreak")
    assert parse_time_window(query, NOW) is None


@pytest.mark.parametrize(("query", "phrase"), [
    ("errors the other day", "the other day"),
    ("errors in the last week of November", "last week of November"),  # was the past 7 days
    ("revenue in H1 2026", "H1 2026"),
    ("revenue in the first half of 2026", "first half of 2026"),
])  # fmt: skip
def test_a_phrase_not_read_is_named(query: str, phrase: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize("query", ["roll back 2 releases", "h1 heading styles", "a day in the life"])
def test_no_time_no_window_and_no_note(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
    assert unread_time_phrase(query) is None
