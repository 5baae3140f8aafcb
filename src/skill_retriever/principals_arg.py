"""The ``--principals`` option's text read as a list of names, saying when it names none.

``--principals ""`` (an unset variable: ``--principals "$TEAM"``) or ``" , "`` names no
principal, which a search reads as public items only, exactly as the Python API reads
``principals=[]``. That is the safe reading (it never shows more), but a caller who
meant to name theirs would see fewer results and no reason why, so the note says it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Principals", "parse_principals"]


@dataclass(frozen=True)
class Principals:
    """The names ``--principals`` gave and, when it gave text but no name, what that means."""

    names: list[str]
    note: str | None


def parse_principals(text: str) -> Principals:
    """``text`` split at commas, blanks dropped; a note when that leaves no name.

    Args:
        text: The option's value (its default is ``*``, everything).
    """
    names = [p.strip() for p in text.split(",") if p.strip()]
    if names:
        return Principals(names, None)
    note = (f"--principals {text!r} names no principal, so this search sees public items only; "
            "name yours (--principals team-a,team-b), or leave the option out to see everything (default *)")
    return Principals(names, note)
