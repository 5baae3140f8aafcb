"""The secret parameters of an ``Authorization`` header's credentials written as
``name=value`` pairs after the scheme (`redact_auth_params`): AWS's ``AWS4-HMAC-SHA256
Credential=.../aws4_request, SignedHeaders=..., Signature=...``, OAuth 1's ``OAuth
oauth_token="...", oauth_signature="..."``, Digest's ``response="..."``.

The header rules (`secrets`, `prose_secrets`) read the value after the scheme as one
word, which here is only the first parameter: ``Signature`` after it stayed. So they
leave a value of parameters to this rule, which redacts the values whose name says
they are secret and keeps the rest (``SignedHeaders``, ``realm``, ``nonce``), and every
placeholder or reference (``Signature=<sig>``, ``oauth_token="$TOKEN"``).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced, placeholder_or_slot
from skill_retriever.ingest.secret_formats import REDACTED
from skill_retriever.ingest.secret_values import (
    AUTHORIZATION_NAME,
    SCHEME_WORD,
    is_reference,
    secret_name,
)

__all__ = [
    "ANY_SCHEME",
    "AUTHORIZATION_RE",
    "KEY_SCHEME",
    "PARAMS_AHEAD",
    "key_scheme",
    "key_scheme_word",
    "redact_auth_params",
    "secret_header_name",
]

#: An authorization header's name (`secret_values.AUTHORIZATION_NAME`), whole.
AUTHORIZATION_RE = re.compile(AUTHORIZATION_NAME, re.IGNORECASE)
#: Under an authorization header any word before a credential is its scheme
#: (`secret_values.SCHEME_WORD`: ``SSWS X``), but for a URL or a flag after an unquoted
#: value (``Authorization: X https://...``): that is the next argument, X the credential.
#: A value of ``name=value`` parameters (``AWS4-HMAC-SHA256 Credential=...``) is left to
#: `redact_auth_params`, which keeps the names.
ANY_SCHEME = SCHEME_WORD + r"""[ \t]+(?![-/]|[A-Za-z][\w+.-]*+://)"""

#: Under another secret-looking header (``X-Api-Key: SSWS X``) a word before one
#: credential that ends the value, ``ks``, is its scheme when `key_scheme_word` says so.
KEY_SCHEME = r"(?P<ks>" + SCHEME_WORD + r")[ \t]++(?![-/]|[A-Za-z][\w+.-]*+://)"
#: A value of a scheme word and one credential, whole (`key_scheme`).
_KEY_SCHEME_RE = re.compile(KEY_SCHEME + r"(?=\S++\s*+$)")
#: A name whose value may be a passphrase (``X-Password: correct horse``): no scheme's.
_PHRASE_NAME_RE = re.compile(r"(?i)pass|pwd|secret|phrase")

#: A parameter's name and ``=`` before its value: what a value of parameters starts with
#: (a token68 credential's ``=`` padding ends it: ``dXNlcjpw==`` is none).
_PARAM_NAME = r"[A-Za-z][\w-]*+=(?=[^\s=,])"
#: Ahead of a header's value (after its opening quote): a scheme and a parameter, which
#: the header rules leave to `redact_auth_params`.
PARAMS_AHEAD = SCHEME_WORD + r"[ \t]++" + _PARAM_NAME
#: An authorization header up to its first parameter (``Authorization: AWS4-HMAC-SHA256 ``).
_HEADER_RE = re.compile(
    r"""(?i)(?<![\w-])""" + AUTHORIZATION_NAME + r"""\\?["']?[ \t]*:[ \t]*\\?["']?"""
    + SCHEME_WORD + r"[ \t]++(?=" + _PARAM_NAME + ")"
)
#: One parameter: a name and a quoted or bare value, and the comma after it.
_PARAM_RE = re.compile(r"""(?P<name>[A-Za-z][\w-]*+)=(?P<val>\\?"[^"\\\n]*+\\?"|[^\s,"'\\]++)(?:[ \t]*,[ \t]*)?""")
#: A parameter's name that says its value is a secret, besides `secret_name`'s.
_SECRET_PARAM_RE = re.compile(r"(?i)signature|response")


def redact_auth_params(text: str) -> str:
    """``text`` with the secret parameters of its authorization headers' credentials
    redacted (see the module docstring); text without such a header comes back as it is."""
    out, pos = [], 0
    for header in _HEADER_RE.finditer(text):
        if header.start() < pos:
            continue
        out.append(text[pos : header.end()])
        pos = header.end()
        while (param := _PARAM_RE.match(text, pos)) is not None:
            out.append(_param(param))
            pos = param.end()
    return "".join(out) + text[pos:] if out else text


def _param(m: re.Match[str]) -> str:
    """One parameter with its value redacted when the name says it is a secret and the
    value is no placeholder, reference or redaction (quotes kept)."""
    name, value = m["name"], m["val"]
    bare = value.strip('\\"')
    if not (secret_name(name) or _SECRET_PARAM_RE.search(name)):
        return m[0]
    if not bare or bare == REDACTED or placeholder_or_slot(bare) or is_reference(bare):
        return m[0]
    quote_at = value.find(bare) if bare else 0
    new = value[:quote_at] + REDACTED + value[quote_at + len(bare) :]
    return m[0][: m.start("val") - m.start()] + new + m[0][m.end("val") - m.start() :]


def secret_header_name(name: str) -> bool:
    """A secret-looking header's name (``-H "X-Api-Key: X"``), but an authorization
    header's: the authorization rule read it, any scheme kept (``-H "Authorization: SSWS X"``)."""
    return secret_name(name) and AUTHORIZATION_RE.fullmatch(name) is None



def key_scheme_word(name: str, word: str) -> bool:
    """Whether ``word``, before one credential under the secret-looking header ``name``
    (no authorization header's), is its scheme (``X-Api-Key: SSWS X``): not under a name
    whose value may be a passphrase (`_PHRASE_NAME_RE`: ``X-Password: correct horse``),
    nor a word that reads as a secret itself (``token: Hunter2 X``); then both go."""
    return _PHRASE_NAME_RE.search(name) is None and not literal_or_braced(word)


def key_scheme(name: str, value: str) -> re.Match[str] | None:
    """The scheme word (and the space after it) that the secret-looking header
    ``name``'s ``value`` starts with (`key_scheme_word`); None when the value is one
    word or more than two, or the first is no scheme."""
    m = _KEY_SCHEME_RE.match(value)
    return m if m is not None and key_scheme_word(name, m["ks"]) else None
