"""A number before a month that counts what follows, not a day: "top 5 May releases" asks for
five of May's releases, which was read as the day May 5.

The rule, for a day written before its month as British English writes it ("5 May"):

* after a count word (top, first, last, best, worst, latest, newest, oldest, bottom, next,
  previous, past) the number is a count: "top 5 May releases", "the last 3 Nov incidents",
  "first 10 March deploys", "top 5 May 2026 releases";
* else a word that introduces a date before it (on, since, until, from, between, ...) or a
  year after the month makes it a day: "releases on 5 May", "list 3 May 2026 incidents";
* else a plural word right after the month is the thing counted: "5 May releases", "the 3
  Nov outages" (write "on 3 Nov" for that day's outages); a singular one is what the day
  names ("the 5 May release"), and so is any other word ("5 May at noon");
* an ordinal or "of" ("5th May", "the 5th of May releases") is always a day, and so is a day
  written after its month ("May 5 releases": a count would come first).
"""

from __future__ import annotations

import re

from skill_retriever.algorithms.tokenize import STOP_WORDS

__all__ = ["counts_things"]

_COUNT_WORDS = frozenset("top first last best worst latest newest oldest bottom next previous past".split())
_DATE_WORDS = frozenset("on in during since after before until till by from to between and at".split())
# A number, one word (the month its caller matched) and an optional year: no ordinal, no "of".
_NUMBER_WORD = re.compile(r"(?i:the\s+)?\d{1,2}\s+[A-Za-z]+(?:,?\s+\d{4})?")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s+$")
_YEAR_AFTER = re.compile(r",?\s+\d{4}(?!\d)")
_WORD_AFTER = re.compile(r"\s+([A-Za-z]+)\b")


def counts_things(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, a day written before its month ("5 May", "the 3 Nov",
    "5 May 2026"), is rather a count of what follows (module docstring: "top 5 May
    releases"). False for any other day ("May 5", "5th May", "2026-05-05")."""
    if _NUMBER_WORD.fullmatch(text, start, end) is None:
        return False
    before = _WORD_BEFORE.search(text[max(0, start - 20) : start])
    word = before.group(1).lower() if before else ""
    if word in _COUNT_WORDS:
        return True
    if word in _DATE_WORDS or re.search(r"\d{4}$", text[start:end]) or _YEAR_AFTER.match(text, end):
        return False
    after = _WORD_AFTER.match(text, end)
    return after is not None and _plural(after.group(1).lower())


def _plural(word: str) -> bool:
    """A plural noun, as far as its spelling tells: "releases", "incidents"; not "this",
    "was", "status" or "analysis"."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and word not in STOP_WORDS
