"""A time of day on a day, "at 2026-11-03 14:00", "on 3 Nov at 2pm", "14:00 UTC on
2026-11-03": the hour from that time. `temporal.parse_time_window` reads it where it reads
days (``days=True``: an index whose items carry dates), and items' times are kept to the
second, in UTC (`model.parse_timestamp`), so the hour tells them apart where the whole day
did not (it was read as the day, or as nothing: an ISO date and time alone is an instant).

The rules:

* The window is the hour from the time written, ``[t, t + 1 h)``: "14:00" and "2pm" are
  14:00 to 15:00, "14:30" is 14:30 to 15:30. An item dated by its day alone (00:00) is in
  the hour from midnight only; where all the items dated that day are, the search reads the
  whole day (`day_dated`).
* The time is UTC unless written with ``Z``, ``UTC``, ``GMT`` or an offset ("+01:00",
  "-0500"), in which the day is read too ("2026-11-03T00:30+01:00" is 23:30 UTC on Nov 2).
  A zone name ("2pm PST", "14:00 CET") is not read as one: the hour is left and only the
  day is read, which :func:`zone_name_note` says in the answer's warnings (write an offset).
* A time is "14:00", "14:00:00", "2pm", "2:30 pm", "9 a.m.", "noon", "midday", "midnight", "12:00
  noon" (12am is midnight, 12pm noon,
  "15:00 PM" 15:00, as a tool request in ultratool writes it); a bare number ("at 3") is
  none, and an hour the clock has not ("25:00", "13am") is a `QueryError`, as "31 Nov" is.
* The forms: an ISO date and time ("2026-11-03T14:00", "2026-11-03 14:00 UTC"), after "at"
  or "on" or alone; a day, then "at" or "around" and a time ("on 3 Nov at 2pm", "yesterday
  at 3pm"); a time, then a day ("at 2pm on Nov 3", "14:00 UTC on 2026-11-03", "at 12am
  yesterday"). A day is an ISO date, a day of a month (`month_days`), "today", "yesterday",
  "the day before yesterday", "last <weekday>" or a part of a day, whose time is the one in it
  ("last night at 11pm" yesterday's 23:00, "last night at 2am" today's 02:00, "this afternoon
  at 3:15" 15:15; :func:`_in_part`); it was the whole part, "yesterday at 14:00" the hour.
* A range of hours, "from 9am to 5pm yesterday", "yesterday between 9am and 5pm", "on Dec 1
  from 9 am to 11 am" (:func:`hour_range`), runs from the first time to the second on that
  day, into the next when the second is earlier ("from 10pm to 2am"); in a query that names no
  day, "between 9am and 5pm" is the latest such range begun before now, as "since 9am" is. A
  zone written after the second time is the first's too.
* "since" or "after" a time of day runs from it to now (:func:`since_hour`): "since
  yesterday at 3pm", and a time alone is the latest such time not ahead of now ("since
  9am" at 08:00 is yesterday's 09:00); so do "between 9am and now" and "from noon to the present",
  which were no window ("now" is no time).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta, timezone

from skill_retriever.algorithms.date_spans import day_or_instant, later
from skill_retriever.algorithms.month_days import DAY_OF_MONTH
from skill_retriever.algorithms.time_words import WEEKDAY_NAME
from skill_retriever.exceptions import QueryError

__all__ = ["hour_range", "hour_window", "since_hour", "zone_name_note"]

# A clock time: minutes or am/pm, so that "at 3" or "3 Nov" is none.
# "9 a.m." takes its last dot, "9 AM." does not: that one ends the sentence.
_AM_PM = r"\s*[aApP](?:\.[mM]\.|[mM])"
# "noon" and "midday" are 12:00, "midnight" 00:00: "since noon", "from 9am to noon today" were no window;
# "12:00 noon" (ultratool) one time, not "noon" with "12:00" left before it.
_NOON = r"(?i:noon|midday|midnight)"
_TIME = rf"(?:12(?::00(?::00)?)?\s+{_NOON}|\d{{1,2}}(?::\d{{2}}(?::\d{{2}})?(?:{_AM_PM})?|{_AM_PM})|{_NOON})"
# A zone this reads, or none and no word after (not "2pm PST", "14:00 CET").
_ZONE = r"(?:[Zz](?!\w)|\s*(?:UTC|GMT)(?!\w)|\s*[+-]\d{2}:?\d{2}(?!\d)|(?![\w:])(?!\s+[A-Z]{3,5}\b))"
# "the day before yesterday" before "yesterday": read from "yesterday", "the day before yesterday
# at 08:30" was the whole day, the other rules' phrase starting before the hour's.
# A part of a day ("last night at 11pm", "this afternoon at 3:15") is a day too: the hour in it
# (`_in_part`); it was the whole part, where "yesterday at 14:00" was the hour.
_DAY = (
    rf"\d{{4}}-\d{{2}}-\d{{2}}(?![\w:-])|{DAY_OF_MONTH}|(?i:(?:the\s+)?day\s+before\s+yesterday"
    rf"|(?:this|yesterday)\s+(?:morning|afternoon|evening)|last\s+night|today|yesterday|last\s+{WEEKDAY_NAME})"
)
_HOUR_RE = re.compile(
    rf"(?<![\w-])(?:(?i:at|on)\s+)?(?P<iso>\d{{4}}-\d{{2}}-\d{{2}}[Tt ]\d{{2}}:\d{{2}}(?::\d{{2}}(?:\.\d+)?)?)(?P<z1>{_ZONE})"
    rf"|(?<![\w-])(?:(?i:on)\s+)?(?P<day1>{_DAY}),?\s+(?i:at|around)\s+(?P<t1>{_TIME})(?P<z2>{_ZONE})"
    rf"|(?<![\w-])(?:(?i:at|around)\s+)?(?P<t2>{_TIME})(?P<z3>{_ZONE})\s+(?:(?i:on)\s+)?(?P<day2>{_DAY})"
)
_RANGE_RE = re.compile(
    rf"(?<![\w-])(?:(?:(?i:on)\s+)?(?P<day1>{_DAY}),?\s+)?(?i:from|between)\s+(?P<t1>{_TIME})(?P<z1>{_ZONE})"
    rf"\s*(?:(?i:to|and|until|till)\s|-)\s*(?P<t2>{_TIME})(?P<z2>{_ZONE})(?:,?\s+(?:(?i:on)\s+)?(?P<day2>{_DAY}))?"
)
_SINCE_RE = re.compile(r"\b(?i:since|after|(between|from))\s+")
# After "between/from" a time, the end that makes it a bound ("between 9am and now", "from noon to the
# present"; "since 9am until now" too): no other end, as "from 9am" alone is that hour.
_TO_NOW_RE = re.compile(r"\s+(?i:and|(?:up\s+)?(?:to|until|till))\s+(?i:now|the\s+present)(?![\w-])")
_BARE_TIME_RE = re.compile(rf"(?P<t>{_TIME})(?P<z>{_ZONE})")
_ANY_DAY_RE = re.compile(rf"(?<![\w-])(?:{_DAY})")
_ON_WEEKDAY_RE = re.compile(rf"\bon\s+{WEEKDAY_NAME}", re.IGNORECASE)
# A time, then a zone's name this does not read ("2pm PST", "14:00 CEST"): most end in T.
_ZONE_NAME_RE = re.compile(rf"(?<![\w-])({_TIME})\s+((?!UTC\b|GMT\b)[A-Z]{{1,4}}T)\b")
_AM_PM_RE = re.compile(_AM_PM)
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(?:([ap])\.?m\.?)?", re.IGNORECASE)


def hour_window(query: str, now: datetime, first: int | None = None) -> tuple[datetime, datetime, str] | None:
    """The hour a time of day on a day in ``query`` names (module docstring), as ``(start,
    end, phrase)``, or None when the query names none, or none that starts by index ``first``
    (where the phrase the other rules read starts: of two, the first written is read).

    Raises:
        QueryError: The time or the day does not exist ("at 25:00", "13pm", "31 Nov").
    """
    m = _HOUR_RE.search(query)
    if m is None or (first is not None and m.start() > first):
        return None
    start = _hour_start(m, now)
    return start, later(start, timedelta(hours=1)), m.group()


def hour_range(query: str, now: datetime, first: int | None = None) -> tuple[datetime, datetime, str] | None:
    """The window a range of hours names ("from 9am to 5pm yesterday": module docstring), as
    ``(start, end, phrase)``; None when the query has none, none that starts by index
    ``first`` (as for :func:`hour_window`), or one with no day of its own in a query that
    names a day elsewhere ("on Saturday ... from 14:00 to 18:00": that day's).

    Raises:
        QueryError: A time or the day does not exist ("to 25:00").
    """
    m = _RANGE_RE.search(query)
    if m is None or (first is not None and m.start() > first):
        return None
    day_text = m["day1"] or m["day2"]
    if day_text is None and (_ANY_DAY_RE.search(query) or _ON_WEEKDAY_RE.search(query)):
        return None
    zone2 = _zone(m["z2"])
    zone1 = _zone(m["z1"]) if m["z1"].strip() else zone2
    day = day_or_instant(day_text, now)[0].date() if day_text else now.astimezone(zone1).date()
    start = datetime.combine(day, _clock(m["t1"]), tzinfo=zone1).astimezone(UTC)
    if day_text is None and start >= now:  # not begun today: the latest one, yesterday's
        start, day = start - timedelta(days=1), day - timedelta(days=1)
    end = datetime.combine(day, _clock(m["t2"]), tzinfo=zone2).astimezone(UTC)
    return start, end + timedelta(days=1) if end <= start else end, m.group()


def since_hour(query: str, now: datetime) -> tuple[datetime, datetime | None, str] | None:
    """The window "since" or "after" a time of day names, from that time to now (no end when
    it is ahead of now, as for "since X"), as ``(start, end, phrase)``: "since yesterday at
    3pm", "since Nov 3 at 2pm", or a time alone in a query that names no day, the latest such
    time before now ("since 9am": today's, or yesterday's before 9:00). None when the query
    has none."""
    for bound in _SINCE_RE.finditer(query):
        if found := _HOUR_RE.match(query, bound.end()):
            start = _hour_start(found, now)
        elif (found := _BARE_TIME_RE.match(query, bound.end())) and not _ANY_DAY_RE.search(query):
            # a time alone, where the query names no day it could be of ("on May 26 ... after 8 pm")
            day = now.astimezone(zone := _zone(found["z"])).date()
            start = datetime.combine(day, _clock(found["t"]), tzinfo=zone).astimezone(UTC)
            start = start - timedelta(days=1) if start >= now else start
        else:
            continue
        end = _TO_NOW_RE.match(query, found.end())
        if bound[1] and end is None:  # "from 9am to 5pm" is `hour_range`'s, "from 9am today" that hour
            continue
        return start, now if start < now else None, query[bound.start() : end.end() if end else found.end()]
    return None


def _hour_start(m: re.Match[str], now: datetime) -> datetime:
    """The start of the hour an `_HOUR_RE` match names, in UTC."""
    zone = _zone(m["z1"] or m["z2"] or m["z3"] or "")
    if m["iso"]:
        day_text, clock = re.split(r"[Tt ]", m["iso"], maxsplit=1)
    else:
        day_text, clock = (m["day1"], m["t1"]) if m["day1"] else (m["day2"], m["t2"])
    day, day_end = day_or_instant(day_text, now)
    try:
        start = datetime.combine(day.date(), _clock(clock), tzinfo=zone).astimezone(UTC)
    except OverflowError as exc:  # 0001-01-01T00:30+01:00: before year 1 in UTC
        raise QueryError(f"{m.group()!r} in the query is outside the years 1 to 9999 in UTC") from exc
    return _in_part(start, day, day_end, clock) if day_end - day < timedelta(days=1) else start


def _in_part(start: datetime, first: datetime, end: datetime, clock: str) -> datetime:
    """The time ``start`` (on the day ``first`` begins) moved into the part of a day ``[first,
    end)`` it is said of: "this afternoon at 3:15" is 15:15, "last night at 2am" today's 02:00.
    A time that is in no reading of the part ("this morning at 3pm") stays as written."""
    steps = (timedelta(0), timedelta(hours=12), timedelta(days=1))
    for step in steps if _AM_PM_RE.search(clock) is None else steps[::2]:  # "9pm" is no 09:00
        if first <= start + step < end:
            return start + step
    return start


def _clock(text: str) -> time:
    if (word := text.split()[-1].lower()) in ("noon", "midday", "midnight"):  # "12:00 noon" says it twice
        return time(0 if word == "midnight" else 12)
    c = _CLOCK.fullmatch(text.strip())
    hour, minute, second = (int(g or 0) for g in c.groups()[:3]) if c else (99, 0, 0)
    if c and c[4] and 1 <= hour <= 12:  # 12am is midnight, 12pm noon
        hour = hour % 12 + (12 if c[4].lower() == "p" else 0)
    elif c and c[4] and not (c[4].lower() == "p" and 13 <= hour <= 23):  # "15:00 PM" says 15:00 twice
        hour = 99
    if c is None or hour > 23 or minute > 59 or second > 59:
        raise QueryError(f"{text!r} in the query is not a time of day; write e.g. 14:00 or 2pm")
    return time(hour, minute, second)


def _zone(text: str) -> timezone:
    """The zone after a time: UTC when none, or Z, UTC or GMT; else the offset written."""
    text = text.strip()
    if not text or text.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    if offset >= timedelta(hours=24):
        raise QueryError(f"offset {text!r} in the query is not a time zone; write e.g. +01:00")
    return timezone(sign * offset)


def zone_name_note(query: str) -> str | None:
    """A warning for a time of day written with a zone's name ("2pm PST"), which is not read,
    so that a window there is the whole day, not the hour (module docstring); None when the
    query has none."""
    m = _ZONE_NAME_RE.search(query)
    if m is None:
        return None
    return (
        f"{m.group()!r}: {m.group(2)} is a time zone this search does not read, so the whole day was read, "
        f"not that hour; write the time in UTC or with an offset (e.g. 14:00+01:00)"
    )
