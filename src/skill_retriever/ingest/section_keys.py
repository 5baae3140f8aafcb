"""A bare ``"Key"`` inside a JSON object whose own name is a credential's: `redact_section_keys`.

An ASP.NET ``appsettings.json`` keeps a JWT's signing key as ``"Jwt": {"Key": "..."}``
(or under ``JwtSettings``, ``Auth``, ``ApiKeys``, ``Secrets``). ``Key`` alone names a
cache's, a sort's or a record's key as often as a credential, so prose does not read it
as a secret's name (`secret_values.secret_word_name`; ``{"key": "<hex>"}`` alone stays,
and so does ``"Cache": {"Key": "..."}``); the object around it says what it holds. Its
value goes when a machine wrote it (`key_arguments.strong_literal`: 20 or more letters
and digits switching between them often), so a placeholder (``"your-secret-key-here"``)
and a header's name (``"Auth": {"Key": "X-Api-Key"}``) stay. The object is found by the
nearest ``{`` before the key with no ``}`` between them, within `_WINDOW` characters: a
nested object before the key in the same section (``"Jwt": {"Opts": {...}, "Key": ...}``)
hides the section's name, and the key stays.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.key_arguments import strong_literal
from skill_retriever.ingest.secret_formats import REDACTED, replace_group

__all__ = ["redact_section_keys"]

#: ``"Key": "value"``, its quotes escaped or not (a JSON string's ``\\"``); the value
#: bounded, so no start rescans a long run.
_KEY_RE = re.compile(
    r"""(?P<kq>\\?["'])(?i:key)(?P=kq)[ \t]*+:[ \t]*+(?P<q>\\?["'])(?P<val>[A-Za-z0-9_+/=.-]{20,256}+)(?P=q)"""
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
#: How far back from a key its section's ``{`` and name are looked for.
_WINDOW = 512
#: How far back from a section's ``{`` its name is looked for.
_NAME_WINDOW = 96


def redact_section_keys(text: str) -> str:
    """``text`` with each bare ``"Key"``'s machine-written value (`strong_literal`)
    replaced by `REDACTED`, its quotes kept, where the object around it is a credential's
    (`_credential_section`)."""
    return _KEY_RE.sub(lambda m: replace_group(m, "val", REDACTED) if _secret_key(m) else m[0], text)


def _secret_key(m: re.Match[str]) -> bool:
    """Whether a bare key's value is a credential: machine-written, in a credential's section."""
    return strong_literal(m["val"]) and _credential_section(m.string, m.start())


def _credential_section(text: str, at: int) -> bool:
    """Whether the key at ``at`` of ``text`` sits directly in an object whose name is a
    credential's (`_CREDENTIAL_SECTION_RE`), found by the nearest ``{`` before it."""
    lo = max(0, at - _WINDOW)
    brace = text.rfind("{", lo, at)
    if brace < 0 or text.find("}", brace, at) >= 0:
        return False
    name = _SECTION_RE.search(text, max(0, brace - _NAME_WINDOW), brace)
    return name is not None and _CREDENTIAL_SECTION_RE.fullmatch(name["name"]) is not None
