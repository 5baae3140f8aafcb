"""Two counts of one unit, "a day or two ago", "a week or two ago", "in the past day or two",
"the last 2 or 3 days": the wider reading. `temporal.parse_time_window` reads it with or
without days; "in the past day or two" was the past day, "a week or two ago" no window but a
note of "two ago".

The rule: "N or M <unit> ago" (or "<unit> or M", "back" for "ago") runs from the start of the
span M units ago to the end of the span N units ago, as a vague count does (`ago`): "a day or
two ago" is from the start of 2 days ago to the end of yesterday, "a week or two ago" the days
7 to 14 back, "a month or two ago" the two calendar months before the current. "last/past/
previous N or M <unit>" is the span back from now of the larger count, as "last M <unit>"
(months 30 days, years 365).
"""

from __future__ import annotations

import re
from datetime import datetime

from skill_retriever.algorithms.ago import ago_span
from skill_retriever.algorithms.time_words import NUMBER_WORDS, UNITS, WORD_NUM, WORD_UNIT
from skill_retriever.exceptions import QueryError

__all__ = ["or_count_span"]

_NUM = rf"\d+|{WORD_NUM}"
_OR = (
    rf"(?:(?P<a>{_NUM})\s+)?(?P<u1>{WORD_UNIT})\s+or\s+(?P<b>{_NUM})(?:\s+(?P<u2>{WORD_UNIT}))?"
    rf"|(?P<c>{_NUM})\s+or\s+(?P<d>{_NUM})\s+(?P<u3>{WORD_UNIT})"
)
_OR_RE = re.compile(
    rf"(?<![\w.])(?:(?P<last>(?:(?:in|within|over|during|for)\s+)?(?:the\s+)?(?:last|past|previous)\s+)(?:{_OR})"
    rf"|(?:{_OR.replace('?P<', '?P<x')})\s+(?:ago|back))\b",
    re.IGNORECASE,
)


def or_count_span(query: str, now: datetime) -> tuple[datetime, datetime, str] | None:
    """The window two counts of one unit in ``query`` name (module docstring) as ``(start,
    end, phrase)``, or None when it names none. ``now`` is in UTC.

    Raises:
        QueryError: It is further back than the year 1.
    """
    m = _OR_RE.search(query)
    if m is None:
        return None
    pre = "" if m["last"] else "x"
    groups = {k: m[pre + k] for k in ("a", "b", "c", "d", "u1", "u2", "u3")}
    counts = sorted(_count(groups[k]) for k in (("a", "b") if groups["u1"] else ("c", "d")))
    word = (groups["u2"] or groups["u1"] or groups["u3"] or "").lower()
    if groups["u1"] and groups["u2"] and groups["u1"].lower().rstrip("s") != word.rstrip("s"):
        return None  # "a day or an hour ago": two units, no count of one
    if m["last"] is None:  # from the start of the furthest back to the end of the nearest
        far, near = (ago_span(f"{n:g} {word} ago", now) for n in (counts[-1], counts[0]))
        if far is None or near is None:  # _OR and ago's phrase read the same units
            return None
        return far[0], near[1], m.group()
    try:
        return now - counts[-1] * (UNITS.get(word) or UNITS[word[:-1]]), now, m.group()
    except OverflowError as exc:
        raise QueryError(f"{m.group()!r} in the query is further back than the year 1") from exc


def _count(text: str | None) -> float:
    """A count as written ("2", "two", "a"); none before the unit ("past day or two") is one."""
    words = " ".join((text or "one").lower().split())
    return float(words) if words[0].isdigit() else float(NUMBER_WORDS[words])
