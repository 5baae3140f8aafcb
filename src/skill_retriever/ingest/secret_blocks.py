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
- a YAML plain scalar on the line after its secret's name (``api_key:``, then ``  X``
  more indented, or ``  {X}``). Only one word, or one pair of braces, on the one line
  right after the key goes (the caller decides, as for a block): a nested mapping
  (``api_key:`` then ``  value: X``), a list (``  - X``), a comment, a tag or an alias,
  and a value that goes on over more lines, are no such value.

Both are linear: quantifiers are possessive and bounded, and `redact_blocks` reads each
line once (a block's lines are its value, not searched for other blocks).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.braced_values import braced_inside
from skill_retriever.ingest.secret_formats import REDACTED
from skill_retriever.ingest.secret_values import PROSE_VALUE

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
#: or (no ``block``) one with nothing after it (``api_key:``), its value on the next line.
_BLOCK_KEY_RE = re.compile(
    r"""(?m)^(?P<indent>[ \t]*+)(?:-[ \t]++)?+(?P<q>["']?+)(?P<name>[A-Za-z_][\w.-]{0,128}+)(?P=q)"""
    r"""[ \t]*+:(?:[ \t]++(?P<block>[|>][-+1-9]{0,2}+))?+[ \t]*+(?:(?<=[ \t])#[^\n]*+)?+\r?+$"""
)

#: What every line `_BLOCK_KEY_RE` matches holds: a text without it is not scanned.
_BLOCK_HINT_RE = re.compile(r":[ \t]*+[|>#\r\n]")
#: The first character of a plain scalar's line that makes it no value written out: a
#: list's ``-`` (then a blank), a comment, a tag, an anchor or alias, YAML's reserved ones.
_NO_PLAIN_START_RE = re.compile(r"-(?:[ \t]|$)|[#!&*@`%|>]")


def redact_blocks(text: str, secret_name: Callable[[str], bool], secret: Callable[[str], bool]) -> str:
    """``text`` with the value of each YAML block scalar whose key ``secret_name`` says
    is a secret's replaced by `REDACTED` when every line of it is one word and
    ``secret`` says the words, joined, are a secret (see the module docstring)."""
    if _BLOCK_HINT_RE.search(text) is None:
        return text
    out, pos, search = [], 0, 0
    while (m := _BLOCK_KEY_RE.search(text, search)) is not None:
        start = end = last = m.end() + 1 if m.end() < len(text) else m.end()
        plain = m["block"] is None  # a plain scalar: one word on the next line only
        words: list[str] = []
        while end < len(text) and not (plain and len(words) == 2):  # blank lines, lines deeper than the key
            stop = text.find("\n", end)
            stop = len(text) if stop < 0 else stop
            line = text[end:stop]
            if plain and not words and not line.strip():
                break  # a blank line first: no value on the key's next line
            if line.strip():
                if len(line) - len(line.lstrip(" \t")) <= len(m["indent"]):
                    break
                words.append(line.strip())
                last = stop
            end = stop + 1
        # A plain key's deeper lines may be a nested mapping's, each key of it read in turn.
        search = m.end() + 1 if plain else max(last, m.end() + 1)
        if plain:
            words = [value] if words and (value := _plain_value(words)) else []
        if words and secret_name(m["name"]) and all(w.split() == [w] for w in words) and secret("".join(words)):
            first = start + len(text[start:last]) - len(text[start:last].lstrip())
            if plain:  # its quotes and the line's ``\r`` stay, as an assignment's quotes do
                quotes = int(len(words[0]) > 1 and words[0][0] in "\"'" and words[0][-1] == words[0][0])
                out += [text[pos : first + quotes], REDACTED]
                pos = first + len(words[0]) - quotes
            else:
                out += [text[pos:first], REDACTED]
                pos = last
            search = max(search, pos)
    return "".join(out) + text[pos:] if out else text


def _plain_value(lines: list[str]) -> str:
    """The value written on the one line (``lines``, the block's, stripped, no blank line
    before them) right after a key with nothing after it (``api_key:``): one word, or
    one pair of braces around a word (``{Xk9;2mQ}``, which YAML would read as a flow
    mapping); "" when it is no such value: more lines, a nested mapping (``value: X``,
    ``db:``, ``{a: b}``), a list, a comment, a tag or an alias."""
    value = lines[0] if len(lines) == 1 else ""
    if not value or _NO_PLAIN_START_RE.match(value):
        return ""
    if braced_inside(value) is not None:  # the caller judges braces (``{db: x}`` is no secret's)
        return value if value.split() == [value] else ""
    if value.endswith(":") or ": " in value or "\t" in value or " #" in value:
        return ""
    return value
