"""Secrets whose name and value stand on different lines: `NAME_VALUE_RE` and
`redact_blocks`.

`prose_secrets` reads a page line by line (a rule runs only over lines that name a
secret), yet two common forms put the value on a line of its own:

- an environment list entry, as Kubernetes, ECS task definitions and Terraform write
  it: ``- name: API_KEY`` and ``value: "..."`` on the next line (or on the same one:
  ``{"name": "API_KEY", "value": "..."}``, also with other keys between,
  ``{name: API_KEY, value: ...}``, HCL's
  ``name = "API_KEY"``). `NAME_VALUE_RE` gives the entry's ``name`` and ``val``, for
  `prose_secrets` to decide as it does for ``API_KEY=...``; ``valueFrom:`` and an entry
  with a blank line between its two keys are no such pair.
- a YAML block scalar under a secret's name (``api_key: |`` or ``>-``, the value on the
  more indented lines after it). `redact_blocks` replaces the value when every line of
  it is one word and the words, joined, read as a literal secret (the caller decides):
  a block of prose (``token: |`` and a sentence) stays, and a PEM key in one is
  `secret_formats`'.
- a YAML value on the lines after its secret's name (``api_key:``, then ``  X`` more
  indented, blank lines before it or not), as YAML reads it (the caller decides, as for
  a block): one word, quoted or not; one pair of braces, around a word or words
  (``  {X;Y}``, ``  {correct horse battery!}``); a quoted phrase (``  "correct horse
  battery"``); one word on each of more lines (a token wrapped to fit), joined as a
  block's. A quote that the key's own line opens and a later line closes
  (``password: "X`` then ``  more"``) is read to that quote, its lines joined by a blank
  as YAML folds them. A nested mapping (``api_key:`` then ``  value: X``), a list
  (``  - X``), a comment, a tag or an alias, a sentence, and a value of more than
  `_VALUE_LINES` lines are no such value; nor is a line no deeper than the key (prose
  after ``Set your token:``).

All are linear: quantifiers are possessive and bounded, and `redact_blocks` reads each
line once (a block's lines are its value, not searched for other blocks; a value's end
at the first line that is no scalar's, a key's among them).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.braced_values import braced_inside
from skill_retriever.ingest.prose_values import PROSE_VALUE
from skill_retriever.ingest.secret_formats import REDACTED

__all__ = ["NAME_VALUE_RE", "redact_blocks", "same_item"]

#: A key other than ``value`` and its scalar value, between an entry's name and value
#: on the same line (an ECS task definition's ``{"name": "X", "type": "...", "value":
#: ...}``); ``valueFrom`` is one such key, so an entry with it and no ``value`` is none.
_OTHER_KEY = (
    r"""[ \t]*+,[ \t]*+["']?+(?!value["']?+[ \t]*+:)[A-Za-z_][\w-]{0,64}+["']?+[ \t]*+:[ \t]*+"""
    r"""(?:"[^"\n]{0,256}+"|'[^'\n]{0,256}+'|[^\s,{}\[\]"']{1,256}+)"""
)
#: A line of its own between an entry's name line and its value line, holding one other
#: key and a scalar (``type: string``, ``"required": true,``); a key with no value on
#: its line (``valueFrom:``) opens a nested mapping and ends the entry. Up to
#: `_OTHER_LINES` of them; `same_item` checks that they are the entry's.
_OTHER_LINE = (
    r"""\r?\n[ \t]*+(?!["']?+value["']?+[ \t]*+:)["']?+[A-Za-z_][\w-]{0,64}+["']?+[ \t]*+:[ \t]++"""
    r"""(?:"[^"\r\n]{0,256}+"|'[^'\r\n]{0,256}+'|[^\s"'#{}\[\],][^\r\n,]{0,256}+)[ \t]*+,?+"""
)
_OTHER_LINES = 3
#: An environment entry's ``name`` key and value (other keys may stand between, on its
#: line or on lines of their own), then (after a comma, or at the start of the next
#: line) its ``value`` key and the value: YAML, JSON, a flow mapping, HCL.
NAME_VALUE_RE = re.compile(
    r"""(?<![\w$.-])(?P<nq>["']?+)name(?P=nq)[ \t]*+[:=][ \t]*+(?P<q>["']?+)"""
    r"""(?P<name>[A-Za-z_][\w.-]{0,128}+)(?P=q)(?:""" + _OTHER_KEY + r"""){0,8}+[ \t]*+,?+"""
    r"""(?P<others>(?:""" + _OTHER_LINE + r"""){0,""" + str(_OTHER_LINES) + r"""}+)[ \t]*+(?:\r?\n[ \t]*+)?+"""
    r"""(?P<vq>["']?+)value(?P=vq)[ \t]*+[:=][ \t]*+(?P<val>""" + PROSE_VALUE + ")"
)
def same_item(m: re.Match[str]) -> bool:
    """Whether a `NAME_VALUE_RE` match with other key lines between its name and value
    is one entry: each of those lines and the value's starts at the name key's column
    (``- name: A`` then ``  type: x`` then ``  value: X``); a line indented less or more
    is another item's or a nested mapping's."""
    if not m["others"]:
        return True
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    column = m.start() - line_start
    lines = m[0].split("\n")[1:]
    return all(len(line) - len(line.lstrip(" \t")) == column for line in lines)


#: A YAML key that opens a block scalar (``api_key: |``, ``- token: >-``, a comment after),
#: a quoted scalar its line does not close (``password: "X``, ``open``: the quote and
#: what follows it), or (neither) one with nothing after it (``api_key:``), its value on
#: the lines after it.
_BLOCK_KEY_RE = re.compile(
    r"""(?m)^(?P<indent>[ \t]*+)(?:-[ \t]++)?+(?P<q>["']?+)(?P<name>[A-Za-z_][\w.-]{0,128}+)(?P=q)[ \t]*+:"""
    r"""(?:[ \t]++(?:(?P<block>[|>][-+1-9]{0,2}+)|(?P<open>"[^"\\\r\n]{0,256}+|'[^'\r\n]{0,256}+)))?+"""
    r"""[ \t]*+(?:(?<=[ \t])#[^\n]*+)?+\r?+$"""
)

#: What every line `_BLOCK_KEY_RE` matches holds: a text without it is not scanned.
_BLOCK_HINT_RE = re.compile(r""":[ \t]*+[|>#\r\n"']""")
#: The first character of a plain scalar's line that makes it no value written out: a
#: list's ``-`` (then a blank), a comment, a tag, an anchor or alias, YAML's reserved ones.
_NO_PLAIN_START_RE = re.compile(r"-(?:[ \t]|$)|[#!&*@`%|>]")
#: The most lines a value after a key with nothing after it may take (a token wrapped
#: to fit, a passphrase quoted over lines); more are a text, no value.
_VALUE_LINES = 16


def redact_blocks(text: str, secret_name: Callable[[str], bool], secret: Callable[[str], bool]) -> str:
    """``text`` with the value of each YAML block scalar whose key ``secret_name`` says
    is a secret's replaced by `REDACTED` when every line of it is one word and
    ``secret`` says the words, joined, are a secret; and so a value on the lines after a
    key with nothing after it, or a quoted one its key's line does not close, which
    ``secret`` judges as YAML reads it (`_scalar`; see the module docstring)."""
    if _BLOCK_HINT_RE.search(text) is None:
        return text
    out, pos, search = [], 0, 0
    while (m := _BLOCK_KEY_RE.search(text, search)) is not None:
        after = m.end() + 1 if m.end() < len(text) else m.end()
        indent = len(m["indent"])
        if m["block"] is not None:
            spans, _ = _deeper_lines(text, after, indent, None)
            search = max(spans[-1][1] if spans else after, m.end() + 1)  # a block's lines are its value
            words = [text[a:b] for a, b in spans]
            if words and secret_name(m["name"]) and all(w.split() == [w] for w in words) and secret("".join(words)):
                out += [text[pos : spans[0][0]], REDACTED]
                pos = search = spans[-1][1]
            continue
        # A plain key's deeper lines may be a nested mapping's, each key of it read in turn.
        search = m.end() + 1
        spans, whole = _deeper_lines(text, after, indent, _VALUE_LINES)
        if m["open"] is not None:
            spans = [(m.start("open"), m.end("open") - (len(m["open"]) - len(m["open"].rstrip())))] + spans
        read = _scalar([text[a:b] for a, b in spans]) if spans and whole else None
        if read is None or (m["open"] is not None and not read[1]):
            continue  # a quote its key's line opens and no line closes: the assignment rule's word
        if not secret_name(m["name"]) or not secret(read[0]):
            continue
        quoted = int(read[1])  # a quoted value's quotes (and the line's ``\r``) stay, as an assignment's do
        out += [text[pos : spans[0][0] + quoted], REDACTED]
        pos = search = spans[-1][1] - quoted
    return "".join(out) + text[pos:] if out else text


def _deeper_lines(text: str, start: int, indent: int, most: int | None) -> tuple[list[tuple[int, int]], bool]:
    """The spans (blanks and ``\\r`` aside) of the lines from ``start`` that are blank or
    indented deeper than ``indent``, up to one that is not, and whether they end there
    (or at the text's end): with ``most``, a value's lines, they end early (False) at
    one that can be no scalar's (`_plain_line`: a key, a list item, a comment) or past
    ``most`` of them, so that no line is read for two keys."""
    spans: list[tuple[int, int]] = []
    end = start
    while end < len(text):
        stop = text.find("\n", end)
        stop = len(text) if stop < 0 else stop
        line = text[end:stop]
        if line.strip():
            if len(line) - len(line.lstrip(" \t")) <= indent:
                return spans, True
            if most is not None and (len(spans) == most or not _plain_line(line.strip())):
                return spans, False
            spans.append((end + len(line) - len(line.lstrip()), end + len(line.rstrip())))
        end = stop + 1
    return spans, True


def _plain_line(line: str) -> bool:
    """Whether ``line`` (stripped) may be a line of a scalar written out, no nested
    mapping's key (``value: X``, ``db:``), list item, comment, tag or alias."""
    if _NO_PLAIN_START_RE.match(line):
        return False
    if braced_inside(line) is not None:  # the caller judges braces (``{db: x}`` is no secret's)
        return True
    return not (line.endswith(":") or ": " in line or "\t" in line or " #" in line)


def _scalar(lines: list[str]) -> tuple[str, bool] | None:
    """The value (and whether quotes hold it) written on ``lines`` (stripped, blank ones
    left out) after a key with nothing after it (``api_key:``), or from the quote its
    line opened, for the caller to judge; None for no such value. A quoted value runs to
    the quote that ends its last line, its lines joined by a blank as YAML folds them
    (``"Xk9s2mQz7Lp`` then ``more"``: ``"Xk9s2mQz7Lp more"``); else one word, one pair
    of braces around a word or words (``{Xk9;2mQ}``, ``{correct horse battery!}``,
    which YAML would read as a flow mapping), or one word on each line, joined as the
    words of a block scalar are (a token wrapped to fit)."""
    first = lines[0]
    if first[0] in "\"'":
        value = " ".join(lines)
        if len(value) > 1 and value[-1] == first[0] and first[0] not in value[1:-1]:
            return value, True
        # Not closed, or closed before the end: one word on one line is read as the
        # assignment rule reads a quote no quote closes (``"Xk9s2mQz7Lp``), quote and all.
        return (first, False) if len(lines) == 1 and first.split() == [first] else None
    if len(lines) == 1 and (inside := braced_inside(first)) is not None:
        return None if ": " in inside or inside.rstrip().endswith(":") else (first, False)  # ``{db: x}``: a mapping
    if any(line.split() != [line] or line[0] in "\"'{" for line in lines):
        return None  # a sentence, or a quote or a brace that no line of its own closes
    return "".join(lines), False
