"""A weekday named alone after a verb in the past tense, "what broke Monday", "what changed
Friday?": the most recent such day before today, as "last Monday" and "on Monday" are.
`temporal.parse_time_window` reads it only with days (an index whose items carry dates), as
"on Monday": in a tool request "schedule a call Monday" is an argument, and the coming Monday.
It was no window.

Only after a verb in the past tense (a word in -ed, or "broke", "ran", "went" and the like),
as most weekdays alone are not a day past: "my Monday mornings", "a casual Friday", "Sunday
school", "the upcoming Saturday", "alarm for Saturday", "Monday to Friday" (a walk of the tool
requests in metatool and ultratool, where each was read as last week's day). A weekday that is
part of a name or a plural is none either: "Monday.com", "Cyber Monday", "Monday Night
Football" (a capitalised word after it), "Mondays"; nor the first of a range of days ("worked
Monday to Friday").
"""

from __future__ import annotations

import re

from skill_retriever.algorithms.time_words import WEEKDAY_NAME

__all__ = ["ON_WEEKDAY_RE", "weekday_alone"]

# "on Friday" (not "on Fridays"), read with days (`temporal`).
ON_WEEKDAY_RE = re.compile(rf"\bon\s+({WEEKDAY_NAME})(?![\w-])", re.IGNORECASE)
_WEEKDAY_RE = re.compile(
    rf"(?i:\b(?:\w+ed|broke|ran|went|fell|came|began|did|was|were|got|made|took|sent|built|lost|wrote|saw|froze|rose)"
    rf"\s+)((?i:{WEEKDAY_NAME}))(?![\w-]|\.\w)"
    # not a name's ("Monday Night Football") nor a range's first day ("Monday to Friday")
    rf"(?!\s+[A-Z]|\s*(?:-|(?i:to|through|thru|till|until|and|or)\s)\s*(?i:{WEEKDAY_NAME}))"
)


def weekday_alone(query: str) -> str | None:
    """The first weekday named alone after a verb in the past tense in ``query`` (module
    docstring), as written, or None."""
    m = _WEEKDAY_RE.search(query)
    return m[1] if m else None
