"""An argument list read by a rule of shell text: `redact_joined`.

Some secrets are a program's to name, not a flag's: ``sshpass -p X``, ``docker login -p
X``, ``curl -u user:X`` (`client_passwords`). The command rule reads them in shell text;
an MCP server's ``command`` and ``args`` (an exec-form hook's too) are the same words as
a list, so the list is joined into one line for that rule and what it redacted is mapped
back to the arguments, rather than each rule being written again for lists.

No shell reads an argument: it is one word whatever it holds. So each character that
would make shell text of it more than one word (a blank, a quote, ``;``, ``|``, a
backslash) is read as a plain one (`_WORD_BREAK_RE`): ``-p "a b"`` loses the whole
password, and no match reaches past an argument's end. Nor does a shell expand a ``$``
in one: only a placeholder's (``${API_KEY}``, ``$API_KEY``) is read as a reference. Joined with single spaces, the
line the rule returns splits back into as many words as there were arguments; an
argument the rule changed is kept up to where the redaction starts, with `REDACTED`
after that (the rest of it was the secret's).

An argument that starts with a flag and holds blanks (``"--user admin:X https://x"``,
``"-pX app"``), or holds a flag after a blank where it is no flag's value (``"login -u me
-p X ghcr.io"`` after ``docker``), is shell text its author wrote in one argument: no
program reads it as that flag, one word that starts with ``-``. Its blanks are read as
blanks (`_flag_words`), so a value in it ends at the first, and what follows the value
stays; so do its quotes where they pair up (`_QUOTES_PAIR_RE`), so that the quote that
closes a value (``--user 'admin:X' https://x``) stays with the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.secret_formats import REDACTED

__all__ = ["on_word_runs", "redact_joined"]

#: What shell text splits at, quotes or escapes, read as a plain character in an
#: argument; so is a ``$`` that starts no placeholder (``${API_KEY}``, which the client
#: expands, or ``$API_KEY``): ``$ecretP4ss`` is a password's own, not a reference.
_WORD_BREAK_RE = re.compile(r"""[\s;&|()`"'\\]|\$(?!\{|[A-Z_][A-Z0-9_]*+(?!\w))""")
#: `_WORD_BREAK_RE` but for quotes: those of an argument read as words whose quotes pair
#: up (`_QUOTES_PAIR_RE`), which no match can read past the argument's end.
_WORD_BREAK_BUT_QUOTES_RE = re.compile(r"""[\s;&|()`\\]|\$(?!\{|[A-Z_][A-Z0-9_]*+(?!\w))""")
#: An argument whose quotes pair up as shell text's do, with no backslash to escape one.
_QUOTES_PAIR_RE = re.compile(r"""(?:[^"'\\]|"[^"\\]*+"|'[^']*+')*+""")
#: A plain character no rule gives a meaning to (Unicode's private use area).
_PLAIN = "\ue000"


def redact_joined(args: list[str], redact: Callable[[str], str]) -> list[str]:
    """``args`` with what ``redact`` (a rule of shell text that replaces values by
    `REDACTED` and keeps the rest) takes out of them joined into one command line."""
    words = [
        _words_of(arg) if _flag_words(arg, args[i - 1] if i else "") else _WORD_BREAK_RE.sub(_PLAIN, arg)
        for i, arg in enumerate(args)
    ]
    line = " ".join(words)
    out = redact(line)
    if out == line:
        return args
    pieces = out.split(" ")
    if len(pieces) != len(args):
        return _redacted_apart(args, words, pieces)
    return [arg if piece == word else _cut(arg, word, piece) for arg, word, piece in zip(args, words, pieces, strict=True)]


#: Where a blank stands in an argument read as words (`_flag_words`): a blank to every
#: rule (``[ \t]``), which the joined line is not split at.
_BLANK = "\t"
_BLANKS_RE = re.compile(r"[ \t]")
#: A flag after a blank: ``-p`` in ``login -u me -p X ghcr.io``.
_FLAG_WORD_RE = re.compile(r"[ \t]--?[A-Za-z]")


def _flag_words(arg: str, before: str) -> bool:
    """Whether ``arg`` (after the argument ``before``) is a flag and more written as
    shell words on one line (``--user admin:X https://x``, ``-pX app``), or words with a
    flag among them (``login -u me -p X ghcr.io``) that are no value of a flag before
    (``-p``, ``"a b -c d"``: a password with blanks, which goes whole): a value in it
    ends at a blank."""
    if "\n" in arg or _BLANKS_RE.search(arg) is None:
        return False
    return arg.startswith("-") or (not before.startswith("-") and _FLAG_WORD_RE.search(arg) is not None)


def _words_of(arg: str) -> str:
    """``arg`` as `_flag_words` reads it: its blanks a rule's (`_BLANK`), its quotes
    quotes where they pair up (`_QUOTES_PAIR_RE`), each other character that shell text
    splits at read as a plain one."""
    breaks = _WORD_BREAK_BUT_QUOTES_RE if _QUOTES_PAIR_RE.fullmatch(arg) else _WORD_BREAK_RE
    return _BLANK.join(breaks.sub(_PLAIN, part) for part in _BLANKS_RE.split(arg))


def _cut(arg: str, word: str, piece: str) -> str:
    """``arg`` (read as ``word``) kept up to where ``piece``, its redacted word, differs
    from it, or where the `REDACTED` that the difference is part of starts, and
    `REDACTED` after that; ``arg`` whole when the difference starts after a `REDACTED`
    it holds already. Of an argument read as words, what follows a value that ended at
    a blank or its closing quote stays when the rule changed nothing more (`_after_value`)."""
    at = 0
    while at < min(len(word), len(piece)) and word[at] == piece[at]:
        at += 1
    start = piece.rfind(REDACTED, 0, at + len(REDACTED))
    cut = start if start >= 0 and start > at - len(REDACTED) else at
    kept = arg[:cut]
    # A rule read again a value redacted already, and on to the argument's end: a script
    # the command rule read (`secrets.redact_args`: ``sh -c 'curl -u admin:X https://x'``),
    # whose blanks this line reads as plain characters. What follows the value is the
    # script's, which the command rule redacted where it held a secret: it stays.
    if kept.endswith(REDACTED):
        return arg
    return kept + REDACTED + _after_value(arg, word, piece, cut)


def _after_value(arg: str, word: str, piece: str, cut: int) -> str:
    """What of ``arg`` follows the value redacted at ``cut``, when ``piece`` goes on
    after its `REDACTED` as ``word`` ends, so that the value was one word (no `_BLANK` in
    it, in an argument read as words) and nothing after it changed: from the blank that
    ended it, or the quote that closes it (``'admin:X' https://x``), a quote opened in its
    word before it. Nothing when the value is no flag's in the argument, at its start
    (``pass word -x`` after ``htpasswd -b FILE USER``: a password with blanks), nor when
    two values were redacted in one argument or one ran over a blank (all after them go)."""
    rest = piece[cut + len(REDACTED) :]
    end = len(word) - len(rest)
    if not piece.startswith(REDACTED, cut) or end <= cut or word[end:] != rest or _BLANK in word[cut:end]:
        return ""
    if not (arg.startswith("-") or _BLANK in word[:cut]):
        return ""
    closing = rest[:1] if rest[:1] in ("'", '"') else ""
    if closing and word.count(closing, word.rfind(_BLANK, 0, cut) + 1, end) % 2 == 0:
        return ""  # ``-pX' y'``: the quote opens a word, and the value goes on in it
    if rest[len(closing) : len(closing) + 1] not in (_BLANK, ""):
        return ""
    return arg[end:]


def _redacted_apart(args: list[str], words: list[str], pieces: list[str]) -> list[str]:
    """``args`` when the redacted line has lost or gained a word boundary: the words alike
    at both ends are kept, and each argument between them goes whole."""
    head = 0
    while head < min(len(words), len(pieces)) and words[head] == pieces[head]:
        head += 1
    tail = 0
    while tail < min(len(words), len(pieces)) - head and words[-1 - tail] == pieces[-1 - tail]:
        tail += 1
    return args[:head] + [REDACTED] * (len(args) - head - tail) + args[len(args) - tail :]


def on_word_runs(line: str, redact: Callable[[str], str]) -> str:
    """A line `redact_joined` made with ``redact`` applied to each run of arguments that
    are whole words (``machine`` ``h`` ``login`` ``u`` ``password`` ``X``), not across an
    argument with a blank or quote in it: read as plain characters there, its words would
    be one value to a rule (``Authorization: Bearer ${TOKEN}`` one credential)."""
    out: list[str] = []
    run: list[str] = []
    for word in [*line.split(" "), None]:
        if word is not None and _PLAIN not in word:
            run.append(word)
            continue
        if run:
            out.append(redact(" ".join(run)))
            run = []
        if word is not None:
            out.append(word)
    return " ".join(out)
