"""A JSON graph node's times: which of the names they are given under is read, what a time
that cannot be read costs, and the note on the times given as 0.

``created`` / ``updated``, else the first name an export gives that time under
(`model.TIME_ALIASES`: ``created_at``, ..., an incident's ``startedAt``, ``resolvedAt``,
...), is read; a name whose value says "not set" (0, null, ``""``: `time_text.unset_time`)
and one whose value is no time are passed over, and the next is read, as a document's
frontmatter reads its next key (`skill_records.first_time`).

An export writes ``"resolvedAt": 0`` (or null, or ``""``) for an incident still open. Read as
a time, 0 dated the incident 1970-01-01; and a null under the first name of a time
(``"updated_at": null``) hid the next one given (``"resolved_at": "..."``). A null or ``""``
is plainly no time and passes without a word; a 0 could be meant, so the file gets one note
naming where it was read as not set.

A time that cannot be read (``"03/11/2026"``, ``"soon"``) is a problem naming the key as the
file writes it, and the node is indexed without it: it cost the whole incident (its text,
its relations, its other time) before. Its value stays in ``attrs`` under the export's
name, as the file wrote it; under our own name (``created``) it goes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.model import TIME_ALIASES, parse_timestamp
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


def read_times(item: dict[str, Any]) -> list[str]:
    """Set ``item``'s ``created`` / ``updated`` to the time each is read as (a datetime),
    or take it out when none can be; the export's name read goes out of ``item`` (the
    others stay, for ``attrs``). Returns why each time passed over could not be read,
    naming its key (``'created_at': timestamp '03/11/2026' is not ISO-8601 ...``)."""
    problems: list[str] = []
    for field, aliases in TIME_ALIASES.items():
        read: datetime | None = None
        for key in (field, *aliases):
            if key not in item or unset_time(item[key]):
                continue
            try:
                read = parse_timestamp(item[key], f"'{key}'")
            except InvalidItemError as exc:
                problems.append(str(exc))
                continue
            if key != field:
                del item[key]
            break
        if read is None:
            item.pop(field, None)
        else:
            item[field] = read
    return problems
