""""The previous day" and "the day before" with no other date named: yesterday, whole, as
"yesterday" is. "the previous day" was the past 24 hours (a "previous <unit>" span) and "the
day before" no window at all. Beside another date ("on Nov 3 and the previous day", "last
Monday or the day before", "the day after tomorrow ... the day before") they are that date's
day before: the date's own rule reads the query, and "previous day" is no "previous <unit>" span
(`last_spans`) there either: "what broke the previous day 2026-11-20" was the past 24 hours,
where the date named is read with days (a tool request's date, without: no window, noted);
"the day before the release" names an event, not a day, and is left as words.

"since", "after", "before", "prior to", "until" or "till" before it is a bound at that day,
as at "yesterday".
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from skill_retriever.algorithms.date_spans import midnight
from skill_retriever.algorithms.month_days import DAY_OF_MONTH
from skill_retriever.algorithms.time_words import DATE

__all__ = ["previous_day"]

_BOUND = r"(?:(since|after|before|prior\s+to|until|till)|in|during|on|from|over|for)\s+"
_PREVIOUS_DAY_RE = re.compile(
    rf"\b(?:{_BOUND})?(?:the\s+)?previous\s+day\b(?!s)"
    rf"|\b(?:{_BOUND})?the\s+day\s+before(?=\s*(?:[.,;:!?)]|$))",
    re.IGNORECASE,
)
# Another date, or a day ahead that "the day before" is of ("the day after tomorrow ... change the
# ticket to the day before").
_OTHER_DATE_RE = re.compile(
    rf"(?<![\w-])(?:{DATE}|{DAY_OF_MONTH}|(?i:tomorrow|tonight|the\s+day\s+after|next\s+\w+))(?![\w-])"
)


def previous_day(query: str, now: datetime) -> tuple[datetime | None, datetime | None, str] | None:
    """Yesterday, where ``query`` says "the previous day" or "the day before" and names no
    other date (module docstring), as ``(start, end, phrase)``; None otherwise. ``now`` is in
    UTC."""
    m = _PREVIOUS_DAY_RE.search(query)
    if m is None or _OTHER_DATE_RE.search(query[: m.start()] + " " + query[m.end() :]):
        return None
    start = midnight(now) - timedelta(days=1)
    end = start + timedelta(days=1)
    kind = (m[1] or m[2] or "").lower().split()[:1]
    if kind in (["since"], ["after"]):
        return (start if kind == ["since"] else end), now, m.group()
    if kind:  # "before", "prior to" up to its start; "until", "till" to its end
        return None, start if kind in (["before"], ["prior"]) else end, m.group()
    return start, end, m.group()
