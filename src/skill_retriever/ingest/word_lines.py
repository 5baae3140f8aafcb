"""The lines of a text in which a pattern matches: `on_lines` runs a rule over them
only; `on_words` finds them with `str.find` when the pattern is a few words, and
`has_word` says whether there is one.

The prose rules read only the lines that name a secret (``key``, ``token``, ``cookie``,
``mysql``...) or show one (an AWS key's context), found by a pattern of those words.
`re` tries each word at each position of a page, and with ``(?i)`` it cannot skip ahead
to a first letter: on ingest of a skills repository that scan took longer than the rules
it saved (seen profiling ``ingest`` of ../shared/data/skills/davila7__claude-code-templates
with cProfile). `str.find` of each word in the text, lowered once, finds the same lines
in a small part of that time.

The lines are the same ones, byte for byte: `str.lower` maps a character to an ASCII
letter exactly when ``re.IGNORECASE`` takes it for that letter (the Kelvin sign for
``k`` in both), and keeps every character's offset, but for three characters (`_ODD`);
a text holding one of those is read by the pattern itself (`on_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["has_word", "on_lines", "on_words", "sub_at_word"]

#: What ``re.IGNORECASE`` equates with an ASCII letter but `str.lower` does not lower to
#: it alone: ``ſ`` is ``s``, ``ı`` and ``İ`` are ``i`` (and ``İ`` lowers to two characters,
#: which would shift every offset after it).
_ODD = ("\u017f", "\u0131", "\u0130")


def on_lines(text: str, hit: re.Pattern[str], redact: Callable[[str], str]) -> str:
    """``text`` with each line in which ``hit`` matches passed through ``redact`` (once),
    the other lines as they are: a rule that needs a word on its line (an AWS secret's
    name) reads only such lines, and its pattern does not scan the rest of a page."""
    out, pos = [], 0
    while (m := hit.search(text, pos)) is not None:
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        out += [text[pos:start], redact(text[start:end])]
        pos = end
    return "".join(out) + text[pos:] if out else text


def _lowered(text: str, fold: bool) -> str | None:
    """``text`` as the words are looked for in it: lowered when ``fold`` (None when it
    holds an `_ODD` character, which `str.lower` does not fold as `re` does)."""
    if not fold:
        return text
    if not text.isascii() and any(c in text for c in _ODD):
        return None
    return text.lower()


def has_word(text: str, hit: re.Pattern[str], words: Iterable[str], *, fold: bool = True) -> bool:
    """Whether ``text`` holds one of ``words`` (in lower case in ``text`` lowered when
    ``fold``, as ``(?i)`` reads them), that is, may hold a match of ``hit``: ``words``
    must be in every text ``hit`` matches in (and are its matches when ``hit`` is their
    alternation)."""
    low = _lowered(text, fold)
    if low is None:
        return hit.search(text) is not None
    return any(word in low for word in words)


def on_words(
    text: str,
    hit: re.Pattern[str],
    words: Iterable[str],
    redact: Callable[[str], str],
    *,
    fold: bool = True,
    confirm: bool = False,
) -> str:
    """`on_lines(text, hit, redact)`: each line in which ``hit`` matches passed through
    ``redact`` (once), found by looking for ``words`` (in lower case in ``text`` lowered
    when ``fold``, as ``(?i)`` reads them; as they are when not).

    ``words`` must be in every line ``hit`` matches in. With ``confirm``, ``hit`` is
    searched in each line that holds one; without it, each such line is redacted, so
    ``hit`` must be the alternation of ``words`` (a line holds one of them exactly when
    it matches), or ``redact`` leave a line without a match of ``hit`` as it is. No word
    and no match of ``hit`` may hold a line break, nor may ``hit`` look past one."""
    low = _lowered(text, fold)
    if low is None:
        return on_lines(text, hit, redact)
    starts = set()
    for word in words:
        i = low.find(word)
        while i >= 0:  # one find per line that holds the word: the rest of the line is skipped
            starts.add(low.rfind("\n", 0, i) + 1)
            end = low.find("\n", i)
            i = -1 if end < 0 else low.find(word, end)
    out, pos = [], 0
    for start in sorted(starts):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        if confirm and hit.search(line) is None:
            continue
        out += [text[pos:start], redact(line)]
        pos = end
    return "".join(out) + text[pos:] if out else text


def sub_at_word(
    pattern: re.Pattern[str], repl: Callable[[re.Match[str]], str], text: str, word: str, lead: str = ""
) -> str:
    """``pattern.sub(repl, text)``, where every match of ``pattern`` starts at ``word``
    or at one character of ``lead`` right before it: only those places are tried (`re`
    would try every position of the text; `str.find` skips to the next ``word``)."""
    out, pos, i = [], 0, text.find(word)
    while i >= 0:
        for start in (i - 1, i) if i and text[i - 1] in lead else (i,):
            if start >= pos and (m := pattern.match(text, start)) is not None:
                out += [text[pos:start], repl(m)]
                pos = m.end()
        i = text.find(word, i + 1)
    return "".join(out) + text[pos:] if out else text
