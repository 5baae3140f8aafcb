"""A secret-looking key and its quoted value inside a command's code: `redact_quoted_pairs`.

A shell command often carries code whose maps name secrets: JSON (``-d '{"api_key":
"X"}'``), a Python or JavaScript object (``--eval "db.createUser({user: 'bob', pwd:
'X'})"``), a PHP or Ruby hash (``['password' => 'X']``) or a PowerShell hashtable
(``-Headers @{Authorization = "Bearer X"}``). The assignment rules read ``NAME=value``
words only, so these kept their values in hook commands (prose read them already).

A key is taken in quotes wherever it stands, before ``:`` or ``=>``; a bare key only where
a map or an argument list puts one (after ``{``, ``(`` or ``,``), so that prose inside a
command (``echo "note: 'x'"``) is no pair; and either before ``=`` inside a hashtable's
``@{...}``, after its ``{`` or a ``;`` (elsewhere ``password = "X"`` is a script's
statement, which `shell_assignments` reads, or a comparison). The value
must be quoted, as in code; it goes when the key names a secret (`_secret_pair`). An auth
scheme before one word in the value (``'Authorization': 'Bearer X'``) is kept, as the
header rule keeps it, and ``val`` is the credential after it; any other word there,
``ks``, is kept under a header's name when it is a scheme (`_pair`: ``"X-Api-Key":
"SSWS X"``; not ``"api_key": "a b"``, a value of two words).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.auth_params import AUTHORIZATION_RE, key_scheme_word
from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.masked_values import masked_value
from skill_retriever.ingest.secret_formats import REDACTED
from skill_retriever.ingest.secret_values import AUTH_SCHEMES, SCHEME_WORD, secret_word_name
from skill_retriever.ingest.shell_assignments import secret_pair, secret_setting

__all__ = ["redact_quoted_pairs"]

#: What joins a key to its value: JSON's and JavaScript's ``:``, PHP's and Ruby's ``=>``;
#: in a PowerShell hashtable ``=`` (`_HASHTABLE_RE`; elsewhere a statement's, which the
#: script rules read, or a comparison's).
_SEPARATOR = r"""[ \t]*+(?::|=>)[ \t]*+"""
_HASHTABLE_SEPARATOR = r"""[ \t]*+=(?![=~])[ \t]*+"""
#: A quoted value, with the scheme a credential may follow (see the module docstring).
_VALUE = (
    r"""\\?(?P<vq>["'])(?:(?:(?i:""" + AUTH_SCHEMES + r""")|(?P<ks>""" + SCHEME_WORD + r"""))"""
    r"""[ \t]++(?=[^\s"'\\]++\\?(?P=vq)))?(?P<val>[^"'\\]*)\\?(?P=vq)"""
)
#: A quoted key (a dotted one read by its last part: ``"spring.mail.password": "X"``).
_QUOTED_KEY = r"""\\?(?P<q>["'])(?P<name>[\w.-]+)\\?(?P=q)"""
_QUOTED_PAIR_RE = re.compile(_QUOTED_KEY + _SEPARATOR + _VALUE)
#: A bare key where a map or an argument list puts one.
_BARE_PAIR_RE = re.compile(r"""[{(,][ \t]*+(?P<name>[A-Za-z_][\w-]{0,64}+)""" + _SEPARATOR + _VALUE)
#: A PowerShell hashtable (``@{ User = "bob"; Password = "X" }``) and each of its pairs,
#: after its ``@{`` or a ``;``, the key bare or quoted.
_HASHTABLE_RE = re.compile(r"@\{[^{}\n]{0,2048}+\}")
_HASHTABLE_PAIR_RE = re.compile(
    r"""[{;][ \t]*+\\?(?P<q>["']?+)(?P<name>[\w.-]{1,128}+)\\?(?P=q)""" + _HASHTABLE_SEPARATOR + _VALUE
)


def redact_quoted_pairs(text: str) -> str:
    """Shell text with the secret values of its quoted pairs replaced by `REDACTED`
    (see the module docstring)."""
    text = _BARE_PAIR_RE.sub(_pair, _QUOTED_PAIR_RE.sub(_pair, text))
    if "@{" in text:
        text = _HASHTABLE_RE.sub(lambda m: _HASHTABLE_PAIR_RE.sub(_pair, m[0]), text)
    return text


_credential = masked_value(lambda m: _secret_pair(m))



def _pair(m: re.Match[str]) -> str:
    """A pair's match with its credential redacted, and the word read as its scheme with
    it when that is none: under a name that is no HTTP header's (no ``-``: ``"api_key":
    "a b"`` is a value of two words), or that `auth_params.key_scheme_word` says is none
    (``"X-Password": "correct horse"``), as for a ``-H`` header (`secret_headers`)."""
    out = _credential(m)
    if out == m[0] or m["ks"] is None or ("-" in m["name"] and key_scheme_word(m["name"], m["ks"])):
        return out
    return m.string[m.start() : m.start("ks")] + REDACTED + m.string[m.end("val") : m.end()]


def _secret_pair(m: re.Match[str]) -> bool:
    """A pair `shell_assignments.secret_pair` redacts; under an authorization name only a value of
    one word (``{'Authorization': 'Bearer'}``): `secret_headers.AUTH_HEADER_RE` read one of a scheme
    and its credential, any scheme kept (``{"Authorization": "GenieKey {api_key}"}``); under a
    dotted name (``"spring.mail.password"``) only one whose last part is a secret's."""
    if AUTHORIZATION_RE.fullmatch(m["name"]) is not None:
        return len(m["val"].split()) <= 1 and secret_pair(m)  # one word: the credential
    if "." in m["name"] and not secret_word_name(m["name"].rpartition(".")[2]):
        return False  # a dotted key's last part must name a secret: ``"sort.key": "name"`` stays
    if m["name"].lower() == "pwd":  # MongoDB's ``createUser({user: 'bob', pwd: 'X'})``; ``$PWD`` is a path
        return literal_or_braced(m["val"])
    return secret_setting(m)
