"""How the command rule (`secrets.redact_command`) writes a value it redacts: `masked_value`.

A value goes unless it names where the secret is (a reference, ``$TOKEN``), shows where
one goes (a placeholder, ``<token>``), or is a slot code fills in (``%s``: `_SLOT_RE`;
in braces, `braced_values`: ``{API_KEY}``, ``{self.api_key}``, ``{{ token }}``, ``{}``,
an f-string's ``f"{os.environ['PW']}"``; not a secret in braces, ``{p@ss;w0rd}``,
``{hunter2}``), or is an SSH public key (`public_keys`). A value of an auth
scheme and one credential (``"Bearer X"``, ``"Authorization: Bearer X"``, a header
rule's ``f"Bearer X"``) loses only the credential, the scheme kept as the header rule
keeps it; it is kept whole when the credential is a reference, placeholder or slot
(``AUTH_HEADER="Bearer ${TOKEN}"`` names a variable and holds no secret) or is missing
(``"Bearer " + token``: code appends it). A redacted value keeps its quotes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.braced_values import braced_holds, slot_inside
from skill_retriever.ingest.public_keys import ssh_public_key
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import (
    AUTH_SCHEMES,
    AUTHORIZATION_NAME,
    SCHEME_WORD,
    is_placeholder,
    is_reference,
)

__all__ = ["STRING_PREFIX", "braced_holds_secret", "masked", "masked_value", "slot"]

#: A string literal's prefix in code (Python's ``f"..."``, ``rb'...'``): not the value.
STRING_PREFIX = r"""(?:[bBfFrRuU]{1,2}+(?=\\?["'`]))?+"""
#: Where code fills in a value, a template's braces aside (`_BRACES_RE`): a format slot
#: (``%s``, ``%(token)s``, ``%-10s``, ``%5.2f``, ``%x``; in a ``printf`` format escapes
#: may end it, ``%s\n``, but no more text: a flag's ``--token %s\tX`` is one word; an
#: assignment's value ends at the escape, `secret_values.SHELL_ASSIGNED_VALUE`).
#: A credential (token68) starts with none of these.
_FORMAT_SLOT = (
    r"%(?:\([\w.]{1,64}+\))?+[#0+-]{0,4}+(?:\d{1,3}+|\*)?+(?:\.(?:\d{1,3}+|\*))?+[sdiouxXeEfFgGcra]"
    + r"(?:\\[nrt])*+"
)
_SLOT_RE = re.compile(_FORMAT_SLOT + "$")
_STRING_PREFIX_RE = re.compile(STRING_PREFIX)
#: A template's braces at a value's start, closed or cut at a quote (``{os.environ[``):
#: a slot when what they hold is one (`braced_values.slot_inside`).
_BRACES_RE = re.compile(r"\{\{?+(?P<inside>[^{}\n]*+)(?P<close>\}\}?+)?+")
#: The same slot where a value starts in its text, up to the word's end: a shell value
#: stops at ``(``, so ``token=%(token)s`` gives the rules the value ``%``.
_SLOT_AT_RE = re.compile(_FORMAT_SLOT + r"""(?![^\s"'`;&|)])""")
#: ``printf`` escapes at a value's end, before its closing quote if any
#: (``'token=${TOKEN}\n'``): the format's, not the value's.
_ESCAPES_AT_END_RE = re.compile(r"""(?:\\[nrt])++(?=["']?$)""")
#: A value of an auth scheme and one credential, an authorization header's name before
#: them or not; under that name any word is a scheme (`secret_values.SCHEME_WORD`).
_SCHEME_VALUE_RE = re.compile(
    r"(?i)(?P<head>(?:" + AUTHORIZATION_NAME + r"[ \t]*+:[ \t]*+(?:" + SCHEME_WORD + r")|"
    + AUTH_SCHEMES + r")[ \t]++)(?P<cred>[^\s]*+)"
)


def masked_value(decide: Callable[[re.Match[str]], bool]) -> Callable[[re.Match[str]], str]:
    """A substitution that replaces the match's ``val`` group when ``decide`` says it
    is a secret and it names none (see the module docstring), keeping the rest of the
    match as written."""

    def sub(m: re.Match[str]) -> str:
        value = m["val"]
        # A value redacted already keeps the comma after it (``Credential=[redacted],``).
        if value.rstrip(",").strip("\"'") in ("", REDACTED) or _names_none(value, m.string, m.start("val")):
            return m[0]  # nothing to hide (``TOKEN=""``), or no secret
        if not decide(m):
            return m[0]
        new = _masked_credential(value, m.string, m.start("val"))
        return m[0] if new == value else replace_group(m, "val", new)

    return sub


def _names_none(value: str, text: str, at: int) -> bool:
    """Whether ``value`` (at ``at`` of ``text``) names where a secret is or goes rather
    than holding one: a reference, a placeholder or a slot; nor does an SSH public key
    (`public_keys`)."""
    if ssh_public_key(value, text, at):
        return True
    # A template's braces, an f-string's too (``f"{os.environ['PW']}"``), hold no secret;
    # a secret in braces is no placeholder's ``{NAME}`` (``{hunter2}``, ``{p@ss;w0rd}``).
    if (held := braced_holds_secret(value)) is not None:
        return not held
    if slot(value) or _SLOT_AT_RE.match(text, at + len(value) - len(value.lstrip("\"'"))) is not None:
        return True
    value = _ESCAPES_AT_END_RE.sub("", value)
    return is_reference(value, text, at) or is_placeholder(value)


def braced_holds_secret(value: str) -> bool | None:
    """Whether braces around all of ``value`` (quotes and a string's prefix aside, as in
    ``f"{os.environ['PW']}"``) hold a secret (`braced_values.braced_secret`: ``{p@ss;w0rd}``,
    ``{hunter2}``; not a template's ``{password}``); None when ``value`` is not in braces."""
    return braced_holds(_STRING_PREFIX_RE.sub("", value, count=1), phrase=False)


def slot(value: str) -> bool:
    """Whether ``value`` (quotes, a string's prefix and all) is a slot code fills in
    (`_SLOT_RE`: ``%(token)s``, ``%-10s``; `_BRACES_RE`: ``{API_KEY}``, ``{0}``), no
    secret. Braces are one only when what they hold is (`braced_values.slot_inside`):
    the check took any without a blank or quote in them, ``{p@ss;w0rd}`` too."""
    bare = _STRING_PREFIX_RE.sub("", value, count=1).strip("\"'")
    braces = _BRACES_RE.match(bare)
    if braces is not None:
        return slot_inside(braces["inside"], closed=braces["close"] is not None)
    return _SLOT_RE.match(bare) is not None


def _masked_credential(value: str, text: str, at: int) -> str:
    """``value`` with its credential redacted after the auth scheme it starts with, or
    kept when the credential names none (`_names_none`) or is missing; a value without
    a scheme goes whole (`masked`)."""
    prefix = re.match(STRING_PREFIX + r"""\\?["'`]?""", value)
    start = prefix.end() if prefix else 0
    quote = value[start - 1 : start] if start else ""
    end = len(value) - (1 if quote and len(value) > start and value.endswith(quote) else 0)
    scheme = _SCHEME_VALUE_RE.fullmatch(value, start, end)
    if scheme is None:
        return masked(value)
    credential = scheme["cred"]
    if not credential or _names_none(credential, text, at + scheme.start("cred")):
        return value
    return value[: scheme.start("cred")] + REDACTED + value[scheme.end("cred") :]


def masked(value: str) -> str:
    """`REDACTED` in place of a shell word, inside the quotes it had (so that the text
    around it keeps its quoting)."""
    quote = value[0]
    if quote not in "\"'":
        return REDACTED
    closed = len(value) > 1 and value.endswith(quote)
    return f"{quote}{REDACTED}{quote if closed else ''}"
