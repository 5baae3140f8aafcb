""""on <weekday>" ("what happened on Friday") is that day, the most recent before today as
"last Friday" and "since Friday" are, on an index whose items carry dates (``days=True``).
It was only noted as a time not read (a walk of time phrases on a dated index). "on Fridays"
(every Friday) and, in a tool request, "book a table on Friday" (the coming one) stay words.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, unread_time_phrase

WED = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "day", "phrase"),
    [("what happened on Friday", 4, "on Friday"),
     ("deploys on monday", 7, "on monday"),
     ("errors on Wednesday", 2, "on Wednesday")],  # today is Wednesday: the one before, as "last Wednesday"
)  # fmt: skip
def test_on_a_weekday_is_the_latest_such_day(query: str, day: int, phrase: str) -> None:
    window = parse_time_window(query, WED, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (
        datetime(2026, 12, day, tzinfo=UTC), datetime(2026, 12, day + 1, tzinfo=UTC), phrase)


def test_every_weekday_and_a_tool_request_stay_words() -> None:
    assert parse_time_window("deploys on Fridays", WED, days=True) is None
    assert unread_time_phrase("deploys on Fridays") == "on Fridays"
    assert parse_time_window("book a table on Friday", WED) is None
