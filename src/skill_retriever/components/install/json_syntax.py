"""Why a shared JSON file (``settings.json``, ``.mcp.json``) could not be read, in words a
newcomer acts on.

The parser's own words ("Expecting property name enclosed in double quotes: line 2
column 3") behind "is unreadable" sent people looking at permissions, while the usual cause
is JSONC an editor allows: a ``//`` or ``/* */`` comment, or a comma before ``}`` or
``]``. Claude Code reads the file as strict JSON and reports such a ``settings.json`` as
"Invalid or malformed JSON", skipping it whole, so the fix is in the file either way; a
file saved as UTF-16 (Windows PowerShell 5's ``>`` and ``Out-File``) is said to be so.
"""

from __future__ import annotations

import json

__all__ = ["unreadable_why"]

_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def _cause(doc: str, pos: int) -> str:
    """What JSON does not allow at ``pos`` of ``doc``, where an editor's JSONC would: a
    comment, or a comma before a closing bracket; '' when it is neither."""
    if doc.startswith(("//", "/*"), pos):
        return ": a comment, which JSON does not allow; remove it"
    before = doc[:pos].rstrip()
    if before.endswith(",") and doc[pos:pos + 1] in ("}", "]"):
        return ": a comma before a closing bracket, which JSON does not allow; remove it"
    return ""


def unreadable_why(rel: str, raw: bytes | None, exc: Exception) -> str:
    """Why ``rel`` (its bytes ``raw``, None when they could not be read) cannot be merged
    into, ``exc`` being what reading or parsing it raised, and what to do."""
    if isinstance(exc, json.JSONDecodeError):
        cause = _cause(exc.doc, exc.pos)
        return (
            f"the existing {rel} is not valid JSON (line {exc.lineno} column {exc.colno}: "
            f"{exc.msg}{cause}); fix or move it first"
        )
    if isinstance(exc, UnicodeDecodeError) and raw is not None and raw.startswith(_UTF16_MARKS):
        return f"the existing {rel} is saved as UTF-16, not UTF-8; save it as UTF-8 first"
    if isinstance(exc, UnicodeDecodeError):
        return f"the existing {rel} is not UTF-8 text ({exc}); save it as UTF-8 first"
    return f"the existing {rel} cannot be read ({exc}); fix or move it first"
