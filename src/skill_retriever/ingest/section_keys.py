"""A bare ``"Key"`` inside a JSON object whose own name is a credential's: `redact_section_keys`.

An ASP.NET ``appsettings.json`` keeps a JWT's signing key as ``"Jwt": {"Key": "..."}``
(or under ``JwtSettings``, ``Auth``, ``ApiKeys``, ``Secrets``). ``Key`` alone names a
cache's, a sort's or a record's key as often as a credential, so prose does not read it
as a secret's name (`secret_values.secret_word_name`; ``{"key": "<hex>"}`` alone stays,
and so does ``"Cache": {"Key": "..."}``); the object around it says what it holds. There
a signing key is a secret whatever it looks like, a passphrase a person typed
(``"ThisIsMySuperSecretKey123"``) as much as a machine's token, so its value goes unless
it only shows where a key goes or names where one is (`masked_values.masked_value`: a
placeholder, ``<secret>``, ``CHANGE_ME``, ``xxx``, ``...``, ``${JWT_KEY}``, empty; and
`secret_values.placeholder_part`: ``your-secret-key-here``, ``changeme``), is code
(`secret_values.code_value`: ``Jwt.Key``, ``keys/jwt.pem``), a header's name (``"Auth":
{"Key": "X-Api-Key"}``) or a phrase that describes the key (``"the signing key"``:
`secret_values.literal_phrase`). Before, only a machine-written value went
(`key_arguments.strong_literal`), and a passphrase stayed. The object is the nearest
``{`` before the key that no ``}`` closes before it, within `_WINDOW` characters, so a
nested object earlier in the section (``"Jwt": {"Audience": {...}, "Key": ...}``) is
stepped over; before, it hid the section's name and the key stayed. A brace inside a
JSON string (``"Jwt": {"Note": "use {x} here }", "Key": ...}``) is text, not JSON's, and
is stepped over too (`_open_brace_in_json`); before, it closed or opened the section early
and the key stayed. Prose cannot always tell a string apart (a lone ``"`` of a quote, a
string cut by the window), so the key goes when either reading, strings stepped over or
every brace counted (`_open_brace`), finds a credential's section.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.masked_values import masked_value
from skill_retriever.ingest.secret_values import code_value, literal_phrase, placeholder_part

__all__ = ["redact_section_keys"]

#: ``"Key": "value"``, its quotes escaped or not (a JSON string's ``\\"``); the value
#: any text up to its closing quote on the line, bounded, so no start rescans a long run.
_KEY_RE = re.compile(
    r"""(?P<kq>\\?["'])(?i:key)(?P=kq)[ \t]*+:[ \t]*+(?P<q>\\?["'])(?P<val>(?:(?!(?P=q))[^\\\n]){0,256}+)(?P=q)"""
)
#: A section's quoted name and the ``:`` after it, ending where its ``{`` stands.
_SECTION_RE = re.compile(r"""["'](?P<name>[A-Za-z_][\w.-]{0,63}+)\\?["'][ \t]*+:[ \t\r\n]*+\Z""")
#: A section name that is a credential's: a JWT's, auth's, API keys', secrets',
#: credentials', tokens', signing's or encryption's, alone or with ``Settings``,
#: ``Options`` or ``Config`` after it (``JwtSettings``, ``Authentication``, ``api_keys``).
_CREDENTIAL_SECTION_RE = re.compile(
    r"(?i)(?:jwt(?:[_-]?bearer)?|auth(?:entication)?|api[_-]?keys?|secrets?|credentials?|tokens?|signing|encryption)"
    r"(?:[_-]?(?:settings|options|config(?:uration)?))?"
)
#: A header's name as a value (the key is sent under it, not it): ``X-`` and a name, words
#: each capitalised and joined by ``-`` that end in a secret's word (``Ocp-Apim-Subscription-Key``),
#: or ``Authorization``. A passphrase of capitalised words (``Correct-Horse-Battery-Staple``)
#: ends in none.
_HEADER_NAME_RE = re.compile(
    r"(?i:x-[a-z0-9-]{1,64}+|(?:proxy-)?authorization)|(?:[A-Z][A-Za-z0-9]{0,31}+-){1,6}+(?:Key|Token|Auth|Secret|Signature)"
)
#: How far back from a key its section's ``{`` and name are looked for.
_WINDOW = 512
#: How far back from a section's ``{`` its name is looked for.
_NAME_WINDOW = 96


def redact_section_keys(text: str) -> str:
    """``text`` with each bare ``"Key"``'s value replaced by `REDACTED`, its quotes kept,
    where the object around it is a credential's (`_credential_section`) and the value
    is one (`_secret_value`; see the module docstring)."""
    return _KEY_RE.sub(_masked, text)


def _secret_value(m: re.Match[str]) -> bool:
    """Whether a bare key's value, no placeholder nor reference (`masked_value` read
    that), is a credential: no placeholder's mark, code, header name or describing
    phrase, in a credential's section."""
    value = m["val"]
    if placeholder_part(value) or code_value(value) or _HEADER_NAME_RE.fullmatch(value):
        return False
    if any(c.isspace() for c in value) and not literal_phrase(f'"{value}"'):
        return False
    return _credential_section(m.string, m.start())


_masked = masked_value(_secret_value)


def _credential_section(text: str, at: int) -> bool:
    """Whether the key at ``at`` of ``text`` sits directly in an object whose name is a
    credential's (`_CREDENTIAL_SECTION_RE`), found by `_open_brace_in_json` or by
    `_open_brace` (see the module docstring: either reading is enough)."""
    return _credential_name(text, _open_brace(text, at)) or _credential_name(text, _open_brace_in_json(text, at))


def _credential_name(text: str, brace: int) -> bool:
    """Whether the object that opens at ``brace`` of ``text`` (-1: none) is named for a
    credential (`_CREDENTIAL_SECTION_RE`)."""
    if brace < 0:
        return False
    name = _SECTION_RE.search(text, max(0, brace - _NAME_WINDOW), brace)
    return name is not None and _CREDENTIAL_SECTION_RE.fullmatch(name["name"]) is not None


def _open_brace_in_json(text: str, at: int) -> int:
    """Where the object holding position ``at`` of ``text`` opens, read as JSON: braces
    inside a double-quoted string (its ``\\"`` and ``\\\\`` escapes read as such) stepped
    over. Read forward from the first line start in the `_WINDOW` characters before
    ``at`` (a JSON string holds no line break, so none is open there), or from the
    window's start when no line starts in it; -1 when no ``{`` is open at ``at``, or
    when a string is (the quotes did not pair: the key is no JSON key here)."""
    start = max(0, at - _WINDOW)
    if start:
        line = text.find("\n", start, at)
        start = line + 1 if line >= 0 else start
    opened: list[int] = []
    in_string = escaped = False
    for i in range(start, at):
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c in '"\n':  # a line break ends a quote prose left open
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            opened.append(i)
        elif c == "}" and opened:
            opened.pop()
    return -1 if in_string or not opened else opened[-1]


def _open_brace(text: str, at: int) -> int:
    """Where the object holding position ``at`` of ``text`` opens: the nearest ``{``
    before it that no ``}`` between them closes, a nested object's braces stepped over,
    within `_WINDOW` characters; -1 when there is none. Braces inside strings count
    too: the reading for text whose quotes do not pair (`_open_brace_in_json` steps
    over strings)."""
    depth = 0
    for i in range(at - 1, max(0, at - _WINDOW) - 1, -1):
        c = text[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                return i
            depth -= 1
    return -1
