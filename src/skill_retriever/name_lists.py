"""Names listed in a message: a few of many (``'a', 'b', 'c' and 4 more``), or all of a
short list as a sentence says it (``'a', 'b' and 'c'``)."""

from __future__ import annotations

__all__ = ["and_list", "few_names"]


def few_names(names: list[str]) -> str:
    """The first three of ``names``, each cut to 40 characters, and how many more."""
    shown = ", ".join(repr(n[:40]) for n in names[:3])
    return shown + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")


def and_list(names: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"
