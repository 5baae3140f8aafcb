"""Query components, coverage, named entities and complexity for planning and completeness.

Words come from :func:`~skill_retriever.algorithms.tokenize.tokenize_words`: lower-cased,
identifiers such as ``checkout-api`` kept whole. Matching is by whole words, never by
substring, so ``api`` does not match ``apis`` and a name ``checkout`` does not match the
query word ``checkout-api``.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

from skill_retriever.algorithms.tokenize import STOP_WORDS, bm25_tokens, tokenize_words

__all__ = [
    "STOP_WORDS", "Coverage", "NameMatcher", "classify_complexity", "coverage",
    "coverage_of_vocabularies", "named_entities", "query_components", "text_vocabulary",
    "tokenize_words",
]  # fmt: skip

# The word lists below read best as text, hence `str.split` (noqa: SIM905).
#: Capitalised words that start a request; the entity regex skips them at a sentence start.
SENTENCE_STARTERS: frozenset[str] = frozenset(
    """How What Which Who Whom Whose Where When Why Find Show List Give Get Tell Explain
    Describe Compare Please Can Could Would Should Is Are Do Does Did Help Search Look
    Return Recommend Suggest Summarize Summarise Install Load Fetch""".split()
)

_ENTITY_RE = re.compile(r"\b[A-Z][a-z]+\w*\b")
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?:;])\W*")

#: Cues of a multi-hop question (single words, and two-word phrases).
MULTI_HOP_WORDS = frozenset(
    """and then before after compare compared comparison versus vs than difference
    differ differs both either older younger earlier later larger smaller bigger better
    worse""".split()
)
MULTI_HOP_PHRASES = frozenset({("that", "depends"), ("of", "the")})
#: Relation words: with two or more named entities they make a query multi-hop.
RELATION_WORDS = frozenset(
    """depends depend dependency dependencies requires require required uses used calls
    call affects affected affect causes caused cause broke breaks touches touched feeds
    conflicts enhances related connected linked between""".split()
)
SIMPLE_MAX_WORDS = 4
COMPLEX_MIN_WORDS = 12


@dataclass(frozen=True)
class Coverage:
    """How much of a query a set of texts covers.

    Attributes:
        ratio: ``len(covered) / (len(covered) + len(missing))``; 1.0 when both are empty.
        covered: Components found, in input order.
        missing: Components not found, in input order.
    """

    ratio: float
    covered: tuple[str, ...]
    missing: tuple[str, ...]


def _content_words(query: str) -> list[str]:
    return [w for w in tokenize_words(query) if w not in STOP_WORDS]


def query_components(query: str, min_length: int = 3) -> list[str]:
    """Keywords, bigrams and trigrams of a query, stop words removed.

    Stop words are removed first; keywords are the remaining words of at least
    ``min_length`` characters; bigrams and trigrams are taken over the whole remaining
    sequence (short words included), joined by one space. ``"Deploy the checkout-api to
    k8s"`` gives ``deploy, checkout-api, k8s, deploy checkout-api, checkout-api k8s,
    deploy checkout-api k8s``.

    Args:
        query: The query text.
        min_length: Shortest keyword kept.

    Returns:
        Keywords, then bigrams, then trigrams, each in query order, without repeats.
    """
    words = _content_words(query)
    grams = [w for w in words if len(w) >= min_length]
    for n in (2, 3):
        grams.extend(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
    return list(dict.fromkeys(grams))


def text_vocabulary(text: str) -> frozenset[str]:
    """The distinct words of a text as coverage matches them (identifiers and their parts)."""
    return frozenset(bm25_tokens(text))


def coverage(components: Sequence[str], texts: Iterable[str]) -> Coverage:
    """Which query components occur in at least one of the texts.

    A component is covered when every one of its words occurs, as a whole word and
    ignoring case, in one and the same text (the phrase itself occurring is the special
    case of adjacent words). A word matches an identifier's part too: ``checkout`` is
    found in a text saying ``checkout-api``. Repeated components count once; a
    component without any word (punctuation only) is ignored.

    Args:
        components: From :func:`query_components`, or any phrases.
        texts: The retrieved texts; read once, and only until every component is found.

    Returns:
        The :class:`Coverage`.
    """
    return coverage_of_vocabularies(components, (text_vocabulary(t) for t in texts))


@functools.lru_cache(maxsize=256)
def _component_words(components: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Each distinct component's words (components without a word left out). Cached:
    the multifactor score asks once per candidate with the same components. Callers
    only read the dict."""
    wanted = {c: frozenset(tokenize_words(c)) for c in dict.fromkeys(components)}
    return {c: ws for c, ws in wanted.items() if ws}


def coverage_of_vocabularies(components: Sequence[str], vocabularies: Iterable[AbstractSet[str]]) -> Coverage:
    """:func:`coverage` over texts already reduced to :func:`text_vocabulary` sets.

    Callers that check the same items again and again (every completeness round, every
    candidate's score) keep the sets instead of tokenising the texts each time.
    """
    wanted = _component_words(tuple(components))
    open_ = dict(wanted)
    for vocab in vocabularies:
        if not open_:
            break
        open_ = {c: ws for c, ws in open_.items() if not ws <= vocab}
    covered = tuple(c for c in wanted if c not in open_)
    ratio = len(covered) / len(wanted) if wanted else 1.0
    return Coverage(ratio=ratio, covered=covered, missing=tuple(open_))


class NameMatcher:
    """Finds known item names in a query by looking up the query's word n-grams.

    Built once from any number of names (100k is fine): each name is normalised to its
    words and stored in a dict, with the lengths of the names that start with each word,
    so a lookup tries only lengths that exist for the word at hand: it never depends on
    how many names there are, and one item with a 500-word "name" costs a query nothing
    unless the query contains that name's first word.
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_key: dict[tuple[str, ...], list[str]] = {}
        self._lengths: dict[str, list[int]] = {}  # first word -> name lengths, ascending
        self._max_words = 0
        for name in names:
            self.add_words(tuple(tokenize_words(name)), name)

    def add_words(self, key: tuple[str, ...], name: str) -> None:
        """Add ``name``, whose words the caller has already (``tokenize_words(name)``): one
        pass over an index's names fills two matchers without tokenising twice
        (``stores.name_views``). Only while the matcher is being built, by one thread."""
        if not key:
            return
        found = self._by_key.setdefault(key, [])
        if name in found:
            return
        found.append(name)
        lengths = self._lengths.setdefault(key[0], [])
        if len(key) not in lengths:
            bisect.insort(lengths, len(key))
        self._max_words = max(self._max_words, len(key))

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_key.values())

    def find(self, text: str) -> list[str]:
        """Known names occurring in text as whole words, in order of appearance, once each."""
        words = tokenize_words(text)
        found: dict[str, None] = {}
        for i, word in enumerate(words):
            for n in self._lengths.get(word, ()):
                if n > len(words) - i:
                    break
                for name in self._by_key.get(tuple(words[i : i + n]), ()):
                    found.setdefault(name)
        return list(found)


def named_entities(query: str, known_names: Iterable[str] | NameMatcher = ()) -> list[str]:
    """Named entities of a query: capitalised words, then known item names.

    Capitalised words match ``\\b[A-Z][a-z]+\\w*\\b``; one in :data:`SENTENCE_STARTERS`
    or :data:`STOP_WORDS` is skipped when it starts a sentence ("How", "Find", "The").
    Known names follow, in order of appearance, unless already listed (ignoring case).

    Args:
        query: The query text.
        known_names: Item names, or a prebuilt :class:`NameMatcher` (build one once for
            large collections).

    Returns:
        The entities, each once.
    """
    found: dict[str, str] = {}
    sentence_starts = {m.end() for m in _SENTENCE_START_RE.finditer(query)}
    for m in _ENTITY_RE.finditer(query):
        word = m.group()
        starter = word in SENTENCE_STARTERS or word.lower() in STOP_WORDS
        if starter and m.start() in sentence_starts:
            continue
        found.setdefault(word.lower(), word)
    matcher = known_names if isinstance(known_names, NameMatcher) else NameMatcher(known_names)
    for name in matcher.find(query):
        found.setdefault(name.lower(), name)
    return list(found.values())


def classify_complexity(
    query: str, entities: Sequence[str]
) -> Literal["simple", "medium", "complex"]:
    """Route a query: simple, medium or complex.

    * complex: a multi-hop cue, or at least :data:`COMPLEX_MIN_WORDS` content words.
      Cues: a word of :data:`MULTI_HOP_WORDS` ("and", "then", "before", comparisons),
      a phrase of :data:`MULTI_HOP_PHRASES` ("that depends", "of the"), "which" or
      "whose" anywhere but first (a relative clause, not the question word), or two or
      more entities together with a word of :data:`RELATION_WORDS`.
    * simple: at most :data:`SIMPLE_MAX_WORDS` content words and no cue.
    * medium: everything else.

    Content words are the words of :func:`tokenize_words` that are not stop words.

    Args:
        query: The query text.
        entities: Its named entities (from :func:`named_entities`).

    Returns:
        ``"simple"``, ``"medium"`` or ``"complex"``.
    """
    words = tokenize_words(query)
    n_content = sum(1 for w in words if w not in STOP_WORDS)
    cue = (
        any(w in MULTI_HOP_WORDS for w in words)
        or any(pair in MULTI_HOP_PHRASES for pair in itertools.pairwise(words))
        or any(w in ("which", "whose") for w in words[1:])
        or (len({e.lower() for e in entities}) >= 2 and any(w in RELATION_WORDS for w in words))
    )
    if cue or n_content >= COMPLEX_MIN_WORDS:
        return "complex"
    return "simple" if n_content <= SIMPLE_MAX_WORDS else "medium"
