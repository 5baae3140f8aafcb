"""Days in a query's time phrase: a day of a named month ("3 Nov", "Nov 3, 2026", "the 1st
of November"), the days of one month ("between 1 and 5 Nov") and an ISO day alone ("on
2026-11-03"), which `temporal.parse_time_window` reads only when asked (``days=True``: an
index whose items carry dates, where "incidents since Nov 3" is the natural question). In
a tool request such a date is most often an argument ("book a table on 2026-12-03"), which
the text search must keep, so there they stay words (`time_words.unread_time_phrase`
names them).

A day is [00:00, 24:00) UTC. A day without a year is the most recent such day not in the
future ("Nov 3" on 2026-12-06 is 2026-11-03, "Dec 25" then is 2025-12-25, "Feb 29" in 2026
is 2024-02-29). A day the month does not have ("31 Nov") is a `QueryError`, as
``since 2026-13-01`` is.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from skill_retriever.algorithms.day_counts import counts_things
from skill_retriever.algorithms.time_words import DATE, MONTH_NAME, MONTHS, WEEKDAY_NAME
from skill_retriever.exceptions import QueryError

__all__ = ["DATE_OR_DAY", "DAY_OF_MONTH", "DAY_RE", "SHARED_MONTH_RE", "YEAR_RE", "Span", "day_alone", "day_of_month_span", "days_of_one_month", "shared_month_span", "with_year_of"]

_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+\d{4})?"
#: A day of a named month, never "Nov 2026" (a month) nor "3 marketing" (no month).
DAY_OF_MONTH = (
    rf"(?i:the\s+)?\d{{1,2}}{_ORDINAL}\s+(?i:of\s+)?{MONTH_NAME}{_YEAR}(?![\w-])"
    rf"|{MONTH_NAME}\s+\d{{1,2}}{_ORDINAL}(?!\d){_YEAR}(?![\w-])"
)
# An ISO day with no time after it: "2026-11-03 14:05" names the hour from 14:05
# (`day_hours`); "release-2026-11-03" or "2026-11-03-rc1" is a name.
_ISO_DATE = r"\d{4}-\d{2}-\d{2}(?![\w:-])(?!\s+\d{1,2}:\d{2})"
# A year alone, 1900 to 2099 ("since 2025"): not "2025-rc1", not "1000 rows".
_YEAR_ALONE = r"(?:19|20)\d{2}(?![\w-])"
#: What "since X", "until X", "between X and Y" read with days: `time_words.DATE`, a day or a year.
DATE_OR_DAY = rf"{DATE}|{DAY_OF_MONTH}|{_YEAR_ALONE}"
#: A year after "in" or "during": "outages in 2025" (group 1).
YEAR_RE = re.compile(rf"\b(?i:in|during)\s+({_YEAR_ALONE})")
#: A day alone, "on Nov 3", "the 12th of March outage", "on 2026-11-03": that day (group 1).
DAY_RE = re.compile(rf"(?<![\w-])(?:(?i:on|in|during)\s+)?({_ISO_DATE}|{DAY_OF_MONTH})")
#: "between 1 and 5 Nov", "from 1st to 5th of November 2025": the first day in the last's month.
SHARED_MONTH_RE = re.compile(
    rf"\b(?i:between\s+(\d{{1,2}}){_ORDINAL}\s+and|from\s+(\d{{1,2}}){_ORDINAL}\s+(?:to|until|till))"
    rf"\s+(\d{{1,2}}{_ORDINAL}\s+(?i:of\s+)?{MONTH_NAME}{_YEAR})(?![\w-])"
)
# The same written with a dash, "March 3-10", "3–10 March", "Mar 3 - 10, 2026" (groups first, last;
# or month, first, last, year): it read as no window, "March 3" noted as a time not read.
_DASHED_DAYS_RE = re.compile(
    rf"(?<![\w-])(?:(?i:from|between)\s+)?(?:(\d{{1,2}}){_ORDINAL}\s*[–—-]\s*(\d{{1,2}}{_ORDINAL}\s+(?i:of\s+)?{MONTH_NAME}{_YEAR})"
    rf"|({MONTH_NAME})\s+(\d{{1,2}}){_ORDINAL}\s*[–—-]\s*(\d{{1,2}}{_ORDINAL})({_YEAR}))(?![\w-])"
)
_DAY_OF_MONTH_RE = re.compile(DAY_OF_MONTH)


def days_of_one_month(query: str) -> tuple[str, str, str] | None:
    """The first day, the last day with its month and the phrase of the first days of one month
    ``query`` names ("between 1 and 5 Nov", "from 1st to 5th of November", "Nov 1-5", "1–5
    Nov"), for :func:`shared_month_span`; None when it names none, or where "3-5 May" counts what
    follows ("the top 3-5 May releases": `day_counts`)."""
    if m := SHARED_MONTH_RE.search(query):
        return m.group(1) or m.group(2), m.group(3), m.group()
    if (m := _DASHED_DAYS_RE.search(query)) is None or m[2] and counts_things(query, m.start(2), m.end(2)):
        return None
    return (m[1], m[2], m.group()) if m[1] else (m[4], f"{m[3]} {m[5]}{m[6]}", m.group())


def day_alone(query: str) -> re.Match[str] | None:
    """The first day `DAY_RE` finds in ``query`` that is no count ("top 5 May releases":
    `day_counts`); in "top 10 Nov 3 deploys", Nov 3."""
    pos = 0
    while m := DAY_RE.search(query, pos):
        if not counts_things(query, m.start(1), m.end(1)):
            return m
        pos = m.start(1) + 1  # inside the number: `DAY_RE` starts no match there
    return None
_YEAR_AT_END = re.compile(r",?\s+(\d{4})$")
_PARTS = re.compile(
    r"(?:(?:the )?(?P<day>\d{1,2})(?:st|nd|rd|th)? (?:of )?(?P<month>[a-z]+)"
    r"|(?P<month2>[a-z]+) (?P<day2>\d{1,2})(?:st|nd|rd|th)?)(?:,? (?P<year>\d{4}))?"
)


def day_of_month_span(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The whole day ``text`` names ("3 Nov", "November 3rd, 2026"), or None when it names
    none (a month, an ISO date, a weekday).

    Raises:
        QueryError: The month has no such day ("31 Nov"), or the year is 0.
    """
    m = _PARTS.fullmatch(" ".join(text.lower().replace(",", " ,").split()).replace(" ,", ","))
    if m is None:
        return None
    name = m["month"] or m["month2"]
    month = next((i for i, full in enumerate(MONTHS, 1) if len(name) >= 3 and full.startswith(name)), 0)
    if not month:
        return None
    day = int(m["day"] or m["day2"])
    day_start = _explicit(text, int(m["year"]), month, day) if m["year"] else _latest(text, now, month, day)
    first = datetime(day_start.year, day_start.month, day_start.day, tzinfo=UTC)
    try:
        return first, first + timedelta(days=1)
    except OverflowError:  # December 31, 9999: to the end of time, as `temporal` does
        return first, datetime.max.replace(tzinfo=UTC)


def _explicit(text: str, year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise QueryError(f"{text!r} in the query is not a valid date; use YYYY-MM-DD") from exc


def _latest(text: str, now: datetime, month: int, day: int) -> date:
    """The most recent ``month``/``day`` not after ``now``'s day (eight years back at most,
    which every day a calendar has, February 29 included, falls within)."""
    for year in range(now.year, max(now.year - 8, 0), -1):
        try:
            found = date(year, month, day)
        except ValueError:  # February 29 of a common year, or no such day at all
            continue
        if found <= now.date():
            return found
    raise QueryError(f"{text!r} in the query is not a valid date; use YYYY-MM-DD")


def with_year_of(first: str, last: str, ahead: int = 0) -> str:
    """``first`` with the year of ``last`` (``ahead`` years on) when both are days of a month and only
    ``last`` has a year: in "from March 12 to December 19, 2012" both are of 2012 (alone, "March 12"
    was this year's, and the window ran from 2012 to it)."""
    year = _YEAR_AT_END.search(last)
    if year and _DAY_OF_MONTH_RE.fullmatch(last) and _DAY_OF_MONTH_RE.fullmatch(first) and not _YEAR_AT_END.search(first):
        return f"{first}, {int(year.group(1)) + ahead}"
    return first


def shared_month_span(first_day: str, last: tuple[datetime, datetime]) -> tuple[datetime, datetime]:
    """From the start of day ``first_day`` of ``last``'s month to ``last``'s end ("between 1
    and 5 Nov"); days written the other way round ("between 5 and 1 Nov") are the same days.

    Raises:
        QueryError: The month has no such day.
    """
    try:
        first = last[0].replace(day=int(first_day))
    except ValueError as exc:
        month = f"{MONTHS[last[0].month - 1].title()} {last[0].year}"
        raise QueryError(f"day {first_day} of {month} in the query is not a valid date; use YYYY-MM-DD") from exc
    if first > last[0]:
        return last[0], first + timedelta(days=1)
    return first, last[1]


Span = tuple[datetime, datetime]


def ordered_days(lo: Span, hi: Span, first: str, last: str) -> tuple[Span, Span]:
    """The two days of a range written ``first`` to ``last`` whose ``hi`` came out before
    ``lo``, in order: the same days swapped ("between 2026-11-30 and 2026-11-01"), unless
    both are days of a month written without a year and the range across a new year is the
    shorter reading: "between Dec 28 and Jan 2" asked on 2027-01-01 is 2026-12-28 to
    2027-01-02 (each day alone the most recent one not in the future gave 2026-01-02, and
    the swap a year-long window), where "between Mar 5 and Jan 2" stays January to March, and
    so is a month without a year ("from today until December" in November). Year-less
    days written in the calendar's order are one year's, read forward: "from Jan 1 to Dec
    31" asked on 2026-12-02 is the whole of 2026 (Dec 31 alone came out in 2025, and the
    shorter reading was the two days across that new year). Two
    weekdays run forward through the week: "between Monday and Wednesday" asked on a Wednesday
    is this Monday to today."""
    if _WEEKDAY_RE.fullmatch(first.strip()) and _WEEKDAY_RE.fullmatch(last.strip()):
        # "between Monday and Wednesday" on a Wednesday: this week's, read forward; each alone
        # is the most recent before today, so Wednesday came out a week before Monday.
        return lo, (hi[0] + timedelta(days=7), hi[1] + timedelta(days=7))
    if _year_less(first) and _year_less(last) and (lo[0].month, lo[0].day) <= (hi[0].month, hi[0].day):
        try:  # "from Jan 1 to Dec 31": the last day in the first one's year
            start = hi[0].replace(year=lo[0].year)
        except ValueError:  # February 29 in a year without one: read as written
            return hi, lo
        return lo, (start, start + (hi[1] - hi[0]))
    if _year_less(first) and _year_less(last) or _MONTH_ALONE_RE.fullmatch(last.strip()):
        try:  # a month: "from today until the end of December" asked in November is this December
            ahead = hi[0].replace(year=hi[0].year + 1), hi[1].replace(year=hi[1].year + 1)
        except ValueError:  # February 29 a year on: no such day, read as written
            return hi, lo
        if ahead[1] - lo[0] < lo[1] - hi[0]:
            return lo, ahead
    return hi, lo


_WEEKDAY_RE = re.compile(rf"(?:last\s+)?{WEEKDAY_NAME}", re.IGNORECASE)
_MONTH_ALONE_RE = re.compile(MONTH_NAME)


def _year_less(text: str) -> bool:
    return bool(_DAY_OF_MONTH_RE.fullmatch(text)) and not _YEAR_AT_END.search(text)

