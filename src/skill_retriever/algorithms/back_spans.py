"""A span back from now named without a count: "in recent weeks", "this fortnight".
`temporal.parse_time_window` reads it with or without days, after the other rules and before
"recent" alone.

The rule: "recent <units>" ("recent weeks", "over recent months", "in recent days") is the
past few of those units, 3, as "the past few weeks" is (`last_spans`); read as "recent" alone
it was the past ``recent_days`` (7), which "recent weeks" says is too short. "this fortnight"
is the past 14 days, as "the past fortnight" is: a fortnight has no calendar start to count
from, as a week has its Monday; it was no window at all.
"""

from __future__ import annotations

import re
from datetime import datetime

from skill_retriever.algorithms.time_words import NUMBER_WORDS, UNITS

__all__ = ["back_span"]

_BACK_RE = re.compile(
    r"\b(?:(?:in|within|over|during|for)\s+)?(?:the\s+)?(?:recent\s+(?P<units>minutes|hours|days|weeks|fortnights"
    r"|months|years)|this\s+fortnight)\b",
    re.IGNORECASE,
)


def back_span(query: str, now: datetime) -> tuple[datetime, datetime, str] | None:
    """The span back from ``now`` that "recent <units>" or "this fortnight" in ``query`` names
    (module docstring) as ``(start, end, phrase)``, or None when it names none."""
    m = _BACK_RE.search(query)
    if m is None:
        return None
    if m["units"] is None:  # "this fortnight"
        return now - UNITS["fortnight"], now, m.group()
    return now - NUMBER_WORDS["a few"] * UNITS[m["units"].lower()[:-1]], now, m.group()
