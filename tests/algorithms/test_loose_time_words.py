"""Time words that were read wrong or passed over (a walk of leftovers, now Wednesday 2026-12-02
15:00): "the previous day 2026-11-20" was the past 24 hours, "since early last week" last week
alone, "in recent weeks" the past 7 days; "failed overnight", "this fortnight" and, where items
carry dates, "what broke Monday" named no window. "before the outage" names an event no rule
can date, and stays words. Then (dates9): "since the middle of last week" was from last Monday
with days (an event in last week), "from early last week" the whole week, and without days "what
broke Monday" was not noted as a time not read, nor "what broke Monday or Tuesday" read at all.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from time_readings import read_both_ways

from skill_retriever.algorithms.temporal import (
    parse_time_window,
    strip_time_phrase,
    unread_time_phrase,
)

NOW = datetime(2026, 12, 2, 15, tzinfo=UTC)  # a Wednesday


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    # a bound at a part of a period: from its start or end, up to its start or end (was the whole period)
    ("deploys since early last week", at(11, 23), NOW, "since early last week"),
    ("deploys since late last week", at(11, 26), NOW, "since late last week"),
    ("deploys after late last week", at(11, 30), NOW, "after late last week"),
    ("errors before late last month", None, at(11, 16), "before late last month"),
    ("errors until mid last week", None, at(11, 29), "until mid last week"),
    # "recent <units>": the past few (3), as "the past few weeks" (was "recent" alone, 7 days)
    ("incidents in recent weeks", NOW - timedelta(weeks=3), NOW, "in recent weeks"),
    ("outages over recent months", NOW - timedelta(days=90), NOW, "over recent months"),
    # "this fortnight": the past 14 days, as "the past fortnight" (was none)
    ("deploys this fortnight", NOW - timedelta(days=14), NOW, "this fortnight"),
    # "overnight" after a verb: "last night" (was none)
    ("what failed overnight", at(12, 1, 18), at(12, 2, 6), "overnight"),
    ("what changed overnight in prod?", at(12, 1, 18), at(12, 2, 6), "overnight"),
    # "the previous day" beside another date is not the past 24 hours: the date is read
    ("errors yesterday and the previous day", at(12, 1), at(12, 2), "yesterday"),
    # "the middle of last week" is its middle part, as "mid last week"; with days it was read as an
    # event in last week, from its Monday, without from the Tuesday
    ("deploys since the middle of last week", at(11, 24), NOW, "since the middle of last week"),
    ("deploys since mid last week", at(11, 24), NOW, "since mid last week"),
    ("errors since the middle of last month", at(11, 8), NOW, "since the middle of last month"),
    # "from early last week", a part of a period after "from" alone, is that part, as "from last week"
    # is that week and "posts from last month" (metatool) that month; it was the whole of last week
    ("deploys from early last week", at(11, 23), at(11, 27), "from early last week"),
    ("logs from late last week", at(11, 26), at(11, 30), "from late last week"),
    ("errors from the middle of last week", at(11, 24), at(11, 29), "from the middle of last week"),
    ("posts from mid last month", at(11, 8), at(11, 24), "from mid last month"),
    # a part as the first of a range is from the part's start to the range's end: "to yesterday"
    # was dropped, the whole of last week read
    ("deploys from early last week to yesterday", at(11, 23), at(12, 2), "from early last week to yesterday"),
    ("deploys from the middle of last week to yesterday", at(11, 24), at(12, 2),
     "from the middle of last week to yesterday"),
    ("errors since late last week until today", at(11, 26), at(12, 3), "since late last week until today"),
    ("errors between early last week and yesterday", at(11, 23), at(12, 2), "between early last week and yesterday"),
    # ... and as the last, to the part's end; other firsts and lasts as they were
    ("errors from last Friday to mid last week", at(11, 27), at(11, 29), "from last Friday to mid last week"),
    ("deploys from last Monday to yesterday", at(11, 30), at(12, 2), "from last Monday to yesterday"),
    ("deploys from the start of last week until today", at(11, 23), at(12, 3),
     "from the start of last week until today"),
    # "from the start/end of" last week is that part, as "from early/late last week" (it was the whole week;
    # "since the start of last week" is from its Monday, as "since early last week")
    ("deploys from the start of last week", at(11, 23), at(11, 27), "from the start of last week"),
    ("logs from the end of last week", at(11, 26), at(11, 30), "from the end of last week"),
    ("posts from the beginning of last month", at(11, 1), at(11, 16), "from the beginning of last month"),
    ("deploys since the start of last week", at(11, 23), NOW, "since the start of last week"),
    # ... but "from the start of this year" is a bound up to now, as "this year" runs to now, as it was
    ("from the beginning of this year", at(1, 1), NOW, "from the beginning of this year"),
])  # fmt: skip
def test_a_loose_time_phrase_is_read(query: str, start: datetime | None, end: datetime, phrase: str) -> None:
    read_both_ways(query, NOW, start, end, phrase)


def test_the_previous_day_beside_a_date_is_that_date_never_the_past_24_hours() -> None:
    query = "what broke the previous day 2026-11-20"
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (at(11, 20), at(11, 21), "2026-11-20")
    # without days the date is a tool request's argument: no window, and the date is noted
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == "2026-11-20"
    assert parse_time_window("errors on Nov 3 and the previous day", NOW) is None
    # ultratool: "which is Friday" is no day past; the past 24 hours was read, which no one asked
    assert parse_time_window("book a room on the previous day, which is Friday", NOW, days=True) is None
    query = "book the fifth meeting room on the previous day, which is Friday, from 2 PM to 4 PM"
    window = parse_time_window(query, NOW, days=True)  # ultratool 2772: the hours are read, not that span
    assert window is not None and window.phrase == "from 2 PM to 4 PM"


@pytest.mark.parametrize(("query", "day", "phrase"), [
    ("what broke Monday", at(11, 30), "Monday"),
    ("what changed friday?", at(11, 27), "friday"),
    ("what broke Wednesday", at(11, 25), "Wednesday"),  # today is Wednesday: the one before
    ("Deployed Sunday, rolled back Monday", at(11, 29), "Sunday"),
])  # fmt: skip
def test_a_weekday_after_a_past_verb_is_the_latest_such_day_where_items_carry_dates(
    query: str, day: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None
    assert (window.start, window.end, window.phrase) == (day, day + timedelta(days=1), phrase)
    assert parse_time_window(query, NOW) is None  # "schedule a call Monday": an argument
    # ... but noted as a time not read, as "on Monday" is (it was passed over in silence)
    assert unread_time_phrase(query) == phrase


@pytest.mark.parametrize(("query", "start", "end", "phrase"), [
    ("what broke Monday or Tuesday", at(11, 30), at(12, 2), "Monday or Tuesday"),
    ("what failed friday or monday?", at(11, 27), at(12, 1), "friday or monday"),  # the span of both
])  # fmt: skip
def test_two_weekdays_with_or_after_a_past_verb_are_the_span_of_both(
    query: str, start: datetime, end: datetime, phrase: str
) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None  # it was none, with days or without
    assert (window.start, window.end, window.phrase) == (start, end, phrase)
    assert parse_time_window(query, NOW) is None
    assert unread_time_phrase(query) == phrase
    # three days, or a name after the second, stay words, as a range's first day does
    for words in ("what broke Monday or Tuesday or Friday", "what broke Monday or Tuesday Night Football"):
        assert parse_time_window(words, NOW, days=True) is None


@pytest.mark.parametrize(("query", "phrase"), [
    ("what broke on Monday or Tuesday", "on Monday or Tuesday"),
    ("what broke on Tuesday or on Monday", "on Tuesday or on Monday"),
])  # fmt: skip
def test_two_weekdays_with_or_after_on_are_the_span_of_both_as_without_on(query: str, phrase: str) -> None:
    window = parse_time_window(query, NOW, days=True)
    assert window is not None  # it was "on Monday" alone, or "on Tuesday" alone
    assert (window.start, window.end, window.phrase) == (at(11, 30), at(12, 2), phrase)
    assert parse_time_window(query, NOW) is None  # as "on Monday": read only where items carry dates
    assert unread_time_phrase(query) == phrase  # ... and noted whole where they do not
    assert parse_time_window("deploys on Mondays or Tuesdays", NOW, days=True) is None  # every such day


def test_the_note_of_a_weekday_alone_is_the_first_time_phrase_written() -> None:
    assert unread_time_phrase("what broke Monday since the outage") == "Monday"
    assert unread_time_phrase("since the outage, what broke Monday") == "since the outage"
    assert unread_time_phrase("my Monday mornings") is None  # no past verb: no time


@pytest.mark.parametrize("query", [
    "Monday.com integration", "what broke monday.com", "Cyber Monday sales report", "Black Friday deals",
    "we watched Monday Night Football", "notes from the Monday standup", "deploys every Friday", "Mondays off",
    "what failed Mondays", "schedule it for next Monday", "finish it by Friday", "worked Monday to Friday",
    # metatool and ultratool requests, each read as last week's day by a weekday alone in any place
    "a meme about my Monday mornings", "It's a casual Friday at work", "crossword for my Sunday school class",
    "rainfall in Chicago on the upcoming Saturday", "cancel the alarm for Saturday morning at 8 o'clock",
    "an overnight build", "overnight shipping to Paris", "overnight builds failing",
])  # fmt: skip
def test_a_weekday_or_overnight_in_a_name_or_before_a_noun_stays_words(query: str) -> None:
    assert parse_time_window(query, NOW, days=True) is None
    assert parse_time_window(query, NOW) is None


def test_a_bound_at_an_event_no_rule_dates_stays_words() -> None:
    query = "errors before the outage"
    for days in (False, True):
        window = parse_time_window(query, NOW, days=days)
        assert window is None
        assert strip_time_phrase(query, window) == query  # the keyword channel reads all of it
