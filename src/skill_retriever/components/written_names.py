"""The names a component's own file writes for its relations, as `skill_records` reads
them at index time: what it requires (``requires``, ``depends_on``, ``dependencies``) and
what it conflicts with (``conflicts``). Only Markdown components keep their frontmatter
(``attrs["frontmatter"]``); any other item writes none.

`stand_ins` reads them to tell which of a component's edges a written name made (only
those may be led to another item of that name), `install.missing` and `install.unseen`
to judge what a caller may not see from what the component itself says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.ingest.frontmatter_names import (
    CONFLICTS_KEY,
    DEPENDENCIES_KEY,
    REQUIRES_KEYS,
    name_list,
)
from skill_retriever.model import Node

__all__ = ["conflict_names", "written_conflicts", "written_requires"]

#: The frontmatter keys whose names make DEPENDS_ON edges (`skill_records` reads them).
_REQUIRING_KEYS = (*REQUIRES_KEYS, DEPENDENCIES_KEY)


def _front(node: Node) -> Mapping[str, Any] | None:
    front = node.attrs.get("frontmatter")
    return front if isinstance(front, Mapping) else None


def written_requires(node: Node) -> list[str]:
    """The names ``node``'s frontmatter requires, as written."""
    front = _front(node)
    if front is None:
        return []
    unread: list[str] = []  # the indexer already warned about entries that are no names
    return [n for key in _REQUIRING_KEYS for n in name_list(front.get(key), key, unread)]


def conflict_names(value: Any) -> list[str]:
    """The names a ``conflicts`` entry lists, in each form `skill_records` reads: names (a
    list, or one string of them, comma-separated), ``{name: x, reason: ...}`` and
    ``{x: reason}``."""
    unread: list[str] = []  # the indexer warned already about what is no name
    if not isinstance(value, list):
        return name_list(value, CONFLICTS_KEY, unread)
    out: list[str] = []
    for item in value:
        if isinstance(item, dict) and "name" not in item and len(item) == 1:
            item = str(next(iter(item)))
        out += name_list([item], CONFLICTS_KEY, unread)
    return out


def written_conflicts(node: Node) -> list[str]:
    """The names ``node``'s frontmatter lists under ``conflicts``, as written."""
    front = _front(node)
    return conflict_names(front.get(CONFLICTS_KEY)) if front is not None else []
