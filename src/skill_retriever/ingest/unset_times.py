"""A JSON graph node's times that say "not set" (`time_text.unset_time`): which to pass over,
and the one note per file that names the zeros among them.

An export writes ``"resolvedAt": 0`` (or null, or ``""``) for an incident still open. Read as
a time, 0 dated the incident 1970-01-01; and a null under the first name of a time
(``"updated_at": null``) hid the next one given (``"resolved_at": "..."``). A null or ``""``
is plainly no time and passes without a word; a 0 could be meant, so the file gets one note
naming where it was read as not set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from skill_retriever.model import TIME_ALIASES
from skill_retriever.time_text import unset_time

#: Every name a node's times are read under: ours, then the exports'.
TIME_KEYS = tuple(name for field, aliases in TIME_ALIASES.items() for name in (field, *aliases))


def zero_keys(item: object) -> list[str]:
    """The time keys of ``item`` that hold 0 (a number, not ``false``)."""
    if not isinstance(item, Mapping):
        return []
    return [key for key in TIME_KEYS if key in item and unset_time(item[key]) and item[key] not in (None, "")]


def zero_note(found: Iterable[tuple[str, str]], shown: int = 3) -> str | None:
    """One note for the ``(node label, key)`` pairs whose time is 0, naming the first
    ``shown``; None for none."""
    pairs = list(found)
    if not pairs:
        return None
    nodes = len({label for label, _ in pairs})
    named = ", ".join(f"{label} {key!r}" for label, key in pairs[:shown])
    more = f", and {len(pairs) - shown} more" if len(pairs) > shown else ""
    return (f"{nodes} node(s) give 0 as a time ({named}{more}): read as not set, as exports write it, "
            "not as 1970-01-01; their other times are kept")


def drop_unset(item: dict[str, Any]) -> None:
    """Take our own time names out of ``item`` where they say not set (``"updated": 0``), so
    that an export's name of that time given beside them is read."""
    for field in TIME_ALIASES:
        if field in item and unset_time(item[field]):
            del item[field]
