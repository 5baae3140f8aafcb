"""Read JSON so that one number strict JSON cannot carry costs one item, not the whole file.

Python's `json` reads ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON), turns ``1e999``
into ``inf``, and fails the whole document with a ValueError on an integer longer than
`sys.get_int_max_str_digits` (4,300 digits by default). None of these can be written back
as strict JSON, and the index writes nodes as JSON. `loads` / `load` parse each such number
into an `Unrepresentable` marker instead; `find_unrepresentable` says where the first one
is (``attrs.scores[2]``), so a reader can reject that item and keep its siblings.

`json` parses lists and objects nested nearly as deep as Python's recursion limit, and
recursive code downstream (`dataclasses.asdict`, copies, renderers) then overflows it:
`nesting_message` refuses an item nested deeper than `MAX_DEPTH`.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from skill_retriever.item_checks import json_type

#: Deeper lists/objects are refused: real items nest a few levels, and recursive code
#: downstream must stay far from Python's recursion limit.
MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Unrepresentable:
    """A number the JSON text holds that strict JSON output cannot carry."""

    what: str

    def __repr__(self) -> str:
        return f"<{self.what}>"


def _int(digits: str) -> int | Unrepresentable:
    try:
        return int(digits)
    except ValueError:  # over the int <-> str digit limit: it could never be written back
        return Unrepresentable(
            f"a {len(digits.lstrip('-')):,}-digit integer (over Python's "
            f"{sys.get_int_max_str_digits():,}-digit limit)"
        )


def _float(text: str) -> float | Unrepresentable:
    value = float(text)
    if math.isfinite(value):
        return value
    shown = text if len(text) <= 24 else f"{text[:12]}...{text[-8:]}"
    return Unrepresentable(f"the number {shown}, too large for a float")


def _constant(name: str) -> Unrepresentable:
    return Unrepresentable(name)  # NaN, Infinity, -Infinity: not JSON at all


def loads(text: str) -> Any:
    """`json.loads`, with out-of-range numbers and NaN/Infinity as `Unrepresentable`.

    Raises:
        ValueError: Not JSON (`json.JSONDecodeError`).
        RecursionError: Nested too deeply.
    """
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)


def load(fh: IO[str]) -> Any:
    """`json.load` with the same markers as `loads`."""
    return json.load(fh, parse_int=_int, parse_float=_float, parse_constant=_constant)


def type_name(value: Any) -> str:
    """`item_checks.json_type`, with a number too large to read (`Unrepresentable`) a number."""
    return "a number" if isinstance(value, Unrepresentable) else json_type(value)


def find_unrepresentable(value: Any, where: str = "") -> tuple[str, Unrepresentable] | None:
    """Where the first `Unrepresentable` in ``value`` is (``a.b[2]``), and the marker.

    Walks with an explicit stack: a document nested as deep as `json` allows must not
    overflow Python's recursion limit here.
    """
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, Unrepresentable):
            return path or "the value", item
        if isinstance(item, dict):
            prefix = f"{path}." if path else ""
            stack.extend((f"{prefix}{str(k)[:40]}", v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def nesting_message(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """A problem message when ``value`` nests lists/objects deeper than ``limit``, else None."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return f"nested over {limit} levels deep; refused (flatten it)"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def unrepresentable_message(value: Any, where: str = "") -> str | None:
    """A problem message for the first `Unrepresentable` in ``value``, or None."""
    found = find_unrepresentable(value, where)
    if found is None:
        return None
    path, marker = found
    return (
        f"{path} holds {marker.what}, which JSON output cannot carry; "
        "write a finite number, or the value as a string"
    )


def read_file(path: Path, max_bytes: int) -> tuple[Any, str | None]:
    """Parse the JSON file at ``path`` whole: ``(value, None)``, or ``(None, why)`` when it
    cannot be (a folder, no permission, over ``max_bytes``, not UTF-8, not JSON, nested
    too deeply to parse), ``why`` saying what to do: one file's problem, never an
    exception. A UTF-8 byte order mark (Windows editors write one) is read past.
    """
    try:
        if path.is_dir():
            inside = sorted(p.name for p in path.glob("*.json"))[:3]
            held = f" (it holds {', '.join(inside)})" if inside else ""
            if (path / "tools.jsonl").is_file():
                held = " (it holds tools.jsonl: a tool set, indexed as the folder with --kind toolret)"
            return None, f"is a folder, not a file: pass the file's path{held}"
        size = path.stat().st_size
        if size > max_bytes:
            return None, f"file is {size:,} bytes, over the limit of {max_bytes:,}; split it or raise max_bytes"
        with path.open("r", encoding="utf-8-sig") as fh:
            return load(fh), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text ({exc.reason}); save it as UTF-8"
    except ValueError as exc:  # json.JSONDecodeError, the one ValueError json raises here
        if isinstance(exc, json.JSONDecodeError) and not exc.doc.strip():
            return None, "is empty: there is no JSON in it to read"
        return None, f"not valid JSON: {exc}"
    except RecursionError:
        return None, "JSON nested too deeply to parse; flatten it"
    except OSError as exc:  # no permission, an I/O error
        return None, f"cannot be read ({exc.strerror or exc}); check that it is a readable file"
