"""A range that starts now or today and runs to a date: "between now and Friday", "between today
and the end of the month", "from now until March 10" (with days), "between now and tomorrow".

Written first, now or today says the range looks ahead, so a date whose usual reading lies behind
(a weekday alone is the most recent before today, a month or a day of a month without a year the
most recent begun) is the next one: on Wednesday 2026-12-02 "between now and Friday" is from now to
the end of Friday 2026-12-04, "between now and March" to the end of March 2027. Before, "between now
and X" was no range (now is no date), and "between today and Friday" ran back from today to last
Friday, the other way from what was asked. The window runs past now: what a search over dated items
can give for it is the items dated ahead, a planned maintenance, a due date, which are what such a
question asks about; an item dated before now is in no such window, as it is in no "since today".
From now, the start is now; from today, today's 00:00, as "between today and X" takes today in.

A date that is behind whatever its reading ("between now and last Monday", "between today and
yesterday") is the range the other way round, as "between" names no order: from it up to now, or
to today's end. `date_bounds.date_bound` tries this before its other ranges.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from skill_retriever.algorithms.date_spans import day_or_instant, midnight
from skill_retriever.algorithms.month_days import DAY_OF_MONTH, Span
from skill_retriever.algorithms.time_words import DATE, MONTH_NAME, WEEKDAY_NAME

__all__ = ["from_now"]

# Groups: now (after between), today, now (after from), today, edge, the date.
_FIRST = r"(?:(now|the\s+present)|(today))"
_TO = r"(?:(?:up\s+)?(?:to|until|till)|through|thru)"


def _from_now_re(date: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?i:between\s+{_FIRST}\s+and|from\s+{_FIRST}\s+{_TO})\s+"
        rf"(?:(?i:the\s+(start|beginning|end)\s+of)\s+)?({date}|(?i:tomorrow))(?![\w-])"
    )


_RE, _DAYS_RE = _from_now_re(DATE), _from_now_re(rf"{DAY_OF_MONTH}|{DATE}")
_WEEKDAY_RE = re.compile(WEEKDAY_NAME, re.IGNORECASE)
_MONTH_RE = re.compile(MONTH_NAME)
_DAY_OF_MONTH_RE = re.compile(DAY_OF_MONTH)
_YEAR_AT_END = re.compile(r"\d{4}$")


def from_now(query: str, now: datetime, *, days: bool) -> tuple[datetime, datetime, str] | None:
    """The first range from now or today ``query`` names (module docstring) as ``(start, end,
    phrase)``, or None. ``now`` is in UTC; ``days`` reads a day of a month too ("March 10")."""
    m = (_DAYS_RE if days else _RE).search(query)
    if m is None:
        return None
    first = now if (m[1] or m[3]) else midnight(now)
    text, edge = m[6], (m[5] or "").lower()
    if text.lower() == "tomorrow":
        span = midnight(now) + timedelta(days=1), midnight(now) + timedelta(days=2)
    else:
        span = day_or_instant(text, now)
        if span[1] <= first:  # "Friday" on a Wednesday: the coming one, not last week's
            span = _ahead(" ".join(text.split()), span, first)
    end = span[0] if edge in ("start", "beginning") else span[1]
    if end > first:
        return first, end, m.group()
    start = span[1] if edge == "end" else span[0]  # behind: from it, as "between X and now"
    return start, now if first == now else first + timedelta(days=1), m.group()


def _ahead(text: str, span: Span, first: datetime) -> Span:
    """The next ``span`` a date without a year or week names that ends after ``first``: a weekday
    a week on, a month or a day of a month a year on (February 29 the next leap year's); ``span``
    itself for any other date ("last Monday", "2026-11-03")."""
    if _WEEKDAY_RE.fullmatch(text):
        return span[0] + timedelta(days=7), span[1] + timedelta(days=7)
    if not (_MONTH_RE.fullmatch(text) or _DAY_OF_MONTH_RE.fullmatch(text)) or _YEAR_AT_END.search(text):
        return span
    for years in range(1, 9):  # every day a calendar has, February 29 included, within 8 years
        try:
            ahead = span[0].replace(year=span[0].year + years), span[1].replace(year=span[1].year + years)
        except ValueError:  # February 29 of a common year
            continue
        if ahead[1] > first:
            return ahead
    return span
