"""The text of a shared JSON file as JSON reads it: past a UTF-8 byte order mark, which
Windows editors (Notepad, PowerShell's ``Out-File``) write and Claude Code reads past, and
with a file of nothing but whitespace read as ``{}`` (an empty file is one, not damage).

The mark is kept apart (`JsonText.bom`) so that a file written back starts with it again,
as it was found: the indexer reads source files past it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOM", "JsonText", "json_text"]

BOM = "\ufeff"


@dataclass(frozen=True)
class JsonText:
    """A JSON file's text split at its byte order mark.

    Attributes:
        bom: ``BOM`` when the file starts with one, else ''.
        body: The text after it.
    """

    bom: str
    body: str

    @property
    def blank(self) -> bool:
        """Nothing but whitespace: read as an empty object."""
        return not self.body.strip()

    def json(self) -> str:
        """The text to parse: ``{}`` for a blank file."""
        return "{}" if self.blank else self.body


def json_text(raw: bytes | str) -> JsonText:
    """``raw`` (decoded as UTF-8 when bytes), its byte order mark (if any) set apart.

    Raises:
        UnicodeDecodeError: ``raw`` is bytes and not UTF-8.
    """
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    return JsonText(BOM, text[1:]) if text.startswith(BOM) else JsonText("", text)
