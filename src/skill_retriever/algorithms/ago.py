"""A time counted back from now, "2 days ago", "3 hours ago", "a week ago": the span of that
unit it falls in. "what broke 2 days ago" asks for that day's items, not for the one instant
48 hours back nor for everything since; the phrase was only noted as "looks like a time".

The rule (now = the ``now`` given, UTC):

* "N minutes ago": that minute; "N hours ago": that clock hour (3 hours ago at 15:30 is
  12:00 to 13:00);
* "N days ago", "N weeks ago", "N fortnights ago": that calendar day ("a week ago" on a
  Wednesday is the Wednesday before, 00:00 to 24:00);
* "N months ago": that calendar month ("a month ago" in December is November); "N years ago":
  that calendar year.

"2 weeks back", "a week back" are "... ago" (with a count: "get the day back" names none), and
"half an hour ago" half of one (at 15:40 the hour from 15:00; read as "an hour ago" it was the
hour before). "more than", "over" or "at least N <unit> ago" (:func:`ago_bound`) runs up to now
less N units, "less than", "under" or "within N <unit> ago" from then to now (months 30 days,
years 365, as in "last N"): read as "N <unit> ago" alone they were that one day.

N is a number ("2", "1.5") or a word ("a", "two"), as in "last N days"; a unit with no number
is one ("day ago"), a plural none ("days ago", "many hours ago" name no number of them). A vague count names a span of those units, as far back as a person means by it: "a few"
is 2 to 5, "a couple (of)" 1 to 3, "several" 3 to 7, from the start of the furthest back to the
end of the nearest ("a few days ago" on a Thursday is from Saturday 00:00 to Tuesday 24:00;
"several hours ago" at 15:30 is 08:00 to 13:00). Read as one unit ("a few" is 3 in "the past few
days"), "a few days ago" was one day, 3 back, and the days either side of it were left out.
It is read as "yesterday" is, with or without ``days``, and as X of "since X", "until X",
"between X and Y" ("since 3 days ago": from that day's start; "since a few days ago": from
the start of 5 days ago).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from skill_retriever.algorithms.time_words import (
    AGO,
    AGO_NUM,
    DIGIT_UNIT,
    NUMBER_WORDS,
    ONE_UNIT,
    UNITS,
    VAGUE_COUNTS,
    WORD_UNIT,
)
from skill_retriever.exceptions import QueryError

__all__ = ["ago_bound", "ago_span"]

_PARTS = re.compile(
    rf"(?:(?P<n>\d+(?:\.\d+)?)\s*(?P<u>{DIGIT_UNIT})|(?P<w>{AGO_NUM})\s+(?P<wu>{WORD_UNIT})"
    rf"|half\s+an?\s+(?P<half>hour|day)|(?P<one>{ONE_UNIT}))\s+(?:ago|back)",
    re.IGNORECASE,
)
# "more than a week ago": older than it; "less than a week ago": newer. Read as "a week ago"
# alone, both were that one day.
_COMPARED_RE = re.compile(
    rf"\b(?i:(more\s+than|over|at\s+least)|(?:no\s+more|less|fewer)\s+than|under|within)\s+({AGO})(?![\w-])"
)


def ago_bound(query: str, now: datetime) -> tuple[datetime | None, datetime | None, str] | None:
    """The window "more than", "over" or "at least N <unit> ago" names, up to ``now`` less N
    units, or "less than", "under" or "within N <unit> ago", from then to ``now``, as
    ``(start, end, phrase)`` (a month 30 days, a year 365, as in "last N"); None when
    ``query`` has none.

    Raises:
        QueryError: It is further back than the year 1.
    """
    m = _COMPARED_RE.search(query)
    if m is None:
        return None
    parts = _PARTS.fullmatch(" ".join(m.group(2).split()))
    if parts is None:  # AGO and _PARTS read the same phrases
        return None
    word = (parts["u"] or parts["wu"] or parts["half"] or parts["one"]).lower()
    count = (float(parts["n"]) if parts["n"] else 0.5 if parts["half"]
             else float(NUMBER_WORDS[" ".join((parts["w"] or "one").lower().split())]))
    try:
        back = now - count * (UNITS.get(word) or UNITS[word[:-1]])
    except OverflowError as exc:
        raise QueryError(f"{m.group()!r} in the query is further back than the year 1") from exc
    return (None, back, m.group()) if m.group(1) else (back, now, m.group())


def ago_span(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The span "N <unit> ago" names (module docstring), or None when ``text`` is no such
    phrase.

    Raises:
        QueryError: It is further back than the year 1 ("99999 years ago").
    """
    m = _PARTS.fullmatch(" ".join(text.split()))
    if m is None:
        return None
    word = (m["u"] or m["wu"] or m["half"] or m["one"]).lower()
    unit = UNITS.get(word) or UNITS[word[:-1]]  # "hours" -> "hour"
    if m["n"] or m["half"]:  # "half an hour ago" at 15:40 is 15:00 to 16:00, not "an hour ago"'s 14:00
        return _span(text, float(m["n"] or 0.5), unit, now)
    count = " ".join((m["w"] or "one").lower().split())
    if count in VAGUE_COUNTS:  # from the start of the furthest back to the end of the nearest
        fewest, most = VAGUE_COUNTS[count]
        return _span(text, most, unit, now)[0], _span(text, fewest, unit, now)[1]
    return _span(text, float(NUMBER_WORDS[count]), unit, now)


def _span(text: str, count: float, unit: timedelta, now: datetime) -> tuple[datetime, datetime]:
    """The span of ``unit`` that ``count`` units before ``now`` falls in."""
    try:
        if unit >= timedelta(days=365):  # that calendar year
            return _year(now.year - round(count))
        if unit >= timedelta(days=30):  # that calendar month
            index = now.year * 12 + now.month - 1 - round(count)
            return _month(index // 12, index % 12 + 1)
        back = now - count * unit
    except (OverflowError, ValueError) as exc:
        raise QueryError(f"{text!r} in the query is further back than the year 1") from exc
    if unit < timedelta(hours=1):
        start, step = back.replace(second=0, microsecond=0), timedelta(minutes=1)
    elif unit < timedelta(days=1):
        start, step = back.replace(minute=0, second=0, microsecond=0), timedelta(hours=1)
    else:
        start, step = back.replace(hour=0, minute=0, second=0, microsecond=0), timedelta(days=1)
    return start, start + step


def _month(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=UTC)
    return start, datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)


def _year(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
