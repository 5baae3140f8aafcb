"""The credentials of HTTP headers written in shell text redacted, their auth scheme kept.

Split from `secrets` (the command rule, `secrets.redact_command`, runs these first): an
``Authorization`` header anywhere (``Authorization: Bearer X``, any scheme word kept,
``Authorization: SSWS X``), a secret-looking header passed with curl's ``-H`` /
``--header`` (``-H "X-Api-Key: X"``), one a call sets (`header_calls`:
``setRequestHeader('Authorization', 'Bearer X')``) and one written out on a line of its
own (a heredoc's ``X-Api-Key: X``, ``printf 'token: X'``). As everywhere in the command
rule, a reference or placeholder (``Bearer $TOKEN``, ``<api-key>``) is kept, and every
pattern runs in linear time on any input.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.auth_params import (
    ANY_SCHEME,
    AUTHORIZATION_RE,
    KEY_SCHEME,
    PARAMS_AHEAD,
    key_scheme_word,
    redact_auth_params,
    secret_header_name,
)
from skill_retriever.ingest.braced_values import braced_inside, literal_or_braced
from skill_retriever.ingest.header_calls import redact_header_calls
from skill_retriever.ingest.masked_values import STRING_PREFIX
from skill_retriever.ingest.masked_values import masked_value as _masked_value
from skill_retriever.ingest.secret_formats import REDACTED
from skill_retriever.ingest.secret_values import (
    AUTH_SCHEMES,
    AUTHORIZATION_NAME,
    SCHEME_BEFORE_RE,
    secret_word_name,
    single_quoted,
)

__all__ = ["AUTH_HEADER_RE", "redact_header_lines", "redact_header_text"]

#: More words of a header value up to the quote that ends it (``"Bearer a b"``), taken
#: only inside quotes: the header's own (``hq``, open at the colon) or the value's
#: (``vq``). Possessive, so a value with no closing quote is scanned once, not rescanned.
_QUOTED_MORE = r"""(?:(?:[ \t]+[^\s"'\\,`]+)++(?=\\?["'`]))?"""


def _header_tail(scheme: str, ahead: str = "") -> str:
    """A header's value after its name: an auth scheme (``scheme``), kept, and the
    credentials after it (``val``), redacted; ``ahead``, a value no match starts at."""
    return (
        r"""(?P<nq>\\?["'])?\s*:\s*""" + STRING_PREFIX + r"""(?P<vq>\\?["']|`(?=(?i:""" + AUTH_SCHEMES + r""")[ \t]))?"""
        + ahead + r"""(?:""" + scheme + r""")?"""
        r"""(?P<val>(?!""" + AUTH_SCHEMES + r"""(?:[\s"'\\]|$))[^\s"'\\,`]+"""
        r"""(?(vq)""" + _QUOTED_MORE + r"""|(?(nq)|(?(hq)""" + _QUOTED_MORE + r"""))))"""
    )


_HEADER_TAIL = _header_tail(AUTH_SCHEMES + r"\s+")
#: ``Authorization: Bearer X`` anywhere (a curl header, a script's headers dict), any
#: scheme kept (``Authorization: SSWS X``).
AUTH_HEADER_RE = re.compile(
    r"""(?i)(?:(?<=["'])(?P<hq>)|\b)""" + AUTHORIZATION_NAME
    + _header_tail(AUTH_SCHEMES + r"\s+|" + ANY_SCHEME, "(?!" + PARAMS_AHEAD + ")")
)
#: A header passed with curl's ``-H`` / ``--header`` (``-H "X-Api-Key: X"``); a word before
#: one credential that ends the quoted value is read as its scheme, ``ks`` (``-H "X-Api-Key:
#: SSWS X"``), kept when it is one (`_header_flag`).
_HEADER_FLAG_RE = re.compile(
    r"""(?i)(?<![\w-])(?:-H|--header)(?:\s+|=)?(?P<hq>["'])?(?P<name>[A-Za-z][\w-]*+)"""
    + _header_tail(AUTH_SCHEMES + r"\s+|" + KEY_SCHEME + r"""(?=[^\s"'\\,`]++\\?["'])""")
)
#: A header written out, ``name: [scheme] credential`` (a heredoc's line, ``printf 'X-Api-Key:
#: X'``, ``{auth: `Bearer X`}``, a dotted key's last part, ``spring.mail.password: X`` of a
#: Spring ``application.yml``); only a name with a secret's word: a kept match hides the next.
_HEADER_LINE_NAME = r"""(?i)(?<![^\s"'`{,(.])(?P<hq>(?!))?(?=[\w-]{0,64}?(?:key|token|secret|pass|auth))(?P<name>[A-Za-z][\w-]*+)(?=[ \t]*+:[ \t]*+\S)"""
_HEADER_LINE_RE = re.compile(_HEADER_LINE_NAME + _HEADER_TAIL)
#: The same with any word as the scheme (``x-api-key: SSWS X``, ``1Password X``), as
#: under Authorization: read first, its credential redacted when it reads as a literal
#: secret; a word that is none (``token: Secret123 please``) is left to `_HEADER_LINE_RE`.
_HEADER_LINE_ANY_RE = re.compile(_HEADER_LINE_NAME + _header_tail(ANY_SCHEME, "(?=" + ANY_SCHEME + ")"))
#: A credential redacted already after a value: the value is its scheme (`_header_line`).
_REDACTED_AFTER_RE = re.compile(r"[ \t]++" + re.escape(REDACTED))


def redact_header_text(text: str) -> str:
    """Shell text with the credentials of its authorization headers (any scheme kept), of
    the secret-looking headers passed with ``-H`` / ``--header`` and of those code sets
    with a call (`header_calls`: ``setRequestHeader('Authorization', 'Bearer X')``) redacted."""
    text = AUTH_HEADER_RE.sub(_masked_value(lambda m: True), redact_header_calls(redact_auth_params(text)))
    return _HEADER_FLAG_RE.sub(_header_flag, text)


def redact_header_lines(text: str) -> str:
    """Shell text with the credentials of the headers it writes out redacted (``X-Api-Key:
    X`` on a heredoc's line, ``x-api-key: SSWS X``): a name with a secret's word and a
    value that reads as a literal secret (`_header_line`); any word before one credential
    is read as its scheme first (`_HEADER_LINE_ANY_RE`), and kept."""
    text = _HEADER_LINE_ANY_RE.sub(_masked_value(_header_line), text)
    return _HEADER_LINE_RE.sub(_masked_value(_header_line), text)


_header_credential = _masked_value(lambda m: secret_header_name(m["name"]))


def _header_flag(m: re.Match[str]) -> str:
    """A ``-H`` header's match with its credential redacted, and the word read as its
    scheme with it when that is none (`auth_params.key_scheme_word`: ``-H "X-Password:
    correct horse"`` goes whole)."""
    out = _header_credential(m)
    if out == m[0] or m["ks"] is None or key_scheme_word(m["name"], m["ks"]):
        return out
    return m.string[m.start() : m.start("ks")] + REDACTED + m.string[m.end("val") : m.end()]


def _header_line(m: re.Match[str]) -> bool:
    """A written-out header whose name says it holds a secret (`secret_word_name`, or
    ``auth``: ``X-Auth``) and whose value reads as one: not a message (``Missing token:
    set X``); after a scheme any word but a plain one (`braced_values.literal_or_braced`;
    a value in braces by what they hold, ``password: {Xk9;2mQz7Lp}``)."""
    name = m["name"]
    if not (secret_word_name(name) or name.lower().endswith("auth")) or AUTHORIZATION_RE.fullmatch(name):
        return False
    if _REDACTED_AFTER_RE.match(m.string, m.end("val")):
        return False  # ``1Password [redacted]``: the scheme `_HEADER_LINE_ANY_RE` kept
    scheme = SCHEME_BEFORE_RE.search(m.string, m.start(), m.start("val")) is not None
    value = m["val"].rstrip(".,;:!?)]")
    if braced_inside(value) is None:  # braces around the whole value close it: ``{Xk9;2mQ}`` stays whole
        value = value.rstrip(".,;:!?)]}")  # ``token: process.env.API_TOKEN!,`` is code, as prose reads it
    return literal_or_braced(value, after_scheme=scheme, quoted=single_quoted(m.string, m.start("val")))
