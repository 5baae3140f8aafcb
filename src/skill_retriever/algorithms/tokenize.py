"""Word and BM25 tokens that keep identifiers whole and also split them into parts.

Skill names, services, versions and tickets are identifiers (``checkout-api``,
``deploy-v3.5.0``, ``INC-1043``, ``snake_case``). A whitespace tokenizer keeps the
punctuation and case; a ``\\w+`` tokenizer loses the whole name. Here an *identifier* is
a run of word characters joined by single ``-``, ``.``, ``/`` or ``_``; it is emitted
whole and, when it has inner separators, also as its parts.

Rules (the tests pin each one):

* Text is NFKC-normalised and lower-cased (``str.lower``), so full-width letters and
  ligatures match their plain forms.
* Parts are split only at ``-``, ``.``, ``/`` and ``_``; letter-digit runs stay together
  (``v3``, ``sha256``, ``k8s``). ``deploy-v3.5.0`` gives ``deploy-v3.5.0``, ``deploy``,
  ``v3``, ``5``, ``0``.
* A separator must sit between word characters, so ``end.`` gives ``end`` and
  ``--flag`` gives ``flag``.
* A token with no letter or digit (``___``) is dropped; nothing empty is ever returned.
* Control characters, symbols and unpaired surrogates are separators, never errors.
* The pattern ``\\w+(?:[-./]\\w+)*`` cannot backtrack catastrophically (every repetition
  starts with a separator), so the cost is linear in the text length.

What BM25 indexes and searches (:func:`bm25_terms`) is those tokens analysed as Lucene's
English analyser does: English function words (:data:`STOP_WORDS`) dropped, every plain
word reduced to its Snowball (Porter2) stem, so "playlists" finds "playlist" and "the"
finds nothing. Identifiers, and tokens with a digit, stay as they are (``checkout-api``,
``INC-1043``, ``k8s``); their parts are words like any other. Measured on the
benchmark's eight catalogue sets (``skill-retriever benchmark --only skills,toolret
--max-queries 500``, commit d871cb8 before, 1fe7ce1 after), nDCG@10 of BM25 alone: skills
dev 68.2 -> 73.5, metatool 35.5 -> 54.2, restbench-spotify 57.7 -> 62.3, restbench-tmdb
28.9 -> 48.1, seal-tools 85.5 -> 86.4, stabletoolbench 54.9 -> 66.3, traject-bench 47.2 ->
49.6, ultratool 52.4 -> 66.5; of the default search: 75.2 -> 75.5, 66.8 -> 67.8, 62.9 ->
66.2, 45.3 -> 52.5, 86.5 -> 86.1, 69.5 -> 69.7, 54.4 -> 54.5, 77.4 -> 78.2. Multi-hop R@5
moved by at most half a point; the incident benchmark's fusion MRR fell 88.7 -> 87.1.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import Counter
from functools import lru_cache

import snowballstemmer

__all__ = ["BM25_ANALYSER_VERSION", "STOP_WORDS", "bm25_analyser", "bm25_term_counts", "bm25_terms", "bm25_tokens", "fold_accents", "split_identifier", "stem", "tokenize_words"]

# The word list reads best as text, hence `str.split` (noqa: SIM905).
#: English function words (NLTK's list, contraction stubs included) plus request verbs
#: that every query has ("find", "show", "need", ...). Lower case.
STOP_WORDS: frozenset[str] = frozenset(
    """a about above after again against all also am an and any are aren as at be because
    been before being below between both but by can could couldn d did didn do does doesn
    doing don down during each few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how i if in into is isn it its itself just ll m
    ma me mightn more most mustn my myself needn no nor not now o of off on once only or
    other our ours ourselves out over own re s same shan she should shouldn so some such t
    than that the their theirs them themselves then there these they this those through to
    too under until up ve very was wasn we were weren what when where which while who whom
    why will with won would wouldn y you your yours yourself yourselves
    please find show give tell need want using use via e.g i.e""".split()
)

#: Bump whenever :func:`bm25_terms` (or :func:`bm25_term_counts`) would give another
#: answer for some text: an index stores each item's counts under :func:`bm25_analyser`,
#: and counts stored under another analyser are counted again from the item's text.
#: tests/algorithms/test_bm25_analyser.py pins the output this version gives.
BM25_ANALYSER_VERSION = 1

_IDENTIFIER_RE = re.compile(r"\w+(?:[-./]\w+)*")
_PART_SPLIT_RE = re.compile(r"[-./_]+")
_ALNUM_RE = re.compile(r"[^\W_]")


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def tokenize_words(text: str) -> list[str]:
    """Lower-cased words, with identifiers such as ``checkout-api`` kept as one token.

    Args:
        text: Any string.

    Returns:
        The words in text order; use :func:`split_identifier` for an identifier's parts.
    """
    # Every match holds a word character; one with no "_" holds a letter or digit, so
    # only the rare match with an underscore needs the look (`findall`: no match objects).
    return [w for w in _IDENTIFIER_RE.findall(_normalise(text)) if "_" not in w or _ALNUM_RE.search(w)]


def split_identifier(token: str) -> list[str]:
    """The parts of an identifier, split at ``-``, ``.``, ``/`` and ``_``.

    Args:
        token: One token, as :func:`tokenize_words` returns it.

    Returns:
        The non-empty parts in order (``["checkout", "api"]`` for ``checkout-api``);
        ``[token]`` for a plain word.
    """
    return [p for p in _PART_SPLIT_RE.split(token) if p]


def is_identifier(text: str) -> bool:
    """Whether ``text`` holds an identifier rather than plain words: a digit, or a word
    that :func:`split_identifier` splits (``INC-1043``, ``deploy-v3.5.0``, ``checkout-api``,
    ``snake_case``; not ``deploy`` or ``python testing``)."""
    return any(c.isdigit() for c in text) or any(len(split_identifier(w)) > 1 for w in tokenize_words(text))


def bm25_tokens(text: str) -> list[str]:
    """Tokens for BM25: every word, and after each identifier its parts.

    ``"Deploy checkout-api"`` gives ``["deploy", "checkout-api", "checkout", "api"]``.
    Documents and queries must use the same function, so a query ``checkout`` matches a
    document naming ``checkout-api`` and a query ``checkout-api`` ranks it above one that
    says ``checkout`` and ``api`` apart.

    Args:
        text: Any string (any Unicode, control characters, a megabyte or more).

    Returns:
        Non-empty lower-case tokens in text order; duplicates are kept (term frequency).
    """
    tokens: list[str] = []
    for word in tokenize_words(text):
        tokens.extend(_word_tokens(word) if len(word) <= _CACHED_WORD_CHARS else _split_tokens(word))
    return tokens


#: Longest word whose tokens are cached: longer ones are rare (a hash, a URL, stuffing)
#: and would fill the cache with text.
_CACHED_WORD_CHARS = 64


def _split_tokens(word: str) -> tuple[str, ...]:
    """What :func:`bm25_tokens` makes of one word of :func:`tokenize_words`."""
    parts = split_identifier(word)
    return (word, *parts) if len(parts) > 1 or (parts and parts[0] != word) else (word,)


# A text repeats its words, so each distinct word is split once: a query that scans and
# explains thousands of long items (``query -k 3000``) spent most of `bm25_tokens` splitting.
_word_tokens = lru_cache(maxsize=1 << 16)(_split_tokens)


def fold_accents(text: str) -> str:
    """``text`` with accents folded ("Akinoshū" -> "Akinoshu"), case kept."""
    if text.isascii():  # most names: NFKD changes no ASCII character and none combines
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_stemmers = threading.local()  # a Snowball stemmer keeps state between calls: one per thread


@lru_cache(maxsize=1 << 18)
def stem(word: str) -> str:
    """The Snowball (Porter2) English stem of a lower-case word ("deployments" -> "deploy").
    A corpus has far fewer distinct words than words, so the cache does most of the work."""
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


@lru_cache(maxsize=1)
def bm25_analyser() -> str:
    """What :func:`bm25_terms` depends on: :data:`BM25_ANALYSER_VERSION`, the stemmer
    packages (``snowballstemmer`` uses PyStemmer when it is installed) and the Unicode
    tables of NFKC and ``\\w``. Stored term counts are used only under the same value."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(dist: str) -> str:
        try:
            return version(dist)
        except PackageNotFoundError:
            return "-"

    return (
        f"bm25 {BM25_ANALYSER_VERSION}; snowballstemmer {installed('snowballstemmer')}; "
        f"PyStemmer {installed('PyStemmer')}; unicode {unicodedata.unidata_version}"
    )


def bm25_terms(text: str) -> list[str]:
    """What BM25 indexes and searches: :func:`bm25_tokens` without :data:`STOP_WORDS`, each
    token of letters only stemmed (:func:`stem`); identifiers and tokens with a digit kept.

    ``"Deploying the checkout-api services"`` gives ``["deploy", "checkout-api", "checkout",
    "api", "servic"]``. Documents and queries must use the same function.
    """
    return [stem(t) if t.isalpha() else t for t in bm25_tokens(text) if t not in STOP_WORDS]


@lru_cache(maxsize=1 << 18)
def _word_terms(word: str) -> tuple[str, ...]:
    """What :func:`bm25_terms` makes of one word of :func:`tokenize_words`."""
    return tuple(stem(t) if t.isalpha() else t for t in _split_tokens(word) if t not in STOP_WORDS)


def bm25_term_counts(text: str) -> Counter[str]:
    """``Counter(bm25_terms(text))``, worked out once per distinct word: a long text
    repeats its words (six real skill repositories: 2.8M words, 1.1M of them distinct
    within their item), so counting every item's terms (writing an index; opening one
    whose counts are not stored, ``stores.stored_terms``) takes about half the time."""
    out: Counter[str] = Counter()
    for word, times in Counter(tokenize_words(text)).items():
        for term in _word_terms(word):
            out[term] += times
    return out
