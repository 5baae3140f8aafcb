"""A range between two dates and a bound at one: "between X and Y", "from X to Y", "since X
until Y", "since X", "after X", "before X", "until X" and, with days, a bound at an event named
with its day ("before the outage on Nov 3"). A part of a calendar period as the first or last of
a range is from the part's start or to its end (`period_parts`): "from early last week to
yesterday" is last Monday to yesterday's end; the older "last week" rule read it whole and
dropped "to yesterday". An open end after "from X" or "since X", "to the present", "until now", "up to
now", "to date", "to this day", runs to now, as "since X" does: "from the beginning of last month to the
present" read as last month alone, the end words dropped; so does "between X and now" or "and the
present" (X ahead of now: from now to X); "between now and X" or "from today to X" looks ahead (`from_now`).
With days, two days with a dash or "through" and no "from" ("March 3 - March 10") are a range too. With
no "from" or "between", two time points that are each a window alone, "last Monday through yesterday",
"yesterday to today", are read as "from X to Y" (`_bare_range`): they read as the first alone, and "last
Monday until yesterday" as "until yesterday", a wrong window given in silence. So is a point to now, with any
open end "from X" takes ("last Monday to now", "yesterday until the present"), which read as the point alone.
`temporal.parse_time_window` tries these before
the other kinds, so that "since yesterday" or "until yesterday" is not read as "yesterday"; the
rules are listed there. Its own module so that `temporal` has room under the module limit.
"""

from __future__ import annotations

import re
from datetime import datetime

from skill_retriever.algorithms.date_spans import day_or_instant
from skill_retriever.algorithms.from_now import from_now
from skill_retriever.algorithms.month_days import (
    DATE_OR_DAY,
    DAY_OF_MONTH,
    ordered_days,
    with_year_of,
)
from skill_retriever.algorithms.period_parts import part_span
from skill_retriever.algorithms.time_words import AGO, DATE, ISO_DAY, MONTH_NAME, SPAN, WEEKDAY_NAME
from skill_retriever.exceptions import QueryError

__all__ = ["date_bound"]

_BEFORE = r"(?<!day\s)(?<!week\s)(?<!month\s)(?<!year\s)before|prior\s+to"


# The word before a range's last: "to", "until", "till", "up to", "through", "thru"; without days "through"
# not before a month or a number: "monthly data from January 2020 through December 2023" (traject-bench) is a
# tool request's span of arguments, words the search should keep; "from last Monday through yesterday" read
# as last Monday, the end dropped. With days (`_TO_DAYS`) it is a range before any date ("from March 3
# through March 10", which read as March 3).
_TO = rf"(?:(?:up\s+)?(?:to|until|till)|(?:through|thru)(?!\s+(?:{MONTH_NAME}|\d)))"
_TO_DAYS = r"(?:(?:up\s+)?(?:to|until|till)|through|thru)"
# An end that is now: "to the present", "up to now", "to this day" (not "this day of the week"), "to
# date" (not "up to date", "to date-fns"); "the present day" or "date" whole, no "day" left in the text the other
# channels read; "present" alone only at the end of a clause, where it is no verb ("slides from last week to
# present at standup").
_NOW = r"the\s+present(?:\s+da(?:y|te))?|present(?=\s*(?:[.,;:!?)]|$|(?:and|or|but)\b))|now"
_OPEN_END = rf"(?i:{_NOW}|this\s+day(?!\s+of\b)|(?<=\bto\s)(?<!up\sto\s)date)(?![\w-])"
# After "between X and", now only ("between last Monday and now", "and the present"): "to date" and "to
# this day" are idioms of "to"; "and today" is a date, read as one.
_NOW_END = rf"(?i:{_NOW})(?![\w-])"


def _between_re(date: str, to: str = _TO) -> re.Pattern[str]:
    # "the start/end of" a date: "from today until the end of December"; or a part of a calendar
    # period, "from early last week to yesterday" (`period_parts`; groups edge, part, lo, ... hi).
    edge = (
        r"(?:(?i:the\s+(start|beginning|end)\s+of)\s+|(?i:(early|mid|late|the\s+middle\s+of))[\s-]+"
        r"(?=(?i:this|last|previous)\s+(?:week|month|year)\b))?"
    )
    # Or an open end (group 10): after "from/since X" `_OPEN_END`, after "between X and" now alone
    # (`_NOW_END`): ``(?(3)...|...)`` takes the first where group 3, the date after "between", was matched.
    return re.compile(
        rf"\b(?i:between\s+{edge}({date})\s+and|(?:from|since)\s+{edge}({date})\s+{to})"
        rf"\s+(?:{edge}({date})\b|((?(3){_NOW_END}|{_OPEN_END})))"
    )


def _bound_re(date: str) -> re.Pattern[str]:
    # Not "the day before yesterday" nor "the week before last week", which name a span
    # (`temporal`'s day rule, `last_spans`); "since last week" is from its Monday, as "last week"
    # alone is that calendar week; "prior to" is "before", which read "prior to yesterday" as
    # yesterday (groups kind, edge, X).
    return re.compile(
        rf"\b(?i:(since|after|{_BEFORE}|(?:up\s+)?(?:until|till)))\s+"
        rf"(?:(?i:the\s+(start|beginning|end)\s+of)\s+)?({date})\b"
    )


_BETWEEN_RE, _BOUND_RE = _between_re(DATE), _bound_re(DATE)
# With days, a bound at an event named with its day or month: "before the outage on Nov 3" (not "the middle of last week").
_EVENT_BOUND_RE = re.compile(
    rf"\b(?i:(since|after|{_BEFORE}|(?:up\s+)?(?:until|till)))\s+(?i:the|an?)\s+"
    r"(?!(?i:middle\s+of\s+(?:this|last|previous)\s+(?:week|month|year))\b)(?:[\w-]+\s+){1,4}?"
    rf"(?i:on|of)\s+({DATE_OR_DAY})(?![\w-])"
)
# With days (`month_days`): "between Nov 1 and Nov 5", "since 3 Nov".
_BETWEEN_DAYS_RE, _BOUND_DAYS_RE = _between_re(DATE_OR_DAY, _TO_DAYS), _bound_re(DATE_OR_DAY)
# With days, two days with a dash or "through" and no "from" (groups first, last): "March 3 - March 10",
# "2026-03-03 – 2026-03-10", "Nov 1 thru Nov 5"; each read as its first day alone. Days only, not
# "Monday-Friday" or "2024 - 2025", which name opening hours and seasons as often as a range.
_DAY = rf"\d{{4}}-\d{{2}}-\d{{2}}(?![\w:-])|{DAY_OF_MONTH}"
_DASH_RE = re.compile(
    rf"(?<![\w-])(?:(?i:from|between)\s+)?({_DAY})(?:\s*[–—]\s*|\s+-\s+|\s+(?i:through|thru)\s+)({_DAY})"
)


# A time point that is a window on its own (`temporal`), each end of a range with no "from" or "between"
# (`_bare_range`): "last Monday through yesterday", "yesterday to today", "3 days ago until yesterday". It read
# as its first point alone ("until yesterday" alone in "last Monday until yesterday"). Not a weekday alone
# ("Monday to Friday" is opening hours as often as days past: `weekdays`), nor a month alone ("March to May"),
# "the weekend" or a calendar "the week", none of which is a window alone; so an end that is no time leaves the
# point alone as it was: "last week to fix the bug", "yesterday to the staging cluster". The last may be now too, as
# after "from X" (`_OPEN_END`), but never the first: "switch to now" names no range. With days, an ISO day or
# a day of a month too ("2026-11-01 to 2026-11-05", which read as the 1st). Not after a bound's word, which reads
# its own point ("before last Monday to ..."; "from/since/between" ranges are read before), nor after "on" or "at",
# a day or a time alone: "change the flight on March 7th to March 10th" moves a date (ultratool, read with days).
_POINT = (
    rf"{AGO}|{SPAN}|(?i:today|yesterday|last\s+{WEEKDAY_NAME})(?![\w-])"
    r"|(?i:(?:this|last|previous)\s+(?:week|month|year))(?![\w-])"
)
_EDGE = (
    r"(?:(?i:the\s+(?:start|beginning|end)\s+of)\s+|(?i:early|mid|late|the\s+middle\s+of)[\s-]+"
    r"(?=(?i:this|last|previous)\s+(?:week|month|year)\b))?"
)
_BOUND_WORDS = ("from", "since", "between", "after", "before", "until", "till", "to", "on", "at")
_NOT_AFTER = r"(?<!\w)" + "".join(rf"(?<!(?i:{w})\s)" for w in _BOUND_WORDS)


def _bare_re(point: str, to: str) -> re.Pattern[str]:
    last = rf"{_EDGE}(?:{point})(?![\w-]|['’]s\b)|{_OPEN_END}"
    return re.compile(rf"{_NOT_AFTER}{_EDGE}(?:{point})\s+{to}\s+(?:{last})")


_BARE_RE = _bare_re(_POINT, _TO)
_BARE_DAYS_RE = _bare_re(rf"{_POINT}|{ISO_DAY}(?![\w:-])|{DAY_OF_MONTH}", _TO_DAYS)


def date_bound(query: str, now: datetime, *, days: bool) -> tuple[datetime | None, datetime | None, str] | None:
    """The first range or bound ``query`` names (module docstring) as ``(start, end, phrase)``,
    the phrase as written, or None. ``now`` is in UTC; ``days`` reads a day of a month too."""
    if ahead := from_now(query, now, days=days):  # "between now and Friday": the coming Friday
        return ahead
    if m := (_BETWEEN_DAYS_RE if days else _BETWEEN_RE).search(query):
        return _range(m, now)
    if days and (m := _DASH_RE.search(query)):  # "March 3 - March 10"
        lo = day_or_instant(with_year_of(m[1], m[2]), now)
        hi = _last_day(m[2], m[1], lo, now)
        lo, hi = ordered_days(lo, hi, m[1], m[2]) if hi[1] <= lo[0] else (lo, hi)
        return lo[0], hi[1], m.group()
    if bare := _bare_range(query, now, days=days):  # "last Monday through yesterday", before "until yesterday"
        return bare
    if m := (_BOUND_DAYS_RE if days else _BOUND_RE).search(query):
        first, last = day_or_instant(m.group(3), now)
        if m.group(2):  # "until the end of this month": that one instant
            first = last = last if m.group(2).lower() == "end" else first
        kind = m.group(1).lower().split()[-1].replace("to", "before")  # "prior to"
        if kind in ("before", "until", "till"):  # "until X" takes X in, "before X" leaves it out
            return None, first if kind == "before" else last, m.group()
        start = first if kind == "since" else last
        return start, now if start < now else None, m.group()
    if days and (m := _EVENT_BOUND_RE.search(query)):  # the event lies somewhere in its day
        first, last = day_or_instant(m.group(2), now)
        if m.group(1).lower() in ("since", "after"):
            return first, now if first < now else None, m.group()
        return None, last, m.group()
    return None


def _bare_range(query: str, now: datetime, *, days: bool) -> tuple[datetime | None, datetime | None, str] | None:
    """The first range of two time points with no "from" or "between" (`_BARE_RE`), read as "from X to Y"
    is, the phrase as written; None where there is none."""
    if (m := (_BARE_DAYS_RE if days else _BARE_RE).search(query)) is None:
        return None
    text = "from " + m.group()  # every point is a date of the range readers, so they read it whole
    if (ahead := from_now(text, now, days=days)) and ahead[2] == text:  # "today to Nov 5": the coming one
        return ahead[0], ahead[1], m.group()
    if ranged := (_BETWEEN_DAYS_RE if days else _BETWEEN_RE).fullmatch(text):
        start, end, _ = _range(ranged, now)
        return start, end, m.group()
    return None


def _range(m: re.Match[str], now: datetime) -> tuple[datetime | None, datetime | None, str]:
    """The window of a match of `_between_re`: "between X and Y", "from X to Y", "since X until Y",
    "from X to the present"."""
    first_text, edges = m.group(3) or m.group(6), [m.group(1) or m.group(4), m.group(7)]
    lo = day_or_instant(with_year_of(first_text, m.group(9) or ""), now)  # "March 12 to Dec 19, 2012"
    if part := m.group(2) or m.group(5):  # "from early last week": from its Monday, not its end
        lo = part_span(lo, part.split()[-2:][0])  # "early", or "middle" of "the middle of"
    if m.group(10):  # "to the present": up to now, as "since X", whose rule (an X ahead: no end) it keeps
        start = lo[1] if edges[0] == "end" else lo[0]
        if m.group(3) and start > now:  # "between the end of this month and now": from now to X
            return now, start, m.group()
        return start, now if start < now else None, m.group()
    hi = _last_day(m.group(9), first_text, lo, now)
    if m.group(8):  # "to late last week": to its end
        hi = part_span(hi, m.group(8).split()[-2:][0])
    if hi[1] <= lo[0]:  # the same days swapped, or year-less ones across a new year
        ordered = ordered_days(lo, hi, first_text, m.group(9))
        edges = edges if ordered[0] == lo else edges[::-1]
        lo, hi = ordered
    for _ in range(2):  # "from the end of X": X's end; "to the start of Y": Y's start
        start, end = (lo[1] if edges[0] == "end" else lo[0]), (hi[0] if edges[1] not in (None, "end") else hi[1])
        if start <= end:  # else "between yesterday and the start of this week": the other way
            break
        lo, hi, edges = hi, lo, edges[::-1]
    return start, end, m.group()


def _last_day(last: str, first: str, lo: tuple[datetime, datetime], now: datetime) -> tuple[datetime, datetime]:
    """What the last date of a range names: a day of a month without a year after a first with one is of
    that year, or of the next when it would end before the first ("from September 6, 2025 through
    September 30" is 2025's, "from Dec 28, 2025 to Jan 2" 2026's); alone it was the most recent such day,
    and the window ran a year on from the first (traject-bench). Any other date as it is read alone."""
    if (dated := with_year_of(last, first)) != last:
        try:
            hi = day_or_instant(dated, now)
            return hi if hi[1] > lo[0] else day_or_instant(with_year_of(last, first, ahead=1), now)
        except QueryError:  # "from Feb 1, 2025 to Feb 29": no such day that year, read as written
            return day_or_instant(last, now)
    return day_or_instant(last, now)

