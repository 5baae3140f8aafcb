"""The words of the part of an item's text a reason line reads, and the first of each
stem: "bake" is held "as baked" (`components.word_matches`).

A query read each item's text twice with the same tokenizer (`algorithms.tokenize.
bm25_tokens`): once for the injection scan's keyword-stuffing check (``safety.injection``,
the first ``STUFFING_WINDOW`` characters) and once here (the first ``COVERAGE_CHARS``).
Where the text is no longer than both windows, the two read the same words, so the forms
are made from the scan's words (`IndexSnapshot.flags` hands them over) and each item is
tokenized once per query; a longer item's first ``COVERAGE_CHARS`` are tokenized here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from skill_retriever.algorithms.query_terms import STOP_WORDS
from skill_retriever.algorithms.tokenize import bm25_tokens, stem

__all__ = ["WordForms"]


@dataclass(frozen=True)
class WordForms:
    """The words of the first ``chars`` characters of a text, and the first of them with
    each stem.

    Attributes:
        tokens: Every word (`bm25_tokens`) of that part.
        by_stem: Stem -> the first word of letters (no stop word) with that stem.
    """

    tokens: frozenset[str]
    by_stem: Mapping[str, str]

    @classmethod
    def of(cls, text: str, chars: int, window: tuple[Sequence[str], int] | None = None) -> WordForms:
        """The forms of ``text[:chars]``; ``window``: ``(bm25_tokens(text[:n]), n)`` where the
        caller has them, used when they are the same words (the text is no longer than
        ``chars`` and ``n``)."""
        if window is not None and len(text) <= min(chars, window[1]):
            tokens = window[0]
        else:
            tokens = bm25_tokens(text[:chars])
        by_stem: dict[str, str] = {}
        for t in dict.fromkeys(tokens):  # the first of each word, in text order
            if t.isalpha() and t not in STOP_WORDS:
                by_stem.setdefault(stem(t), t)
        return cls(frozenset(tokens), by_stem)
