r"""Text from indexed items and from users, made safe to print on a terminal.

An indexed item is anyone's data, and a terminal obeys the control sequences it is sent:
``ESC ] 52 ; c ; <base64> BEL`` (OSC 52) writes the user's clipboard, ``ESC [ 2 J``
clears the screen, ``\r`` and cursor moves overwrite what was printed, and bidi overrides
reorder it ("Trojan Source", Boucher & Anderson 2023). So every human-readable line the
CLI prints goes through :func:`printable`, and ``--json`` output through
:func:`printable_json`.

The escaped form that :func:`printable` writes, chosen to read back to exactly its input:

* ``\xHH`` for a character below U+0100, ``\uHHHH`` for the rest of the Basic Multilingual
  Plane, ``\UHHHHHHHH`` above it (Python's own string escapes, lower-case hex digits).
* Escaped: every C0 control (newline and tab too: what is printed is one line per field),
  DEL, every C1 control (U+0080-U+009F), the line and paragraph separators, unpaired
  surrogates, and every invisible character in
  :data:`~skill_retriever.safety.charsets.INVISIBLE` (zero-width, bidi, tag, soft hyphen,
  fillers, ...), except a variation selector right after an emoji, a symbol or an
  ideograph, where it belongs (U+2764 U+FE0F stays a red heart).
* A backslash is doubled only where it would otherwise read as the start of an escape:
  before another backslash, before ``x``, ``u`` or ``U`` and 2, 4 or 8 hex digits, and
  before an escaped character. ``C:\Users`` and ``\d+`` print as they are; the four
  characters ``\x1b`` print as ``\\x1b``; ESC prints as ``\x1b``.
"""

from __future__ import annotations

import re

from skill_retriever.safety.charsets import CONTROLS, INVISIBLE, INVISIBLE_BUT_VS, SUSPICIOUS_VS_RE

__all__ = ["printable", "printable_json"]

_ESCAPED = CONTROLS + INVISIBLE_BUT_VS
_HEX = "[0-9a-fA-F]"
_LOOKS_ESCAPED = f"\\\\|x{_HEX}{{2}}|u{_HEX}{{4}}|U{_HEX}{{8}}|[{_ESCAPED}]"
_ESCAPE_RE = re.compile(f"\\\\(?={_LOOKS_ESCAPED})|[{_ESCAPED}]|{SUSPICIOUS_VS_RE.pattern}")
# JSON text from json.dumps holds C0 controls only between tokens (inside strings it has
# already escaped them), so they are left alone; everything else a terminal would obey or
# hide is escaped, variation selectors included (an escape inside a JSON string is lossless).
_JSON_ESCAPED_RE = re.compile(f"[\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff{INVISIBLE}]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch == "\\":
        return "\\\\"
    cp = ord(ch)
    if cp < 0x100:
        return f"\\x{cp:02x}"
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def printable(text: str) -> str:
    """``text`` with every control and invisible character written as a visible escape.

    Args:
        text: A name, id, path, snippet, message or whole line, from anywhere.

    Returns:
        One line that a terminal draws as it reads (the escapes are in the module
        docstring); unchanged when it holds nothing to escape.
    """
    return _ESCAPE_RE.sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    cp = ord(match.group())
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    cp -= 0x10000  # JSON spells a character above the BMP as a UTF-16 surrogate pair
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def printable_json(serialised: str) -> str:
    """JSON text with C1 controls, DEL, separators and invisible characters as ``\\uXXXX``.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but writes these as they
    are; after this pass the text still parses to the same value.

    Args:
        serialised: The output of ``json.dumps``.

    Returns:
        The same JSON document, safe to print on a terminal.
    """
    return _JSON_ESCAPED_RE.sub(_json_escape, serialised)
