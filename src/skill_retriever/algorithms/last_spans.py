"""A span counted back from now or the calendar one before the current: "last 3 days", "in
the past week", "last week", "before last month". `temporal.parse_time_window` reads it; the
rules are in its docstring.

"last" or "previous week/month/year" with no count and no "the" before "last" is the
calendar one, whole ("last week" is Monday to Monday), as "last quarter" is (`quarters`) and
as it was already as a bound ("between last week and this week", "since the start of last
week"); "past week", "the last week", "in the last month", "last 3 weeks" are spans back
from now (7, 30 days). Read as the past 7, 30 or 365 days, "last week" asked on a Monday held
today and none of last Monday, and "since last week" began 7 days back where "since the
start of last week" began on its Monday.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from skill_retriever.algorithms.date_spans import day_or_instant
from skill_retriever.algorithms.time_words import (
    DIGIT_UNIT,
    MONTH_NAME,
    NUMBER_WORDS,
    UNITS,
    WORD_NUM,
    WORD_UNIT,
)
from skill_retriever.exceptions import QueryError

__all__ = ["last_span"]

_LAST_RE = re.compile(
    r"\b(?:(?:in|within|over|during|for|from|since)\s+(?:the\s+)?)?(?P<kw>last|past|previous)"
    rf"\s+(?:(?P<n>\d+(?:\.\d+)?)\s*(?P<du>{DIGIT_UNIT})|(?:(?P<w>{WORD_NUM})\s+)?(?P<wu>{WORD_UNIT}))\b"
    rf"(?!\s+of\s+(?:{MONTH_NAME}|the\s+(?:month|year|quarter)\b|(?:19|20)\d{{2}}))",  # "the last week of November"
    re.IGNORECASE,
)
_CALENDAR_UNITS = {"week": "week", "wk": "week", "month": "month", "year": "year", "yr": "year"}
_THE_BEFORE_RE = re.compile(r"\bthe\s+$", re.IGNORECASE)
# "before" or "until" right before a "last" span: "before last week", "until the last 3 days".
_BEFORE_RE = re.compile(r"\b(?:before|prior\s+to|until|till)\s+(?:the\s+)?$", re.IGNORECASE)
# "the week before last (week)": the calendar one before last week; it was not read at all.
_BEFORE_LAST_RE = re.compile(
    r"\b(?:(since)\s+)?(?:the\s+)?(week|month|year)\s+before\s+last(?:\s+(?:week|month|year))?(?![\w-])",
    re.IGNORECASE,
)


def last_span(query: str, now: datetime) -> tuple[datetime | None, datetime | None, str] | None:
    """The window of the first "last/past/previous" span in ``query`` as ``(start, end,
    phrase)``, or None when it has none. ``now`` is in UTC.

    Raises:
        QueryError: The span is 0 long ("in the last 0 days").
    """
    # "the previous day" is yesterday or, beside another date, that date's day before
    # (`previous_day`), never the past 24 hours: "the previous day 2026-11-20" was read so
    m = next((m for m in _LAST_RE.finditer(query) if m.group().lower().split()[-2:] != ["previous", "day"]), None)
    if (two := _BEFORE_LAST_RE.search(query)) and (m is None or two.start() <= m.start()):
        last_start = day_or_instant(f"last {two[2]}", now)[0]
        first, last = day_or_instant(f"last {two[2]}", last_start)  # last week as of last week
        return first, now if two[1] else last, two.group()
    if m is None:
        return None
    bound = _BEFORE_RE.search(query, 0, m.start())  # "before last week": up to its start
    if unit := _calendar_unit(query, m):
        first, last = day_or_instant(f"last {unit}", now)
        if bound is None:  # "since the previous week": from its start
            return first, now if m.group().lower().startswith("since") else last, m.group()
        end = first if bound.group().lower().startswith(("before", "prior")) else last
        return None, end, query[bound.start() : m.end()]
    n = " ".join((m["w"] or "one").lower().split())
    count = float(m["n"]) if m["n"] else float(NUMBER_WORDS[n])
    if count == 0:  # [now, now): every item outside it, and no word said
        raise QueryError(f"{m.group()!r} in the query names no time; write a span longer than 0, e.g. last 1 day")
    word = (m["du"] or m["wu"]).lower()
    try:
        back: datetime | None = now - count * (UNITS.get(word) or UNITS[word[:-1]])  # "hours" -> "hour"
    except OverflowError:  # "last 99999999 years": further back than datetime goes
        back = None
    if bound:
        return None, back or datetime.min.replace(tzinfo=UTC), query[bound.start() : m.end()]
    return back, now, m.group()


def _calendar_unit(query: str, m: re.Match[str]) -> str | None:
    """The calendar unit a `_LAST_RE` match names ("last week", "previous month", "the previous
    year"), or None for a span back from now ("past week", "the last month", "last 3 weeks")."""
    unit = _CALENDAR_UNITS.get((m["wu"] or "").lower())
    kw = m["kw"].lower()
    if unit is None or m["w"] or kw == "past" or (kw == "last" and _THE_BEFORE_RE.search(query, 0, m.start("kw"))):
        return None
    return unit
