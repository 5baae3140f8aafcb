"""The dates a reStructuredText document gives in its own way: a field list at its top
(Sphinx's file-wide metadata, ``:date: 2026-03-01`` before the title) or right after its
title (docutils' bibliographic fields, ``:Date: 2026-03-01``). An ``.rst`` postmortem dated
so was undated, left out of every since/until window without a word (found in a
walkthrough): only YAML frontmatter was read. Only the date fields are taken (what
`documents` reads as created or updated, in any case); the lines stay in the text, as
docutils renders them."""

from __future__ import annotations

import re
from collections.abc import Iterable

from skill_retriever.ingest.document_text import first_title

__all__ = ["rst_date_fields"]

#: One field of a field list: ``:name: value`` (the value may be empty or go on below).
_FIELD_RE = re.compile(r":([^:\s`][^:`]*?):(?:\s+(.*))?$")


def rst_date_fields(body: str, keys: Iterable[str]) -> dict[str, str]:
    """The fields of ``body``'s top field list (before its title, else right after it)
    whose names are among ``keys`` in any case, as written: name -> value."""
    lines = body.split("\n")
    fields = _field_list(lines, 0)
    if not fields and (title := first_title(body, ".rst")) is not None:
        fields = _field_list(lines, title[1])
    wanted = {k.casefold() for k in keys}
    return {name: value for name, value in fields.items() if name.casefold() in wanted}


def _field_list(lines: list[str], start: int) -> dict[str, str]:
    """The field list that begins at the first non-blank line from ``start`` ({} when that
    line is no field); a field's indented lines below it go on its value, not read here."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    fields: dict[str, str] = {}
    while i < len(lines):
        match = _FIELD_RE.match(lines[i])
        if match:
            fields.setdefault(match.group(1).strip(), (match.group(2) or "").strip())
        elif not (fields and lines[i][:1] in (" ", "\t") and lines[i].strip()):
            break
        i += 1
    return fields
