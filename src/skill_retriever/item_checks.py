"""The field checks a `model.Node` and a `model.Edge` run on construction: ids, attrs that
must store and read back as the same JSON, lists of labels, and JSON's names for types in
the messages that refuse a field."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from skill_retriever.exceptions import InvalidItemError

__all__ = ["MAX_ATTRS_DEPTH", "check_attrs", "check_id", "has_surrogate", "json_type", "str_tuple"]

# Used with fullmatch: ``$`` would also match before a trailing newline. C1 controls are
# control characters too (U+0085 is a line break to some readers).
_ID_RE = re.compile("[^\x00-\x1f\x7f-\x9f\ud800-\udfff]{1,512}")


def json_type(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words (``null``, ``true``, ``a list``), for
    messages to a file's author rather than Python's (``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else type(value).__name__


def check_id(value: object, what: str) -> str:
    if not isinstance(value, str):  # "id 8 is invalid: use printable characters" puzzled: 8 is printable
        quoted = f' (write it in quotes: "{value!s:.40}")' if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
        raise InvalidItemError(f"{what} id {value!r:.80} is invalid: an id is text, got {json_type(value)}{quoted}")
    if not _ID_RE.fullmatch(value) or not value.strip():
        raise InvalidItemError(
            f"{what} id {value!r:.80} is invalid: use 1-512 printable characters "
            "(no control characters or unpaired surrogates), not blank"
        )
    return value


#: Deeper attrs are refused: ``json.dumps`` recurses once per level, and nothing an
#: ingester stores comes near this.
MAX_ATTRS_DEPTH = 100
_JSON_SCALARS = (str, int, type(None))  # bool is an int


def check_attrs(attrs: Mapping[str, Any], label: str) -> None:
    """Refuse attrs that would not store or read back as the same JSON.

    An explicit stack rather than recursion (no depth limit to hit), and a type check per
    value: a few microseconds for the small dicts ingesters store, paid once per node.

    Raises:
        InvalidItemError: Naming the node and the key path (``attrs['a'][2]``) of the first
            value that is NaN or infinite, not a JSON type, a key that is not text, or
            nested deeper than :data:`MAX_ATTRS_DEPTH`.
    """
    stack: list[tuple[str, object, int]] = [("attrs", attrs, 0)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, _JSON_SCALARS):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                raise InvalidItemError(
                    f"{label}: {path} is {value}; JSON has no NaN or infinity, store null or text"
                )
            continue
        if depth >= MAX_ATTRS_DEPTH:
            raise InvalidItemError(f"{label}: {path} nests deeper than {MAX_ATTRS_DEPTH} levels")
        if isinstance(value, Mapping) and (depth == 0 or isinstance(value, dict)):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InvalidItemError(
                        f"{label}: {path} has the key {key!r:.40}; JSON object keys must be text"
                    )
                stack.append((f"{path}[{key!r:.40}]", item, depth + 1))
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value))
        else:
            raise InvalidItemError(
                f"{label}: {path} is a {type(value).__name__}; attrs must be JSON: text, "
                "finite numbers, true/false/null, lists and objects with text keys"
            )


def str_tuple(value: object, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InvalidItemError(f"{what} must be a list of strings, got {value!r:.80}")


def has_surrogate(value: str) -> bool:
    """Whether ``value`` holds a code point U+D800-U+DFFF (an unpaired surrogate: no UTF-8
    for it). What ``re.search("[\\ud800-\\udfff]", value)`` finds, without a scan in the
    regular-expression engine: an ASCII string is known at once, and strict UTF-8 encoding fails on
    exactly those code points. Every item read from an index passes here (its name, text,
    description and labels), so its cost was part of each open."""
    if value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
