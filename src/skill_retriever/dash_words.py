"""What argparse says when a query (or a name) begins with '-', in words that say how to give it.

argparse reads one word that begins with '-' (``query --no-verify``, ``query -fuzz``) as an
unknown option, so the command said only "the following arguments are required: query",
though the user had given one; and after ``--`` it reads every word as a positional, so
``query -- -k --index-dir .idx`` said "unrecognized arguments: --index-dir .idx" of options
the user had written. (A query of several words is no option to argparse, whatever its
first character: ``query "-v flag ignored"`` searches.)
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence

__all__ = ["after_double_dash", "dash_word_advice"]

_REQUIRED = "the following arguments are required: "


def dash_word_advice(parser: argparse.ArgumentParser, message: str, given: Sequence[str]) -> str:
    """For a missing positional, where ``given`` (the command's words after its name) holds
    a word beginning with '-' that is none of ``parser``'s options: what to add to
    ``message`` (``"; '-fuzz' begins with '-' ... `skill-retriever query -k 3 -- -fuzz`"``),
    else ``""``."""
    if not message.startswith(_REQUIRED):
        return ""
    words = list(given)
    if "--" in words:  # after it nothing is read as an option
        return ""
    unknown = [w for w in words if w.startswith("-") and w != "-" and not _is_option(parser, w)]
    if not unknown:
        return ""
    word = unknown[0]
    rest = list(words)
    rest.remove(word)
    fixed = shlex.join([*parser.prog.split(), *rest, "--", word])
    return (f"; {word!r} begins with '-', so it was read as an option: give it after '--', "
            f"last on the line: `{fixed}`")


def after_double_dash(given: Sequence[str], rest: Sequence[str]) -> str:
    """Where ``rest`` (words left over) came after ``--`` in ``given``: what to add to the
    "unrecognized arguments" error (every word after ``--`` is the query's, or the
    name's), else ``""``."""
    words = list(given)
    if "--" not in words or not rest:
        return ""
    after = words[words.index("--") + 1:]
    if not any(w.startswith("-") for w in rest if w in after):
        return ""
    return "; every word after '--' is read as the query (or name), none as an option: put the options before '--'"


def _is_option(parser: argparse.ArgumentParser, word: str) -> bool:
    """Whether argparse reads ``word`` as one of ``parser``'s options (``--index-dir=x``,
    ``-k5``, an abbreviation such as ``--index``), or as a negative number."""
    name = word.split("=", 1)[0]
    options = parser._option_string_actions  # argparse's own table of option strings
    if name in options or parser._negative_number_matcher.match(word):
        return True
    if name.startswith("--"):
        return any(o.startswith(name) for o in options)
    return any(name.startswith(o) for o in options if len(o) == 2 and not o.startswith("--"))
