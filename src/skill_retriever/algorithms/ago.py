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
    AGO_NUM,
    DIGIT_UNIT,
    NUMBER_WORDS,
    ONE_UNIT,
    UNITS,
    VAGUE_COUNTS,
    WORD_UNIT,
)
from skill_retriever.exceptions import QueryError

__all__ = ["ago_span"]

_PARTS = re.compile(
    rf"(?:(?P<n>\d+(?:\.\d+)?)\s*(?P<u>{DIGIT_UNIT})|(?P<w>{AGO_NUM})\s+(?P<wu>{WORD_UNIT})|(?P<one>{ONE_UNIT}))\s+ago",
    re.IGNORECASE,
)


def ago_span(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The span "N <unit> ago" names (module docstring), or None when ``text`` is no such
    phrase.

    Raises:
        QueryError: It is further back than the year 1 ("99999 years ago").
    """
    m = _PARTS.fullmatch(" ".join(text.split()))
    if m is None:
        return None
    word = (m["u"] or m["wu"] or m["one"]).lower()
    unit = UNITS.get(word) or UNITS[word[:-1]]  # "hours" -> "hour"
    if m["n"]:
        return _span(text, float(m["n"]), unit, now)
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
