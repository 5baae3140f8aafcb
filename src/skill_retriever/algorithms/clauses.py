"""Split a request into the clauses that each ask for one thing.

An agent's task often chains several asks ("check the altitude of flight ABC1234. Then
fetch the robot's data for this month; finally run task T987 on it"). One embedding of
the whole text lands between its asks, and a ranking built from it fills its top with
near-duplicates of the ask that dominates. The clauses found here are the sub-queries the
ranking is diversified over (`algorithms.diversify`).

The split is by punctuation that ends an ask (``. ! ? ;`` and a line break) and by the
words that chain steps ("then", "after that", "finally", ...). A clause needs
``min_words`` words; a shorter piece joins the clause before it (so "Thanks." adds no ask).

A text of more than :data:`MAX_CLAUSES` pieces is kept whole: past that it reads as prose
(a pasted page, a log) rather than a list of asks, and each clause costs one keyword
search. The limit is set above the longest requests of the judged sets, read from their
texts alone: traject-bench's agent tasks list up to 18 asks (154 of its 500 sampled
requests have 9 or more pieces; seal-tools 7 of 500, the other sets none), and at the
old limit, 8, those requests took no clause coverage at all.
"""

from __future__ import annotations

import re

__all__ = ["MAX_CLAUSES", "query_clauses"]

#: More pieces than this: the text is kept whole (see the module docstring).
MAX_CLAUSES = 20

#: Where one ask ends and the next begins, in a line whose words are one space apart (so
#: no quantifier here ever runs over a long stretch of whitespace: a run of 20,000 spaces
#: took this split 28 s when it allowed ``\s+`` before a look-ahead).
_BOUNDARY = re.compile(
    r"(?<=[.!?;]) "  # end of a sentence or of a ';'-separated item
    r"|[,;]? (?=(?:and )?(?:then|after that|afterwards|finally|lastly|additionally|next)\b[, ])",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+")


def query_clauses(text: str, min_words: int = 3, max_clauses: int = MAX_CLAUSES) -> list[str]:
    """The asks of ``text`` in order, each with its words one space apart; one clause (the
    whole text) when it has one ask or more than ``max_clauses`` pieces.

    >>> query_clauses("Translate 'hello' to French. Then scroll the page down by 3 units.")
    ["Translate 'hello' to French.", 'Then scroll the page down by 3 units.']
    >>> query_clauses("find a PDF tool")
    ['find a PDF tool']
    """
    pieces = [piece for line in text.splitlines() for piece in _BOUNDARY.split(" ".join(line.split()))]
    clauses: list[str] = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        if clauses and len(_WORD.findall(piece)) < min_words:
            clauses[-1] = f"{clauses[-1]} {piece}"
        else:
            clauses.append(piece)
    if len(clauses) > 1 and len(_WORD.findall(clauses[0])) < min_words:
        clauses[1] = f"{clauses[0]} {clauses[1]}"
        del clauses[0]
    if len(clauses) > max_clauses:  # too many to be separate asks: keep the text whole
        return [" ".join(text.split())]
    return clauses
