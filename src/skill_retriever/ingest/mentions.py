"""Find which component names a text mentions: one pass over its 1-4-grams, not a regex per name.

Names and text are normalised the same way: lower-cased ``[\\w-]+`` tokens with outer
hyphens stripped, joined by one space. ``code-review`` therefore matches the token
``code-review`` but not ``code-review-checklist`` (a word-boundary match), and ``Next.js``
matches ``next js``.

Only distinctive names are looked for (`is_distinctive`): common words such as "test" or
"docs" would link everything to everything. A name is also dropped when too many texts
of the corpus contain it (`common_keys`), a plain one-word name sooner: "manage" or
"finish" are words there, not references, and a name every tenth text cites is a hub
that says little about any one of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_TOKEN_RE = re.compile(r"\w(?:[\w-]*\w)?")  # [\w-]+ without outer hyphens
MAX_NGRAM = 4
#: Shortest plain one-word name (no ``-`` or ``_``) that is looked for.
MIN_PLAIN_LENGTH = 6


def tokens(text: str) -> list[str]:
    """Lower-cased ``[\\w-]+`` tokens with outer hyphens stripped."""
    return _TOKEN_RE.findall(text.lower())


def name_key(name: str) -> str:
    """The normalised form of a name; '' when it has no word characters."""
    return " ".join(tokens(name))


def is_plain_word(key: str) -> bool:
    """One token without ``-`` or ``_``: could be an ordinary word."""
    return " " not in key and "-" not in key and "_" not in key


def is_distinctive(key: str) -> bool:
    """At most 4 tokens, and 2+ tokens, or a ``-``/``_`` inside, or >= 6 characters."""
    if not key or key.count(" ") >= MAX_NGRAM:
        return False
    return not is_plain_word(key) or len(key) >= MIN_PLAIN_LENGTH


class MentionScanner:
    """A dictionary of name keys and a scan that finds them in one pass over a text."""

    def __init__(self, names: Iterable[str]) -> None:
        self.keys: frozenset[str] = frozenset(k for k in map(name_key, names) if is_distinctive(k))
        self._singles = frozenset(k for k in self.keys if " " not in k)
        self._firsts = frozenset(k.split(" ", 1)[0] for k in self.keys if " " in k)
        self._max_n = max((k.count(" ") + 1 for k in self.keys), default=0)

    def scan(self, text: str) -> set[str]:
        """The keys that occur in ``text`` as whole token sequences."""
        toks = tokens(text)
        found = set(self._singles.intersection(toks))
        firsts, keys = self._firsts, self.keys
        for i in [i for i, tok in enumerate(toks) if tok in firsts]:
            for n in range(2, min(self._max_n, len(toks) - i) + 1):
                gram = " ".join(toks[i : i + n])
                if gram in keys:
                    found.add(gram)
        return found


def common_keys(
    found: Iterable[set[str]],
    n_texts: int,
    *,
    plain_share: float = 0.03,
    share: float = 0.10,
    floor: int = 5,
) -> set[str]:
    """Keys found in too many texts to mean a reference.

    A plain one-word key is too common in more than ``max(floor, plain_share * n_texts)``
    texts ("manage", "finish"); any other key in more than ``max(floor, share * n_texts)``.
    """
    df: Counter[str] = Counter()
    for keys in found:
        df.update(keys)
    plain_limit, limit = max(floor, plain_share * n_texts), max(floor, share * n_texts)
    return {k for k, count in df.items() if count > (plain_limit if is_plain_word(k) else limit)}
