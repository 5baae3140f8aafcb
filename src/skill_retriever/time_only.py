"""A query that asks only for a time window: "incidents since March 2026", "what happened
last week?". Its text without the window says nothing the items' texts could resemble
(a kind word at most), so the similarity line of "nothing fits" (``calibration.fit``)
judges words that are no part of the request: on the README's JSON graph, whose incident
texts never say "incident", such a query listed both incidents of the window and was
flagged "nothing fits" (found in a walkthrough). As with a typed hop that leads somewhere,
the answer is read from the index itself: the items dated inside the window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skill_retriever.algorithms.relations import named_kinds
from skill_retriever.algorithms.tokenize import STOP_WORDS, tokenize_words
from skill_retriever.model import Node
from skill_retriever.state import Fused

__all__ = ["WINDOW_QUERY_FILLER", "window_answers", "window_only_query"]

#: Words a request for "what is in this window" has besides its kind words, which ask for
#: nothing an item's text would hold. Lower case; with `STOP_WORDS` (what, show, all, ...).
WINDOW_QUERY_FILLER = frozenset(
    """list lists listing happened happen happening occurred changed updated created opened
    new item items thing things everything anything something get see""".split()
)


def window_only_query(search_text: str) -> tuple[bool, frozenset[str]]:
    """Whether ``search_text`` (the query without its time phrase) asks for nothing but
    filler and kind words, and the kinds those words name."""
    kinds, rest = named_kinds(search_text)
    only = all(w in STOP_WORDS or w in WINDOW_QUERY_FILLER for w in tokenize_words(rest))
    return only, kinds


def window_answers(search_text: str, top: Sequence[Fused], nodes: Mapping[str, Node]) -> bool:
    """Whether the query asks only for a time window (``window_only_query``) and the answer
    ``top`` holds an item the temporal channel found inside it, of a kind the query's words
    name when they name any ("deploys since March" over a window of incidents still reads
    the similarity line)."""
    only, kinds = window_only_query(search_text)
    return only and any(
        "temporal" in f["ranks"] and (not kinds or nodes[f["id"]].kind.value in kinds) for f in top
    )
