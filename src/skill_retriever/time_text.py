"""Read a time written as text, as exports write it: ISO-8601, ISO with a zone word, RFC 2822.

`model.parse_timestamp` reads every item's times through `read_time_text`. Besides ISO-8601
(date and time apart by ``T`` or a space), two forms exports write are read:

- an ISO date and time followed by ``UTC``, ``GMT`` or ``UT`` (``2026-11-03 14:05:00 UTC``,
  as database dumps and log exports write it): the time in UTC. Only after a time of day:
  ``2026-11-03 UTC`` is refused, since an ``until`` of a date alone takes its whole day and
  this one would not;
- RFC 2822 (``Tue, 03 Nov 2026 14:05:00 +0000``, as e-mail, HTTP and RSS exports write it),
  by `email.utils.parsedate_to_datetime`. A zone it does not know (``CET``, ``GMT+1``) is
  refused, not read as UTC (the standard library reads it so, hours off without a word);
  ``-0000`` ("no zone known") is UTC, as a time with no zone is here; ``+05:30`` is read as
  ``+0530``; a weekday that is not the date's is refused (one of the two is wrong).

A form that says nothing of which number is the day (``03/11/2026``) stays refused.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

#: The date part of an ISO-8601 string: calendar (extended or basic) or week date. Python's
#: ``fromisoformat`` takes any character between date and time, so without this check
#: "20240601-01-01" (year 20,240,601) read as 2024-06-01 01:00 at UTC-1.
ISO_DATE_PART = re.compile(r"\d{4}-\d{2}-\d{2}|\d{8}|\d{4}-?W\d{2}(?:-?\d)?")

#: An ISO date and time, then a word naming UTC.
_ZONE_WORD = re.compile(r"(?P<time>.*\d[Tt ]\d{1,2}:\d{2}\S*)\s*(?:UTC|GMT|UT)", re.IGNORECASE)

#: RFC 2822's date-time (section 3.3): an optional weekday, day, month name, year, time, zone.
_RFC_2822 = re.compile(
    r"(?:(?P<weekday>[A-Za-z]{3}),?\s+)?\d{1,2}\s+[A-Za-z]{3,9}\s+(?P<year>\d{4}|\d{2})\s+"
    r"\d{1,2}:\d{2}(?::\d{2})?(?:\s+(?P<zone>[^\s(]+))?(?:\s+\([^()]*\))?"  # "+0000 (UTC)": a mail header's comment
)
_COLON_OFFSET = re.compile(r"([+-]\d{2}):(\d{2})")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class TimeTextError(ValueError):
    """Text that has a known form (RFC 2822) but is no time in it: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_time_text(text: str) -> datetime:
    """The time ``text`` (stripped, ``Z`` handled by the caller) writes; naive when it
    names no zone.

    Raises:
        TimeTextError: RFC 2822 in form, but no time (an unknown zone, a wrong weekday).
        ValueError: No form read here.
    """
    rfc = _RFC_2822.fullmatch(text)
    if rfc is not None:
        return _rfc_2822(text, rfc)
    worded = _ZONE_WORD.fullmatch(text)
    if worded is not None:
        dt = _iso(worded["time"])
        if dt.tzinfo is not None:
            raise ValueError("an offset and a zone word")
        return dt.replace(tzinfo=UTC)
    return _iso(text)


def _iso(text: str) -> datetime:
    if not ISO_DATE_PART.fullmatch(re.split(r"[Tt ]", text, maxsplit=1)[0]):
        raise ValueError("no ISO-8601 date before the time")
    return datetime.fromisoformat(text)


def _rfc_2822(text: str, match: re.Match[str]) -> datetime:
    zone = match["zone"]
    if zone is not None and _COLON_OFFSET.fullmatch(zone):
        text = text[: match.start("zone")] + _COLON_OFFSET.sub(r"\1\2", zone)
    try:
        dt = parsedate_to_datetime(text)
    except (TypeError, ValueError, OverflowError) as exc:  # 31 Feb, hour 25, offset +9999
        raise TimeTextError(str(exc).rstrip(".")) from exc
    if dt.tzinfo is None and zone is not None and zone != "-0000":
        raise TimeTextError(f"zone {zone!r} is not one it names; write it as an offset such as +0100")
    if len(match["year"]) == 4 and dt.year != int(match["year"]):  # 0026 read as 2026
        raise TimeTextError(f"year {match['year']} is out of range")
    weekday = match["weekday"]
    if weekday is not None and weekday.lower() != _WEEKDAYS[dt.weekday()]:
        raise TimeTextError(f"{dt.date().isoformat()} is a {_WEEKDAYS[dt.weekday()].title()}, not a {weekday}")
    return dt


def unset_time(value: object) -> bool:
    """Whether an export's time field says "not set": null, ``""``, or 0 (the epoch's start,
    1970-01-01, which no incident, document or tool of an index was made at: exports write
    ``"resolvedAt": 0`` for an incident still open). Such a field is no time of the item:
    read as 1970, it put the item first in "oldest" and in no window of its real dates."""
    if value is None or value == "":
        return True
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0
