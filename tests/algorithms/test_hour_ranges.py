"""A range of hours ("from 9am to 5pm yesterday", "between 9am and 5pm", "on Dec 1 from 9 am
to 11 am"): from the first time to the second, on an index whose items carry dates
(``days=True``), as a time of day on a day is (`day_hours`). "from 9am to 5pm yesterday" read
only the hour from 5pm yesterday, and "between 9am and 5pm" no window at all."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skill_retriever.algorithms.temporal import parse_time_window, strip_time_phrase
from skill_retriever.exceptions import QueryError

NOW = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)  # a Wednesday


def at(month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("errors from 9am to 5pm yesterday", at(12, 8, 9), at(12, 8, 17), "from 9am to 5pm yesterday"),
    ("errors yesterday from 9am to 5pm", at(12, 8, 9), at(12, 8, 17), "yesterday from 9am to 5pm"),
    ("deploys between 9am and 5pm", at(12, 9, 9), at(12, 9, 17), "between 9am and 5pm"),  # today's
    ("deploys between 4pm and 6pm", at(12, 8, 16), at(12, 8, 18), "between 4pm and 6pm"),  # not begun: yesterday's
    ("the meeting from 9 am to 11 am on December 1st", at(12, 1, 9), at(12, 1, 11), "from 9 am to 11 am on December 1st"),
    ("on Nov 3 between 14:00 and 16:30 UTC", at(11, 3, 14), at(11, 3, 16, 30), "on Nov 3 between 14:00 and 16:30 UTC"),
    ("alerts from 10pm to 2am on 2026-12-05", at(12, 5, 22), at(12, 6, 2), "from 10pm to 2am on 2026-12-05"),  # past midnight
    ("from 9:00+01:00 to 10:00+01:00 on Dec 2", at(12, 2, 8), at(12, 2, 9), "from 9:00+01:00 to 10:00+01:00 on Dec 2"),
])  # fmt: skip
def test_a_range_of_hours_runs_from_the_first_time_to_the_second(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None and (window.start, window.end, window.phrase) == (start, end, phrase)
    assert phrase not in strip_time_phrase(query, window)


def test_without_days_a_range_of_hours_is_words() -> None:
    # in a tool request it is an argument ("book a room from 9am to 5pm"), as a time of day is
    assert parse_time_window("book a room between 9am and 5pm", NOW) is None


def test_a_range_with_a_day_elsewhere_in_the_query_is_not_read_as_today() -> None:
    window = parse_time_window("on Nov 3, the job ran between 9am and 5pm", NOW, days=True)
    assert window is not None and (window.start, window.end) == (at(11, 3), at(11, 4))


def test_an_hour_the_clock_has_not_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="not a time of day"):
        parse_time_window("from 9am to 25:00 yesterday", NOW, days=True)


@pytest.mark.parametrize(("query", "phrase"), [
    # a weekday named elsewhere is the range's day, not today
    ("a job on Saturday afternoons from 14:00 to 18:00", "on Saturday"),
    # of a day and a range, the first named is read, as of a day and an hour
    ("stats on February 20th, then the meeting from 9:00 to 11:00 on February 19th", "on February 20th"),
    # a span between dates is read before it, as before an hour
    ("power from 9:00 a.m. to 6:00 p.m. on July 1st, 2022, and stats from January 1st, 2022 to December 31st, 2022",
     "from January 1st, 2022 to December 31st, 2022"),
])  # fmt: skip
def test_a_range_of_hours_gives_way_as_an_hour_does(query: str, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None and window.phrase == phrase


def test_of_an_hour_and_a_range_the_first_named_is_read() -> None:
    query = "cancel the meeting today at 14:00 and book a room from 9:00 to 11:00 on March 16th"
    window = parse_time_window(query, NOW, days=True)
    assert window is not None and window.phrase == "today at 14:00"


@pytest.mark.parametrize(("query", "phrase"), [
    # ultratool 2411, 519, 220: the phrase written first is read, as of a day and an
    # hour; the range of hours was read before them because of its kind, wherever it stood
    ("book a conference room for a meeting on the 20th of this month from 9 am to 12 pm", "this month"),
    ("contact the recently posted tutoring position, from 4 pm to 7 pm, by email", "recently"),
    ("After the recent adjustment of my routine, change my alarm from 7:00 AM to 8:15 AM", "recent"),
    ("what changed this month, and the deploy yesterday at 2pm", "this month"),  # an hour gives way too
    # written first, the hours are read still; so where the others read the hour's own day
    ("the latest deploys on Dec 1 at 2pm", "on Dec 1 at 2pm"),
    ("from 9am to 5pm yesterday, the latest deploys", "from 9am to 5pm yesterday"),
    ("errors on Dec 1 at 2pm, the latest first", "on Dec 1 at 2pm"),
])  # fmt: skip
def test_a_phrase_written_before_the_hours_is_read(query: str, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None and window.phrase == phrase
