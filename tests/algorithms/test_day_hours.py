"""A time of day on a day ("at 2026-11-03 14:00", "on 3 Nov at 2pm", "14:00 UTC on
2026-11-03") is the hour from that time, on an index whose items carry dates (``days=True``):
items' times are kept to the second, in UTC (`model.parse_timestamp`). It was read as the
whole day ("on 3 Nov at 2pm") or as nothing at all ("at 2026-11-03 14:00": an instant,
noted as the time "2026-11-03" not read). The time is UTC unless written with Z, UTC, GMT or
an offset; a zone name ("2pm PST") is not read as one, so the day alone is.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from skill_retriever.algorithms.temporal import parse_time_window
from skill_retriever.exceptions import QueryError

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)  # a Sunday
HOUR = timedelta(hours=1)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "start", "phrase"),
    [("what broke at 2026-11-03 14:00", at(2026, 11, 3, 14), "at 2026-11-03 14:00"),
     ("logs at 2026-11-03T14:05", at(2026, 11, 3, 14, 5), "at 2026-11-03T14:05"),  # was no window
     ("what broke at 2026-11-03T14:00", at(2026, 11, 3, 14), "at 2026-11-03T14:00"),
     ("incidents on 2026-11-03 14:00 UTC", at(2026, 11, 3, 14), "on 2026-11-03 14:00 UTC"),
     ("outage 2026-11-03T14:00:00+01:00", at(2026, 11, 3, 13), "2026-11-03T14:00:00+01:00"),
     ("outage 2026-11-03T14:00Z", at(2026, 11, 3, 14), "2026-11-03T14:00Z"),
     ("what broke on 3 Nov at 2pm", at(2026, 11, 3, 14), "on 3 Nov at 2pm"),
     ("what broke on Nov 3 at 14:30", at(2026, 11, 3, 14, 30), "on Nov 3 at 14:30"),
     ("what broke on 2026-11-03 at 9 a.m.", at(2026, 11, 3, 9), "on 2026-11-03 at 9 a.m."),
     ("what broke at 14:00 UTC on 2026-11-03", at(2026, 11, 3, 14), "at 14:00 UTC on 2026-11-03"),
     ("what broke at 2pm on Nov 3", at(2026, 11, 3, 14), "at 2pm on Nov 3"),
     ("errors yesterday at 3pm", at(2026, 12, 5, 15), "yesterday at 3pm"),
     ("errors yesterday at 08:30", at(2026, 12, 5, 8, 30), "yesterday at 08:30"),
     # was the whole of Dec 4: "the day before yesterday", found first, took the hour's place
     ("errors the day before yesterday at 08:30", at(2026, 12, 4, 8, 30), "the day before yesterday at 08:30"),
     ("errors at 8:30am the day before yesterday", at(2026, 12, 4, 8, 30), "at 8:30am the day before yesterday"),
     ("errors at 12am yesterday", at(2026, 12, 5, 0), "at 12am yesterday"),
     ("errors at 12pm on Nov 3", at(2026, 11, 3, 12), "at 12pm on Nov 3"),
     ("repair on April 3, 2023, at 15:00:00 PM", at(2023, 4, 3, 15), "on April 3, 2023, at 15:00:00 PM")],
)  # fmt: skip
def test_a_time_on_a_day_is_the_hour_from_it(query: str, start: datetime, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, start + HOUR, phrase)


def test_a_zone_name_is_not_read_as_utc() -> None:
    # "2pm PST" is 22:00 UTC: read as UTC, the hour would be eight hours off; the day is read.
    window = parse_time_window("what broke on Nov 3 at 2pm PST", NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(2026, 11, 3), at(2026, 11, 4), "on Nov 3")


def test_without_days_a_time_stays_words() -> None:
    # In a tool request it is an argument ("set an alarm on Nov 3 at 2pm").
    assert parse_time_window("set an alarm on Nov 3 at 2pm", NOW) is None
    assert parse_time_window("book a room at 2026-11-03 14:00", NOW) is None


@pytest.mark.parametrize("query", ["on Nov 3 at 25:00", "on Nov 3 at 13am", "on Nov 3 at 0pm", "at 2026-11-03 14:75"])
def test_a_time_of_day_that_does_not_exist_is_refused(query: str) -> None:
    with pytest.raises(QueryError, match="not a time of day"):
        parse_time_window(query, NOW, days=True)


def test_the_last_hour_of_year_9999_runs_to_the_end_of_time() -> None:
    window = parse_time_window("on 9999-12-31 at 23:30", NOW, days=True)
    assert window is not None and window.end == datetime.max.replace(tzinfo=UTC)
    with pytest.raises(QueryError, match="outside the years 1 to 9999"):
        parse_time_window("at 0001-01-01T00:30+01:00", NOW, days=True)


def test_seconds_with_a_fraction_are_read() -> None:
    window = parse_time_window("at 2026-11-03T14:00:05.250Z", NOW, days=True)
    assert window is not None and window.start == at(2026, 11, 3, 14, 0, 5)


def test_of_a_day_and_a_later_hour_the_first_named_is_read() -> None:
    # As of two days: "filed on 2018-11-22, due on July 15, 2022 at 10:00 AM" read the later hour.
    window = parse_time_window("filed on 2018-11-22, due on July 15, 2022 at 10:00 AM.", NOW, days=True)
    assert window is not None and (window.start, window.phrase) == (at(2018, 11, 22), "on 2018-11-22")


def test_a_sentence_end_after_am_is_no_part_of_the_time() -> None:
    window = parse_time_window("what broke on Nov 3 at 9 AM.", NOW, days=True)
    assert window is not None and window.phrase == "on Nov 3 at 9 AM"


@pytest.mark.parametrize(
    ("query", "start", "phrase"),
    [("incidents since 9am", at(2026, 12, 6, 9), "since 9am"),
     ("incidents since 14:00", at(2026, 12, 5, 14), "since 14:00"),  # 14:00 today is ahead of now: yesterday's
     ("errors after 10:30 UTC", at(2026, 12, 6, 10, 30), "after 10:30 UTC"),
     ("errors since yesterday at 3pm", at(2026, 12, 5, 15), "since yesterday at 3pm"),
     ("errors since the day before yesterday at 08:30", at(2026, 12, 4, 8, 30),
      "since the day before yesterday at 08:30"),  # was from Dec 4's midnight
     ("deploys since Nov 3 at 2pm", at(2026, 11, 3, 14), "since Nov 3 at 2pm")],
)  # fmt: skip
def test_since_a_time_of_day(query: str, start: datetime, phrase: str) -> None:
    # "since 9am" was only noted as a time not read; "since yesterday at 3pm" read from
    # yesterday's midnight.
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (start, NOW, phrase)


def test_after_a_time_ahead_of_now_has_no_end() -> None:
    window = parse_time_window("errors after 2 PM today", NOW, days=True)  # NOW is 12:00
    assert window is not None and (window.start, window.end) == (at(2026, 12, 6, 14), None)


def test_a_time_alone_in_a_query_that_names_a_day_is_no_bound() -> None:
    # "after 8 pm" is of May 26 here, not of today: the day is read, as before.
    window = parse_time_window("a table on May 26th, after 8 pm", NOW, days=True)
    assert window is not None and window.phrase == "on May 26th"
