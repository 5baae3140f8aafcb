"""How a JSON file is laid out (`JsonStyle`), read from its text, to write it back the same way."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skill_retriever.components.install.json_text import json_text

__all__ = ["JsonStyle", "json_style", "style_of"]


@dataclass(frozen=True)
class JsonStyle:
    """How a JSON file is laid out, to write it back the same way.

    Attributes:
        indent: One level of indentation (``""``: new lines only); None: one line.
        separators: Between items, and between a key and its value.
        ensure_ascii: Non-ASCII characters are written as ``\\u`` escapes.
        newline: ``"\\n"`` or ``"\\r\\n"``.
        final_newline: The file ends with a new line.
    """

    indent: str | None = "  "
    separators: tuple[str, str] = (",", ": ")
    ensure_ascii: bool = False
    newline: str = "\n"
    final_newline: bool = True

    def dumps(self, data: Any) -> str:
        text = json.dumps(
            data,
            indent=self.indent,
            separators=self.separators,
            ensure_ascii=self.ensure_ascii,
            allow_nan=False,
        )
        text += "\n" if self.final_newline else ""
        return text.replace("\n", self.newline) if self.newline != "\n" else text


#: A JSON string (its escapes included), and an escape in one.
_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)


def json_style(text: str) -> JsonStyle:
    """The style of the JSON ``text``: its indentation (none, spaces or a tab, read from
    its first indented line), its separators, whether it escapes non-ASCII characters,
    its line ends and final new line. What the text does not show (an empty object, no
    non-ASCII character) is the default's."""
    default = JsonStyle()
    skeleton = _STRING_RE.sub('""', text).strip()
    colon = re.search(r'""\s*:( ?)', skeleton)
    indent = default.indent
    separators = default.separators
    if colon is not None:  # a member shows the layout
        key_sep = ": " if colon.group(1) else ":"
        if "\n" in skeleton:
            lines = [line.rstrip("\r") for line in skeleton.split("\n")[1:]]
            indented = next((ln for ln in lines if ln[:1] in (" ", "\t") and ln.strip()), "")
            indent = indented[: len(indented) - len(indented.lstrip(" \t"))]
            separators = (",", key_sep)
        else:
            comma = re.search(r",( ?)", skeleton)
            indent = None
            spaced = bool(comma.group(1)) if comma is not None else key_sep == ": "
            separators = (", " if spaced else ",", key_sep)
    if any(ord(c) > 0x7F for c in text):
        ascii_only = False
    else:
        ascii_only = any(
            len(m.group(1)) == 5 and int(m.group(1)[1:], 16) > 0x7F
            for m in _ESCAPE_RE.finditer(text)
        )
    return JsonStyle(
        indent,
        separators,
        ascii_only,
        "\r\n" if "\r\n" in text else "\n",
        text.endswith("\n") or not text,
    )


def style_of(path: Path) -> JsonStyle:
    """The style of the JSON file at ``path`` (the default for a new or unreadable one)."""
    try:
        return json_style(json_text(path.read_bytes()).body) if path.is_file() else JsonStyle()
    except (OSError, UnicodeDecodeError):
        return JsonStyle()
