"""Whether a word reads as a secret a generator made: `generated_secret`.

`secret_values.literal_word` reads a word with ``(``, ``)``, ``%``, braces or brackets in it
as code (a call, a format, a template) and keeps it. A generated key mixes such symbols
with letters and digits (Django's ``SECRET_KEY = 'django-insecure-9x#k2$m@q!7z%w(3e)...'``,
drawn from ``!@#$%^&*(-_=+)``), and it stayed. A run of 16 or more characters with no
blank, brace, bracket, angle bracket or quote (a template, a character class, markup)
that holds letters, digits and at least three different symbols of ``!@#$%^&*`` is such a
key: no code reads so.
"""

from __future__ import annotations

import re

__all__ = ["generated_secret"]

_GENERATED_RE = re.compile(r"[^\s{}\[\]<>\"'`]{16,}")
_GENERATOR_SYMBOLS = frozenset("!@#$%^&*")


def generated_secret(word: str) -> bool:
    """Whether ``word`` (no quotes) reads as a generated secret (see the module)."""
    if _GENERATED_RE.fullmatch(word) is None or len(_GENERATOR_SYMBOLS.intersection(word)) < 3:
        return False
    return any(c.isalpha() for c in word) and any(c.isdigit() for c in word)
