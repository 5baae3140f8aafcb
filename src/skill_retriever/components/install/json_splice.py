"""Writing a JSON object back over the text it was read from, changing only what changed.

An install or uninstall changes a few members of ``settings.json`` (a hook, a group of
an event) or ``.mcp.json`` (a server). So that the file's diff shows only that, `splice`
walks the old text and the new data together: a value equal to the old one keeps its
text byte for byte; an object or array that changed keeps the text of its unchanged
members and the whitespace and commas between them, with changed members spliced in,
new ones added after the last in the separator the container already uses, and removed
ones taken out with their comma; any other new value is written in the file's style,
indented to its line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Any

from skill_retriever.components.install.json_layout import JsonStyle

__all__ = ["splice"]

#: Whitespace as JSON reads it between tokens.
_WS = " \t\n\r"


class _Unexpected(ValueError):
    """Text the scanner does not read as it expects (the caller writes the whole file)."""


def _constant(name: str) -> Any:
    raise _Unexpected(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_constant)


@dataclass(frozen=True)
class _Item:
    """A member of an object (``key`` set) or an item of an array, by where it lies.

    Attributes:
        start: Where it starts (an object member: its key's quote).
        key_end: Where its key ends (an array item: ``start``).
        value_start: Where its value starts.
        end: Where its value ends.
    """

    start: int
    key_end: int
    value_start: int
    end: int
    key: str | None
    value: Any


@dataclass(frozen=True)
class _Where:
    """How a new value is written where it goes: ``indent`` None on one line (inside an
    inline container), else by that indent, its lines starting with ``line``."""

    indent: str | None
    separators: tuple[str, str]
    line: str


@dataclass(frozen=True)
class _Piece:
    """One member of a rebuilt container: ``old`` its index among the old members (None:
    new), ``text`` its text given the indentation of its line."""

    old: int | None
    text: Callable[[str], str]


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _decode(text: str, pos: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, pos)
    except ValueError as exc:
        raise _Unexpected(str(exc)) from exc


def _canon(value: Any) -> str:
    """``value`` as a string that tells apart what JSON tells apart (``1``, ``1.0`` and
    ``true``; key order), to compare old and new values."""
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError) as exc:  # 1e400 read as inf; nothing to keep by its text
        raise _Unexpected(str(exc)) from exc


def _line_indent(text: str, pos: int) -> str:
    """The whitespace that starts the line ``pos`` is on."""
    start = text.rfind("\n", 0, pos) + 1
    end = start
    while end < pos and text[end] in " \t":
        end += 1
    return text[start:end]


def _members(text: str, start: int) -> tuple[int, list[_Item]]:
    """The members of the object or array at ``text[start]``, and where it ends."""
    close = "}" if text[start] == "{" else "]"
    pos = _skip(text, start + 1)
    items: list[_Item] = []
    if text[pos : pos + 1] == close:
        return pos + 1, items
    while True:
        item_start = key_end = pos
        key = None
        if close == "}":
            if text[pos : pos + 1] != '"':
                raise _Unexpected(f"no key at {pos}")
            key, key_end = _decode(text, pos)
            pos = _skip(text, key_end)
            if text[pos : pos + 1] != ":":
                raise _Unexpected(f"no colon at {pos}")
            pos = _skip(text, pos + 1)
        value, end = _decode(text, pos)
        items.append(_Item(item_start, key_end, pos, end, key, value))
        pos = _skip(text, end)
        if text[pos : pos + 1] == close:
            return pos + 1, items
        if text[pos : pos + 1] != ",":
            raise _Unexpected(f"no comma at {pos}")
        pos = _skip(text, pos + 1)


def splice(text: str, data: Mapping[str, Any], style: JsonStyle) -> str | None:
    """``text`` (one JSON object) rewritten to hold ``data``, the text of every member
    ``data`` keeps as it was left byte for byte (see the module docstring).

    Returns:
        The new text; None when ``text`` is not one JSON object, or when the result
        would not read back as ``data``: the caller then writes the whole file in
        ``style``, as a file with nothing worth keeping by its text.
    """
    start = _skip(text, 0)
    if text[start : start + 1] != "{":
        return None
    try:
        old, end = _decode(text, start)
        if _skip(text, end) != len(text):
            return None
        where = _Where(style.indent, style.separators, _line_indent(text, start))
        result = text[:start] + _Splicer(text, style).value(start, end, old, data, where) + text[end:]
        # A scanner slip must never cost the user their settings: what is written is
        # checked to read back as the data meant, else the whole file is written instead.
        if _canon(_decode(result, _skip(result, 0))[0]) != _canon(dict(data)):
            return None
    except (_Unexpected, RecursionError):
        return None
    return result


def _likeness(old: Any, new: Any) -> int:
    """How much of ``old`` ``new`` keeps: the members (or items) it keeps equal, counted
    down nested objects and arrays; 0 when nothing is shared."""
    if _canon(old) == _canon(new):
        return 1
    if isinstance(old, dict) and isinstance(new, Mapping):
        return sum(_likeness(old[k], new[k]) for k in old if k in new)
    if isinstance(old, list) and isinstance(new, (list, tuple)):
        theirs = {_canon(v) for v in new}
        return sum(_canon(v) in theirs for v in old)
    return 0


def _aligned(old: list[Any], new: list[Any]) -> list[tuple[int | None, int | None]]:
    """``old`` and ``new`` items paired in order: each old item with the new one, after the
    last paired, that keeps the most of it (`_likeness`); (i, None) an old item none
    keeps anything of, (None, j) a new item paired with none."""
    out: list[tuple[int | None, int | None]] = []
    nxt = 0
    for i, value in enumerate(old):
        scores = [(_likeness(value, new[j]), -j) for j in range(nxt, len(new))]
        best = max(scores, default=(0, 0))
        if best[0] == 0:
            out.append((i, None))
            continue
        j = -best[1]
        out += [(None, k) for k in range(nxt, j)]
        out.append((i, j))
        nxt = j + 1
    return out + [(None, k) for k in range(nxt, len(new))]


class _Splicer:
    """Rebuilds values over one old text."""

    def __init__(self, text: str, style: JsonStyle) -> None:
        self.text = text
        self.style = style

    def dumps(self, value: Any, where: _Where) -> str:
        """``value`` written new, as ``where`` says."""
        ascii_only = self.style.ensure_ascii
        if where.indent is None:
            return json.dumps(value, separators=where.separators, ensure_ascii=ascii_only, allow_nan=False)
        out = json.dumps(
            value,
            indent=where.indent,
            separators=(",", where.separators[1]),
            ensure_ascii=ascii_only,
            allow_nan=False,
        )
        return out.replace("\n", self.style.newline + where.line)  # strings hold no raw newline

    def value(self, start: int, end: int, old: Any, new: Any, where: _Where) -> str:
        """The text of ``new`` for the old value ``old`` at ``text[start:end]``."""
        if _canon(old) == _canon(new):
            return self.text[start:end]
        same_kind = (isinstance(old, dict) and isinstance(new, Mapping)) or (
            isinstance(old, list) and isinstance(new, (list, tuple))
        )
        if not same_kind:
            return self.dumps(new, where)
        close, items = _members(self.text, start)
        keys = [i.key for i in items]
        # An empty container shows no layout of its own to keep. A key written twice is
        # read as its last value: such an object is written anew, once a member changed,
        # so that no earlier copy of a key can come back into force.
        if close != end or not items or (isinstance(old, dict) and len(set(keys)) != len(keys)):
            return self.dumps(new, where)
        return self.container(start, end, items, new, where)

    def container(self, start: int, end: int, items: list[_Item], new: Any, where: _Where) -> str:
        """The object or array at ``text[start:end]`` rebuilt to hold ``new``."""
        text = self.text
        inline = not any(c in text[start:end] for c in "\r\n")
        lead = text[start + 1 : items[0].start]
        trail = text[items[-1].end : end - 1]
        after = [text[a.end : b.start] for a, b in pairwise(items)]
        # An array shows no colon: the file's own is the best guess for its objects.
        keyed = items[0].key is not None
        colon = text[items[0].key_end : items[0].value_start] if keyed else self.style.separators[1]
        if after:
            sep = after[0]
        elif "\n" in lead or not inline or lead:
            sep = "," + lead  # one member: the space after its opening bracket shows the way
        else:
            sep = ", " if colon.endswith(" ") else ","
        spaced = sep.endswith(" ")
        child_inline = _Where(None, ("," + " " * spaced, ":" + " " * colon.endswith(" ")), "")

        def child(line: str) -> _Where:
            if inline or self.style.indent is None:
                return child_inline
            return _Where(self.style.indent, self.style.separators, line)

        def kept(i: int, new_value: Any) -> Callable[[str], str]:
            item = items[i]
            where_i = child(_line_indent(text, item.start))
            return lambda _line: text[item.start : item.value_start] + self.value(
                item.value_start, item.end, item.value, new_value, where_i
            )

        def added(key: str | None, new_value: Any) -> Callable[[str], str]:
            head = "" if key is None else json.dumps(key, ensure_ascii=self.style.ensure_ascii) + colon
            return lambda line: head + self.dumps(new_value, child(line))

        pieces: list[_Piece] = []
        if isinstance(new, Mapping):
            new_keys: list[Any] = list(new)
            new_values = [new[k] for k in new_keys]
            old_keys: list[Any] = [i.key for i in items]
        else:
            new_values = list(new)
            new_keys = [_canon(v) for v in new_values]
            old_keys = [_canon(i.value) for i in items]
        keyed_new = isinstance(new, Mapping)
        # Members are matched by key, array items by value: an array item replaced by one
        # other (a hook group given one more hook) is rebuilt in place, member by member.
        matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1 and not keyed_new):
                pairs = zip(range(i1, i2), range(j1, j2), strict=True)
                pieces += [_Piece(i, kept(i, new_values[j])) for i, j in pairs]
            elif op == "replace" and not keyed_new:
                # One install can both change an item (a hook joins the user's group) and
                # add others (new groups): the changed one is rebuilt in place, so the text
                # of its unchanged members (the user's hook) is kept.
                for i, j in _aligned([items[i].value for i in range(i1, i2)], new_values[j1:j2]):
                    if j is None:
                        continue  # an old item that no new one resembles is left out
                    if i is None:
                        pieces.append(_Piece(None, added(None, new_values[j1 + j])))
                    else:
                        pieces.append(_Piece(i1 + i, kept(i1 + i, new_values[j1 + j])))
            elif op in ("insert", "replace"):  # what was there before and is not now is left out
                pieces += [
                    _Piece(None, added(new_keys[j] if keyed_new else None, new_values[j]))
                    for j in range(j1, j2)
                ]
        if not pieces:
            return text[start] + text[end - 1]
        out = [text[start], lead]
        for n, piece in enumerate(pieces):
            before = out[-1]  # the lead, or the separator just written
            if "\n" in before:
                line = before.rsplit("\n", 1)[1]
            elif piece.old is not None:
                line = _line_indent(text, items[piece.old].start)
            else:
                line = where.line + (self.style.indent or "")
            out.append(piece.text(line))
            if n + 1 < len(pieces):
                old = piece.old
                out.append(after[old] if old is not None and old < len(after) else sep)
        return "".join([*out, trail, text[end - 1]])
