"""Frontmatter names and descriptions a YAML comment cut short.

In a plain (unquoted) YAML value, `` #`` starts a comment: ``description: Detects
#[repr(C)] structs ...`` is "Detects" to any YAML reader, Claude Code's included. The
value is kept as YAML reads it (it is what the agent sees); a note tells the author
what was left out and how to keep it (seen on trailofbits/skills, where two descriptions
were cut so without a word).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from skill_retriever.ingest.result import Note

#: A top-level key line of a field that a reader sees: its raw value after ``key:``.
_KEY_LINE_RE = re.compile(r"^(name|description)[ \t]*:[ \t]+(.+)$", re.MULTILINE)
_COMMENT_RE = re.compile(r"[ \t]#")


def comment_cuts(block: str, fields: Mapping[str, Any]) -> list[Note]:
    """A note for each ``name`` / ``description`` whose one-line plain value in ``block``
    (the frontmatter text) ends where a `` #`` comment begins."""
    notes = []
    for match in _KEY_LINE_RE.finditer(block):
        key, raw = match.group(1), match.group(2)
        value = fields.get(key)
        cut = _COMMENT_RE.search(raw)
        if not isinstance(value, str) or not value.strip() or raw[:1] in "\"'|>" or cut is None:
            continue
        if raw[: cut.start()].strip() != value.strip():
            continue  # a value over several lines, or one read another way: not this cut
        rest = raw[cut.start() :].strip()
        notes.append(Note(
            f"frontmatter '{key}' ends before ' #': YAML (and so Claude Code) reads "
            f"'{_clip(rest, 80)}' as a comment, leaving the {key} '{_clip(value.strip(), 60, end=True)}'; "
            "quote the value to keep the rest"
        ))
    return notes


def _clip(text: str, size: int, *, end: bool = False) -> str:
    """``text`` cut to ``size`` characters: its start, or (``end``) its end, where the cut is."""
    if len(text) <= size:
        return text
    return f"...{text[3 - size:]}" if end else f"{text[: size - 3]}..."


__all__ = ["comment_cuts"]
