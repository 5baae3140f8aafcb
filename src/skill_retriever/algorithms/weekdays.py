"""A weekday named alone after a verb in the past tense, "what broke Monday", "what changed
Friday?": the most recent such day before today, as "last Monday" and "on Monday" are.
`temporal.parse_time_window` reads it only with days (an index whose items carry dates), as
"on Monday": in a tool request "schedule a call Monday" is an argument, and the coming Monday.
It was no window. Without days `time_words.unread_time_phrase` names it, as it names "on Monday"
(it named nothing); the search says so only where items carry dates (`phases.plan_query`), where
it is read.

Only after a verb in the past tense (a word in -ed, or "broke", "ran", "went" and the like),
as most weekdays alone are not a day past: "my Monday mornings", "a casual Friday", "Sunday
school", "the upcoming Saturday", "alarm for Saturday", "Monday to Friday" (a walk of the tool
requests in metatool and ultratool, where each was read as last week's day). A weekday that is
part of a name or a plural is none either: "Monday.com", "Cyber Monday", "Monday Night
Football" (a capitalised word after it), "Mondays"; nor the first of a range of days ("worked
Monday to Friday"). Two days with "or", "what broke Monday or Tuesday", are the span of both,
the wider reading as of two counts (`or_counts`): Monday to Wednesday 00:00; it was no window.
So are they after "on", "what broke on Monday or Tuesday" (`on_weekday`): it was Monday alone.
"""

from __future__ import annotations

import re
from datetime import datetime

from skill_retriever.algorithms.date_spans import day_or_instant
from skill_retriever.algorithms.time_words import PAST_WEEKDAY_RE, WEEKDAY_NAME

__all__ = ["on_weekday", "weekday_alone"]

# "on Friday" (not "on Fridays"), or two, "on Monday or (on) Tuesday", read with days (`temporal`).
_ON_WEEKDAY_RE = re.compile(
    rf"\bon\s+({WEEKDAY_NAME})(?:\s+or\s+(?:on\s+)?({WEEKDAY_NAME}))?(?![\w-])", re.IGNORECASE
)


def on_weekday(query: str, now: datetime) -> tuple[datetime, datetime, str] | None:
    """The first "on <weekday>" in ``query``, or "on <weekday> or <weekday>", as ``(start, end,
    phrase)``: the most recent such day before today, or the span of both; None if there is none.
    ``now`` is in UTC."""
    if (m := _ON_WEEKDAY_RE.search(query)) is None:
        return None
    spans = [day_or_instant(day, now) for day in m.groups() if day]
    return min(s[0] for s in spans), max(s[1] for s in spans), m.group()


def weekday_alone(query: str, now: datetime) -> tuple[datetime, datetime, str] | None:
    """The first weekday (or two, with "or") named alone after a verb in the past tense in
    ``query`` (module docstring) as ``(start, end, phrase)``, the phrase as written, or None.
    ``now`` is in UTC."""
    m = PAST_WEEKDAY_RE.search(query)
    if m is None:
        return None
    spans = [day_or_instant(m[group], now) for group in ("day", "other") if m[group]]
    return min(s[0] for s in spans), max(s[1] for s in spans), query[m.start("day") : m.end()]
