"""A part of a calendar week, month or year: "late last week", "end of last month", "early
this month", "mid last year". `temporal.parse_time_window` reads it with or without days, as
it reads "last week"; read as the whole period (the part word left as words), "late last
week" held last Monday as much as last Friday.

The rule: "early", "the start/beginning of" a period is its first half, "late", "the end of"
its second half, "mid", "the middle of" its middle half (from a quarter in to three quarters
in), in whole days, the halves of an odd number of days both holding the middle day: "late
last week" is Thursday to Sunday, "early this month" in December the 1st to the 16th (up to
now, as "this month" is), "mid last year" 2 April to 1 October. "by the end of this month"
names a deadline, not a part, and "from the beginning of this year" a bound: they are read as
they were. "since", "after", "before", "prior to", "until" or "till" before a part is a bound
at it, as at "last week": "since early last week" is from last Monday to now, "before late last
month" up to the 16th (it was the whole of last week, the "since" dropped). "from" alone before
"early", "mid", "late" or "the start/middle/end of" a period is that part, as "from last week" is that
week ("posts from last month", "a song from mid-July" in the benchmarks' requests): "deploys from early
last week" was the whole week, and so were "from the start of last week" and "from the end of last week"
(but "from the start of this year" is still from its start to now); the first of a range ("from early
last week to yesterday") is read by `date_bounds`, from the part's start. The part takes the
place of its period's reading only where that reading is of its period: "last 3 days ... late last
week" is still the last 3 days.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from skill_retriever.algorithms.date_spans import day_or_instant

__all__ = ["part_span", "period_part"]

_PART_RE = re.compile(
    r"\b(?:(?:in|during|at|over)\s+)?(?:the\s+)?(?:(early|mid|late)[\s-]+|(start|beginning|middle|end)\s+of\s+)"
    r"((?:this|last|previous)\s+(?:week|month|year))\b",
    re.IGNORECASE,
)
# A bound before it: "by the end of this month" a deadline, "from the beginning of this year" a
# start (`temporal`'s "since the start of"), "until the end of last month" an end (groups from, kind).
_BY_RE = re.compile(
    r"\b(?:by|(from)|(since|after|before|prior\s+to|until|till)|to|between|and)\s+(?:the\s+)?$", re.IGNORECASE
)
# "from early last week to yesterday": the first of a range, which the part does not read.
_RANGE_END_RE = re.compile(r"\s+(?:to|until|till|through|thru|and)\b", re.IGNORECASE)
_PART = {"early": "early", "start": "early", "beginning": "early", "mid": "mid", "middle": "mid",
         "late": "late", "end": "late"}  # fmt: skip


def part_span(period: tuple[datetime, datetime], word: str) -> tuple[datetime, datetime]:
    """The part of ``period`` (its start and end) that ``word`` names, "early", "mid", "late",
    "start", "beginning", "middle" or "end" (module docstring), as ``(start, end)``."""
    first, last = period
    days, part = (last - first).days, _PART[word.lower()]
    lo, hi = {"early": (0, -(-days // 2)), "late": (days // 2, days), "mid": (days // 4, -(-3 * days // 4))}[part]
    return first + timedelta(days=lo), first + timedelta(days=hi)


def period_part(query: str, now: datetime) -> tuple[datetime | None, datetime | None, str] | None:
    """The part of a calendar period ``query`` names (module docstring), or the bound at it,
    as ``(start, end, phrase)``, or None when it names none. ``now`` is in UTC."""
    for m in _PART_RE.finditer(query):
        by = _BY_RE.search(query, 0, m.start())
        # "from the start of this year" is a bound up to now (`temporal`'s "this year"), of last year the part
        this_edge = m[2] and m[2].lower() != "middle" and m[3].lower().startswith("this")
        from_part = by and by[1] and not this_edge and not _RANGE_END_RE.match(query, m.end())
        if by and not by[2] and not from_part:  # a deadline or a bound read elsewhere
            continue
        start, end = part_span(day_or_instant(m[3], now), m[1] or m[2])
        if by and by[2] and (kind := by[2].lower().split()[0]) in ("since", "after"):
            start = start if kind == "since" else end
            return start, now if start < now else None, query[by.start() : m.end()]
        if by and by[2]:  # "before", "prior to" up to its start; "until", "till" to its end
            return None, start if kind in ("before", "prior") else end, query[by.start() : m.end()]
        phrase = query[by.start() : m.end()] if by else m.group()  # "deploys from early last week": the part
        return start, min(end, now) if start < now else end, phrase  # "early this month": up to now
    return None
