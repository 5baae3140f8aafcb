"""Time windows in queries ("last 24h", "since 2026-11-01", "yesterday") and recency ranking.

All times are UTC and relative to the ``now`` given. A window is half-open,
``start <= t < end``; a missing bound is open. The rules (each pinned by a test):

* "last/past/previous [N] <unit>", optionally after "in/within/over/during/for/from/
  since [the]": ``[now - N units, now)``, so an item dated in the future is not "recent".
  N is a number or a word ("a", "two", "a few" = 3, "a couple (of)" = 2, "several" = 5); no N means 1.
  Units are whole words: minutes (``min``), hours (``hr``), days, weeks (``wk``),
  fortnights (14 days), months (30 days) and years (``yr``, 365 days); the one-letter
  forms ``h``, ``d``, ``w``, ``y`` and ``mo`` only right after digits ("24h", "3 d"), so
  "the last ad" or "the last word" names no window. "before" or "until" such a span
  ("before the last 3 days") runs up to its start. "last" or "previous week/month/year"
  with no count and no "the" before "last" is the calendar one, whole ("last week": Monday
  to Monday), as in a bound and as "last quarter"; "past week", "the last week" the past 7 days;
  "early", "mid", "late this/last week/month/year" and "the start/middle/end of" one: its first,
  middle or last half, in whole days (`period_parts`; "since early last week" from its start, "from early last week" that part);
  "the week/month/year before last" the calendar one before last week, month, year (`last_spans`).
* "this week / month / year", "since the start of the week/month/year", "year to date"
  ("YTD", "MTD", "WTD"): from the start of the current ISO week (Monday), month or year,
  up to now.
* "today": the current calendar day; "yesterday": the previous calendar day; "the day
  before yesterday"; "last <weekday>" (e.g. "last Monday"): the most recent such day
  before today; "N <unit> ago" (`ago`): the span of that unit it falls in, "2 days ago" and
  "a week ago" that calendar day, "3 hours ago" that clock hour, "a month ago" that month;
  a vague count those units ("a few days ago": from the start of 5 days ago to the end of 2);
  "2 weeks back" as "2 weeks ago"; "more than", "over", "at least N <unit> ago": up to now
  less N units, "less than", "under", "within N <unit> ago" from then to now.
  "The previous day", "the day before", no other date named: yesterday; else that date (`previous_day`).
  Two counts, "a day or two ago", "in the past day or two": the wider reading (`or_counts`).
* Parts of a day: "this morning" is today 00:00-12:00, "this afternoon" 12:00-18:00,
  "this evening" 18:00-24:00, and "yesterday morning/afternoon/evening" the same hours
  of yesterday; "last night" and "failed overnight" are yesterday 18:00 to today 06:00 (the hours an overnight
  failure is found in, whatever the hour of ``now``); with ``days``, a time in one, "last
  night at 11pm", "this afternoon at 3:15", that hour, as "yesterday at 14:00" (`day_hours`).
* "last/past/previous weekend": the most recent complete weekend, Saturday 00:00 to
  Monday 00:00 (on a Sunday, the one before). "this weekend", "over/during the
  weekend": the most recent weekend, the current one on a Saturday or Sunday.
* "in/during <month> [year]" or "in/during YYYY-MM": that calendar month; with ``days``,
  "[in] early/mid/late <month>" too.
* "since X": from X up to now; "after X": from the end of X up to now (an X ahead of
  now: no end); "before X" or "prior to X": up to the start of X;
  "[up] until X" / "till X": up to the end of X (a date alone is taken in, as the
  ``until`` filter takes it); "between X and Y" / "from X to Y" / "since X until Y":
  from X to the end of Y, read as "between Y and X" when Y ends before X starts; "the
  start of" or "the end of" before X or Y takes that bound of it ("from today until the end
  of December", "from the end of May", "until the end of this month"; "between yesterday and
  the start of this week" from Monday; "since last week" from its Monday; "early", "mid",
  "late" or "the middle of" a calendar X or Y is that part of it, "from early last week to
  yesterday" from last Monday: `date_bounds`, `period_parts`); "from X" or "since X" before an open end,
  "to the present", "to present", "until now", "till now", "up to now", "to date", "to this day": from X
  up to now, as "since X" ("from the beginning of last month to the present" from its 1st; "through
  today" as "until today", to today's end; "present" alone only at the end of a clause, not "up to
  date"; "the present day" whole); "between X and now", "and the present" too, "between X and today" to
  today's end; now or today first looks ahead, "between now and Friday", "from today to Monday": a weekday,
  month or day of a month without a year is the next one, to its end, an X behind whatever its reading the
  range the other way ("between now and last Monday" from last Monday: `from_now`); "through"/"thru" as
  "to", without ``days`` not before a month or a number (a tool request's arguments); with no "from" or
  "between", "X to Y" (through, thru, until) where X and Y are each a window alone ("last Monday through
  yesterday", "yesterday through today"; not a weekday or month alone: "Monday to Wednesday", "last week to
  fix the bug" stay as they were) as "from X to Y", Y also now as after "from" ("last Monday to now"); with no start,
  "what happened up to now" or "until now", no window and no note that a time was not read. X and Y are
  ISO dates (a date alone names the whole day; a datetime is an instant), a month ``YYYY-MM``, a month
  name with an optional year
  ("March", "Nov 2026"), "[last] <weekday>", "today", "yesterday", a part of a day
  above, a weekend above ("since the weekend", "since last night"), or a calendar week
  (from Monday), month or year: "this/last/previous week/month/year", "the week/month/year"
  after "the start/end of".
* A month name without a year is the most recent such month that has begun ("March"
  in December 2026 is March 2026; "December" in November 2026 is December 2025).
  "May" counts as a month only when capitalised.
* "recent", "recently", "lately", "latest", "newest", "most recent":
  ``[now - recent_days, now)``; "recent weeks" (days, months) the past 3, as "the past few weeks",
  and "this fortnight" the past 14 days (`back_spans`).

No window runs past now unless it names its end ("today", "in December", "until X") or
starts ahead of now: an item dated in the future (a planned maintenance, a wrong clock)
topped every "since last Monday", the channel ranking the latest time first.

The first rule in the order above that matches wins; "between" and "since/before/
after/until" (`date_bounds`) are tried before the others so that "since yesterday" or "until yesterday"
is not read as "yesterday".
A query with none of these forms has no window and its text is left as it is;
:func:`unread_time_phrase` names a phrase that looks like a time but is not one of them
("since the outage", "this sprint", "at lunchtime", "at 3pm", "the other day", "H1 2026",
"the first week of November", without ``days`` "in Q3" and "last quarter", and a
time ahead of now: "in the next 24h", "tomorrow"), so that the caller can say it was ignored; a time word alone ("weekend cabin", "night
mode") is no such phrase. A day of a month, as X or Y or alone ("since Nov 3", "on 3 Nov", "between 1
and 5 Nov", "on 2026-12-03"), is read only with ``days`` (an index whose items carry dates;
`month_days`: [00:00, 24:00) UTC, without a year the most recent such day not in the
future); without it, it is noted, not read: in a tool request it is most often an argument
("book a table on 2026-12-03"; about 11 % of seal-tools' requests and 6 % of traject-bench's
hold one), which the search should keep. A number before a month that counts what follows
is no day (`day_counts`): "top 5 May releases", "the last 3 Nov incidents", "5 May releases"
ask for several of the month's items; "releases on 5 May", "5 May 2026", "5th May" and "May 5
releases" are days. With ``days`` too, a time of day on a day ("at 2026-11-03 14:00", "on 3
Nov at 2pm", "14:00 UTC on 2026-11-03") is the hour from that time (`day_hours`: UTC unless
written with Z, UTC, GMT or an offset; items' times are kept in UTC), read only where the
phrase the rules after it read is not written before it ("on the 20th of this month from 9 am
to 12 pm" is this month, "the recently posted job, from 4 pm to 7 pm" recently); "between 9am and now",
"from noon to the present" from that time to now, as "since 9am"; "noon", "midday", "midnight" and "12:00
noon" are times. Two days with a dash or "through" and no "from" ("March 3 - March 10", "2026-03-03 –
2026-03-10", "Nov 1 thru Nov 5") and the days of a month with a dash ("March 3-10", "3–10 March") are a
range, not "Monday-Friday" nor "2024-25" (`date_bounds`, `month_days`); a last day without a year after a
first with one is of its year ("from September 6, 2025 through September 30"). And a bound at an event
named with its day or month ("before the outage on Nov 3", "since the start of March") is a
bound at that span: the event lies somewhere in it, so "before"/"until" run to its end and
"since"/"after" from its start. A year (1900 to 2099) after "in", "during", "since", "after",
"before", "until" or in "between X and Y" is that calendar year, with ``days`` only ("won the
World Series in 1986" over QA passages is words of the question), and so is a calendar quarter
("this quarter", "last quarter", "Q3 2026": `quarters`), and "on <weekday>" or one after a past verb ("on Friday",
"what broke Friday": the most recent before today, as "last Friday"; "(on) Monday or Tuesday" both; not "on Fridays", "Cyber Monday": `weekdays`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from skill_retriever.algorithms.ago import ago_bound
from skill_retriever.algorithms.back_spans import back_span
from skill_retriever.algorithms.date_bounds import date_bound
from skill_retriever.algorithms.date_spans import as_utc, day_or_instant, midnight
from skill_retriever.algorithms.day_hours import hour_range, hour_window, since_hour
from skill_retriever.algorithms.last_spans import last_span
from skill_retriever.algorithms.month_days import (
    YEAR_RE,
    day_alone,
    days_of_one_month,
    shared_month_span,
)
from skill_retriever.algorithms.or_counts import or_count_span
from skill_retriever.algorithms.period_parts import period_part
from skill_retriever.algorithms.previous_day import previous_day
from skill_retriever.algorithms.quarters import quarter_window
from skill_retriever.algorithms.time_words import (
    AGO,
    ISO_MONTH,
    MONTH,
    SPAN,
    WEEKDAY_NAME,
    unread_time_phrase,
)
from skill_retriever.algorithms.weekdays import on_weekday, weekday_alone
from skill_retriever.exceptions import ConfigError

if TYPE_CHECKING:
    from skill_retriever.state import TimeWindowSpec

__all__ = [
    "TimeWindow",
    "parse_time_window",
    "rank_by_recency",
    "strip_time_phrase",
    "unread_time_phrase",
]


_THIS_RE = re.compile(
    r"\b(?i:(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+|this\s+)(?i:(week|month|year))\b"
    r"|\b(?i:(week|month|year)[\s-]to[\s-]date)\b|\b([WMY])TD\b"
)
_MONTH_RE = re.compile(rf"\b(?i:in|during)\s+({ISO_MONTH}|{MONTH})\b")
# With days, "early/mid/late November": that month, which holds it (not read, nor noted); without,
# as a year is, it is words of the question ("the Late-May 1998 tornado outbreak").
_PART_MONTH_RE = re.compile(rf"\b(?:(?i:in|during)\s+)?(?i:early|mid|late)[\s-]+({MONTH})\b")
# "the weekend" only after "over"/"during": alone it is as often a noun's modifier.
_DAY_RE = re.compile(
    rf"\b(?:{AGO}|(?:over|during)\s+the\s+weekend|{SPAN}|today|yesterday|last\s+{WEEKDAY_NAME})\b",
    re.IGNORECASE,
)
_RECENT_RE = re.compile(
    r"\b(?:most\s+recent(?:ly)?|recent(?:ly)?|lately|latest|newest)\b", re.IGNORECASE
)
@dataclass(frozen=True)
class TimeWindow:
    """A half-open UTC interval named in a query.

    Attributes:
        start: Inclusive lower bound, or None for no lower bound.
        end: Exclusive upper bound, or None for no upper bound.
        phrase: The query text that named the window, as written.
    """

    start: datetime | None
    end: datetime | None
    phrase: str

    def __post_init__(self) -> None:
        for bound in ("start", "end"):
            value = getattr(self, bound)
            if value is not None:
                object.__setattr__(self, bound, as_utc(value))

    def contains(self, dt: datetime) -> bool:
        """Whether ``start <= dt < end``; a naive ``dt`` is read as UTC."""
        dt = as_utc(dt)
        return (self.start is None or dt >= self.start) and (self.end is None or dt < self.end)

    def span_words(self) -> str:
        """The bounds in words, UTC to the minute ("2026-12-05 00:00 to 2026-12-06 00:00
        UTC", "from 2026-11-01 00:00 UTC"): what a relative phrase ("yesterday") was read as."""
        start, end = (t.strftime("%Y-%m-%d %H:%M") if t else None for t in (self.start, self.end))
        if start and end:
            return f"{start} to {end} UTC"
        return f"from {start} UTC" if start else f"before {end} UTC" if end else "any time"

    def to_spec(self) -> dict[str, str | None]:
        """The JSON form kept in graph state (ISO-8601 bounds); :meth:`from_spec` reads it
        back to an equal window."""
        return {
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "phrase": self.phrase,
        }

    @classmethod
    def from_spec(cls, spec: TimeWindowSpec) -> TimeWindow:
        """The window :meth:`to_spec` wrote."""
        start, end = spec.get("start"), spec.get("end")
        return cls(
            start=datetime.fromisoformat(start) if start else None,
            end=datetime.fromisoformat(end) if end else None,
            phrase=spec.get("phrase") or "",
        )


def parse_time_window(
    query: str, now: datetime, recent_days: float = 7.0, *, days: bool = False
) -> TimeWindow | None:
    """Find the time window a query names.

    Args:
        query: The query text.
        now: The current time; a naive value is read as UTC.
        recent_days: The window, in days, for "recent", "latest" and the like.
        days: Also read a day of a month and an ISO day alone ("since Nov 3", "between 1
            and 5 Nov", "on 2026-11-03"; `month_days`): for an index whose items carry
            dates. Without it they name no window (in a tool request they are arguments).

    Returns:
        The window, or None when the query names no time.

    Raises:
        ConfigError: ``recent_days`` is not a positive finite number.
        QueryError: A date in the query does not exist (e.g. ``since 2026-13-01``), or a
            "last" span is 0 long ("in the last 0 days").
    """
    if isinstance(recent_days, bool) or not (0 < recent_days < math.inf):
        raise ConfigError(f"recent_days must be a positive number of days, got {recent_days!r}")
    now = as_utc(now)
    if days and (shared := days_of_one_month(query)):  # "between 1 and 5 Nov", "March 3-10"
        return TimeWindow(*shared_month_span(shared[0], day_or_instant(shared[1], now)), shared[2])
    if days and (since := since_hour(query, now)):  # "since 9am", "since yesterday at 3pm"
        return TimeWindow(*since)
    if bound := date_bound(query, now, days=days):  # "between X and Y", "since X", before the kinds below
        return TimeWindow(*bound)
    rest = _other_kinds(query, now, recent_days, days=days)
    if days:  # of the hours and what the other kinds read, the first written ("of this month from 9 am")
        written = query.find(rest.phrase) if rest else None
        if hours := [h for h in (hour_range(query, now, written), hour_window(query, now, written)) if h]:
            return TimeWindow(*min(hours, key=lambda h: query.find(h[2])))  # "from 9am to 5pm yesterday", "at 2pm"
    return rest


def _other_kinds(query: str, now: datetime, recent_days: float, *, days: bool) -> TimeWindow | None:
    """The window of the first kind that matches of those below the hours (`parse_time_window`)."""
    if days and (m := day_alone(query)):  # "on Nov 3": that day
        return TimeWindow(*day_or_instant(m.group(1), now), m.group())
    if days and (quarter := quarter_window(query, now)):  # "last quarter", "Q3 2026"
        return TimeWindow(*quarter)
    if days and (m := YEAR_RE.search(query)):  # "in 2025": that year
        return TimeWindow(*day_or_instant(m.group(1), now), m.group())
    if days and (weekday := on_weekday(query, now)):  # "on Friday", "on Monday or Tuesday"
        return TimeWindow(*weekday)
    # "a day or two ago", "the past day or two", before "two ago" or "the past day" is read
    if span := or_count_span(query, now) or previous_day(query, now):
        return TimeWindow(*span)
    if compared := ago_bound(query, now):  # "more than a week ago", before "a week ago" is read
        return TimeWindow(*compared)
    part = period_part(query, now)  # "late last week": in place of "last week" where that is read
    part_end = query.find(part[2]) + len(part[2]) if part else -1
    if last := last_span(query, now):  # "last 3 days", "last week", "before last month"
        return TimeWindow(*(part if part and query.find(last[2]) + len(last[2]) == part_end else last))
    if m := _THIS_RE.search(query):
        if part and m.end() == part_end:  # "early this month"
            return TimeWindow(*part)
        unit, day = (m.group(1) or m.group(2) or m.group(3)).lower(), midnight(now)
        if unit in ("week", "w"):
            start = day - timedelta(days=day.weekday())
        else:
            start = day.replace(day=1) if unit[0] == "m" else day.replace(month=1, day=1)
        return TimeWindow(start, now, m.group())
    if (m := _MONTH_RE.search(query)) or (days and (m := _PART_MONTH_RE.search(query))):
        return TimeWindow(*day_or_instant(m.group(1), now), m.group())
    if m := _DAY_RE.search(query):
        return TimeWindow(*day_or_instant(m.group(), now), m.group())
    if days and (weekday := weekday_alone(query, now)):  # "what broke Monday", after "last Monday"
        return TimeWindow(*weekday)
    if span := back_span(query, now):  # "in recent weeks", before "recent" alone
        return TimeWindow(*span)
    if m := _RECENT_RE.search(query):
        return TimeWindow(now - timedelta(days=recent_days), now, m.group())
    return None


def strip_time_phrase(query: str, window: TimeWindow | None) -> str:
    """The query without its time phrase, for the channels that do not read time.

    Removes the first occurrence of ``window.phrase`` and tidies the spaces and the
    punctuation around it. The result may be empty (a query that was only "recent").

    Args:
        query: The query text.
        window: What :func:`parse_time_window` returned for it; None returns the query.

    Returns:
        The remaining text.
    """
    if window is None or not window.phrase:
        return query
    text = query.replace(window.phrase, " ", 1)
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    return text.strip(" ,;:")


def rank_by_recency(
    items: Iterable[tuple[str, datetime | None]], window: TimeWindow | None
) -> list[str]:
    """Ids of timestamped items, most recent first, inside the window when there is one.

    Items without a timestamp are left out. An id given twice counts with its most
    recent timestamp inside the window. Equal timestamps are ordered by id.

    Args:
        items: ``(id, timestamp)`` pairs; naive timestamps are read as UTC.
        window: Keep only items inside it; None keeps every timestamped item.

    Returns:
        The ids, most recent first.
    """
    latest: dict[str, datetime] = {}
    for item_id, ts in items:
        if ts is None:
            continue
        ts = as_utc(ts)
        if (window is None or window.contains(ts)) and (
            item_id not in latest or ts > latest[item_id]
        ):
            latest[item_id] = ts
    ordered = sorted(latest)  # by id, then a stable sort by time keeps the id order on ties
    ordered.sort(key=lambda i: latest[i], reverse=True)
    return ordered
