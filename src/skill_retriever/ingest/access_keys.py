"""Notes on an ``access`` that a file seems to mean but does not say.

Only the key ``access`` (exactly so) gives an item access labels, and an item without
labels is public. A private item written with ``Access:``, ``acess:`` or ``visibility:``
would so be shown to every caller without a word; an empty ``access:`` is public too. Each
of these is a note for the file's author (`result.Note`): it says the key is not read,
that the item is public, and what to write. Not a problem: the file is read whole and the
item is what it says; refusing it would hide items whose authors meant them public.

The near misses are the key's case variants, keys within two edits of ``access`` (a
letter left out, doubled, swapped or mistyped) but the English words that are that close
(``accept``, ``assess``...), and the words other systems use for it (`SYNONYMS`).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.ingest.result import Note

__all__ = ["SYNONYMS", "access_notes"]

KEY = "access"
#: What other systems call who may see an item: likely written for ``access``.
SYNONYMS = frozenset(["visibility", "private", "principals", "audience", "allowed"])
#: Real words within two edits of "access", which a file may use for something else.
_WORDS = frozenset(["accept", "assess", "success", "excess", "recess", "abscess", "accent"])


def access_notes(fields: dict[str, Any], labels: tuple[str, ...], *, inherits: bool = False) -> list[Note]:
    """Notes on the keys of ``fields`` that look meant as ``access`` but are not read,
    and on an empty ``access``.

    Args:
        fields: The file's fields (frontmatter or JSON object).
        labels: The labels ``access`` gave (`skill_records.access_labels`).
        inherits: The item takes the labels of what it is part of when it has none
            (components do; documents do not): the note says "public" only with that caveat.
    """
    public = "the item is public (every caller sees it)" + (
        ", unless what it is part of has labels" if inherits else ""
    )
    notes: list[Note] = []
    for key, value in fields.items():
        if not isinstance(key, str) or key == KEY or not _meant_as_access(key):
            continue
        why = "keys are case-sensitive" if key.casefold() == KEY else f"only '{KEY}' gives access labels"
        if labels:
            notes.append(Note(
                f"key '{key}' is not read ({why}): who sees the item is decided by '{KEY}' "
                f"({', '.join(labels)}) alone; remove '{key}' or merge it into '{KEY}'"
            ))
        else:
            notes.append(Note(f"key '{key}' is not read ({why}): {public}; write `{KEY}: {_suggested(value)}`"))
    if KEY in fields and fields[KEY] in (None, ""):
        notes.append(Note(
            f"'{KEY}' is empty: {public}; write `{KEY}: [label, ...]` to restrict it, or leave the key out"
        ))
    return notes


def _meant_as_access(key: str) -> bool:
    folded = key.casefold().strip()
    if folded in SYNONYMS or folded == KEY:
        return True
    return folded not in _WORDS and _edits(folded, KEY, 2) <= 2


def _suggested(value: Any) -> str:
    """The ``access`` value to suggest: the key's own labels when it lists some."""
    if isinstance(value, str) and value.strip() and "[" not in value:
        labels = [p.strip() for p in value.split(",") if p.strip()]
    elif isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        labels = [v.strip() for v in value]
    else:
        return "[label, ...]"
    return f"[{', '.join(labels)}]"


def _edits(a: str, b: str, limit: int) -> int:
    """The optimal string alignment distance of ``a`` and ``b`` (insertions, deletions,
    substitutions and swaps of neighbours), or ``limit + 1`` once it is over ``limit``
    (a long key costs no full table)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        new = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            new[j] = min(row[j] + 1, new[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                new[j] = min(new[j], before[j - 2] + 1)
        if min(new) > limit:
            return limit + 1
        before, row = row, new
    return row[-1]
