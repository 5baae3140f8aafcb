"""The JSON text the commands print (``--json``): indented, non-ASCII kept, anything else
(a path, a datetime) as its string.

Its own module so that a command that prints JSON (``query --json``, ``stats --json``)
does not import `skill_retriever.indexing`, which loads every source reader (about 40 ms
of a cold query: ``python -X importtime``).
"""

from __future__ import annotations

import json

__all__ = ["dumps"]


def dumps(obj: object) -> str:
    """``obj`` as indented JSON text."""
    return json.dumps(obj, indent=2, default=str, ensure_ascii=False)
