"""The tags an empty answer's filter note points at when only their case differs.

A tag matches in its case (``--tags PAYMENTS`` admits no item tagged ``payments``), while
``--kinds`` takes a kind in any case; the note said only that no item passes the filters,
and the user, seeing the tag on the item, could not tell why (a CLI audit).
"""

from __future__ import annotations

from collections.abc import Iterable

from skill_retriever.model import Node

__all__ = ["tag_case_hint"]


def tag_case_hint(asked: Iterable[str] | None, visible: Iterable[Node]) -> str:
    """``"; tags match in their case: the index holds 'payments'"`` when a tag of
    ``asked`` is, in another case, a tag of a ``visible`` item (only those: a private
    item's tag is not said to exist), else ``""``."""
    if asked is None:
        return ""
    wanted = {t.casefold(): t for t in asked}
    held = sorted({t for n in visible for t in n.tags if t.casefold() in wanted and t not in wanted.values()})
    if not held:
        return ""
    return f"; tags match in their case: the index holds {', '.join(map(repr, held))}"
