"""Frontmatter that is not valid YAML, whose ``access`` plain lines cannot read for certain.

Lenient reading (`frontmatter`) takes each ``key: value`` line as written. Who may see an
item must not rest on a guess: an ``access:`` line indented under another field was read
as part of that field's value, and the item indexed public with its text; an unclosed
``access: [ops`` became the label ``[ops``, which no caller holds. Either is refused: the
file is a problem, and what was indexed of it before stays.
"""

from __future__ import annotations

import re
from typing import Any

#: An ``access`` key anywhere in a block: at the start of a line, indented, or as a list item.
_ANY_ACCESS_RE = re.compile(r"^[ \t]*(?:-[ \t]*)?access[ \t]*:", re.MULTILINE)
#: The one place plain lines read it from: a key line of its own.
_TOP_ACCESS_RE = re.compile(r"^access[ \t]*:", re.MULTILINE)


def gives_access(block: str) -> bool:
    """Whether a frontmatter block has an ``access`` key line anywhere in it."""
    return _ANY_ACCESS_RE.search(block) is not None


def unsure_access(block: str, fields: dict[str, Any]) -> str | None:
    """Why the ``access`` that plain lines read from ``block`` (``fields``) may not be the
    one written; None when it is read as written, or the block gives none."""
    if len(_ANY_ACCESS_RE.findall(block)) > len(_TOP_ACCESS_RE.findall(block)):
        return "an 'access' line is indented or a list item, read as part of the field above it"
    value = fields.get("access")
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "{"):
        return f"'access' {value!r:.60} is a list or mapping YAML could not read"
    return None


__all__ = ["gives_access", "unsure_access"]
