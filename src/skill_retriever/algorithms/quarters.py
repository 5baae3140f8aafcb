"""A calendar quarter in a query: "this quarter", "last quarter", "Q3 2026", "in Q3".
`temporal.parse_time_window` reads it where it reads days (``days=True``: an index whose
items carry dates); in a tool request ("a sales report for last quarter") it is an argument.

A quarter is a calendar one: Q1 is January to March, Q4 October to December, UTC. "this"
or "current quarter" runs from its start to now; "last", "previous" or "past quarter" is
the one before the current, whole (a reporting period, not the past 91 days), as "last
month" is the calendar month. "past" and "the last quarter" are that quarter too, unlike
"past month" (the past 30 days): of metatool's 8 requests with "the last quarter", 7 ask
for sales, revenue or a sector's results, figures of the reported quarter. "Q3" without
a year is the most recent third quarter that has begun ("Q4" in May 2026 is Q4 2025).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["quarter_window"]

_YEAR = r"(?:19|20)\d{2}"
_QUARTER_RE = re.compile(
    rf"(?<![\w-])(?:(?i:in|during)\s+)?(?:(?i:q)([1-4])(?:[\s-]({_YEAR}))?|({_YEAR})-?(?i:q)([1-4]))(?![\w-])"
    r"|\b(?i:(this|current|last|previous|past)\s+quarter)\b"
)


def quarter_window(query: str, now: datetime) -> tuple[datetime, datetime, str] | None:
    """The quarter ``query`` names (module docstring) as ``(start, end, phrase)``, or None.
    ``now`` is in UTC."""
    m = _QUARTER_RE.search(query)
    if m is None:
        return None
    current = (now.month - 1) // 3
    if which := m.group(5):
        if which.lower() in ("this", "current"):
            return _start(now.year, current), now, m.group()
        year, index = (now.year, current - 1) if current else (now.year - 1, 3)
        return _start(year, index), _start(year, index + 1), m.group()
    index = int(m.group(1) or m.group(4)) - 1
    written = m.group(2) or m.group(3)
    year = int(written) if written else now.year if index <= current else now.year - 1
    return _start(year, index), _start(year, index + 1), m.group()


def _start(year: int, index: int) -> datetime:
    """The start of quarter ``index`` (0 to 3; 4 is the next year's first) of ``year``."""
    return datetime(year + index // 4, index % 4 * 3 + 1, 1, tzinfo=UTC)
