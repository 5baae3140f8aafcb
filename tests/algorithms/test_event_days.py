"""A bound before an event named with its day ("before the outage on Nov 3", "since the
deploy on 2026-11-03", "until the end of March") is a bound at that day, on an index whose
items carry dates (``days=True``). "before the outage on Nov 3" was read as the day Nov 3
alone, the one day the question does not ask about first, and "since the outage on Nov 3" as
that day, leaving out every day since. The event lies somewhere in the day, so "before" and
"until" run to the day's end and "since" and "after" from its start.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window

NOW = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "start", "end", "phrase"),
    [("what broke before the outage on Nov 3", None, at(2026, 11, 4), "before the outage on Nov 3"),
     ("deploys since the checkout outage on Nov 3", at(2026, 11, 3), NOW, "since the checkout outage on Nov 3"),
     ("errors after the deploy on 2026-11-03", at(2026, 11, 3), NOW, "after the deploy on 2026-11-03"),
     ("incidents until the release of 3 Nov", None, at(2026, 11, 4), "until the release of 3 Nov"),
     ("incidents since the start of March", at(2026, 3, 1), NOW, "since the start of March"),
     ("incidents until the end of March", None, at(2026, 4, 1), "until the end of March")],
)  # fmt: skip
def test_a_bound_at_an_event_on_a_day(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, end, phrase)


def test_without_days_it_stays_words() -> None:
    assert parse_time_window("book a table before the show on Nov 3", NOW) is None
