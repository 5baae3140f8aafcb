"""A header code sets with a call, for the command rule (`secrets.redact_command`):
`redact_header_calls`.

Code sets a header with its name and its value as a call's first two arguments
(``xhr.setRequestHeader('Authorization', 'Bearer X')``, ``headers.set(...)``, Rust's
``.header(AUTHORIZATION, "Bearer X")``, Go's ``req.Header.Set(...)``, a ``Headers`` pair
``["Authorization", "Bearer X"]``); the header rules read ``name: value`` only, so a hook
command or script holding such a line kept its credential, which prose redacted
(`prose_secrets`). As under the header rules the scheme stays and the credential goes:
under an authorization header any value but a reference, placeholder or slot
(`masked_values`), under another secret-looking name (``X-Api-Key``) only a literal
secret (`braced_values.literal_or_braced`), as a written-out header's
(``.header("X-Api-Key", "Hello world")`` holds none). A value code completes (``"Bearer
" + token``) is no quoted credential and stays. The pattern is possessive and bounded.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.auth_params import AUTHORIZATION_RE
from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.masked_values import STRING_PREFIX, masked_value
from skill_retriever.ingest.secret_values import (
    AUTHORIZATION_NAME,
    SCHEME_WORD,
    scheme_name,
    secret_word_name,
    single_quoted,
)

__all__ = ["redact_header_calls"]

#: A call's (or a list's) first two arguments, a header's ``name`` (quoted, or a bare
#: constant for the authorization header: ``AUTHORIZATION``, ``header::AUTHORIZATION``)
#: and a quoted value of an optional ``scheme`` and one word, the credential (``val``).
_HEADER_CALL_RE = re.compile(
    r"""(?<=[(\[])\s{0,64}+(?:(?P<nq>\\?["'`])(?P<name>[A-Za-z][\w-]{0,64}+)(?P=nq)"""
    r"""|(?:[A-Za-z_]\w{0,64}+(?:\.|::)){0,4}+(?P<bare>(?i:""" + AUTHORIZATION_NAME + r""")\b))"""
    r"""\s{0,64}+,\s{0,64}+""" + STRING_PREFIX + r"""(?P<vq>\\?["'`])"""
    r"""(?:(?P<scheme>""" + SCHEME_WORD + r""")[ \t]++)?+(?P<val>[^\s"'`\\]{1,1024}+)(?P=vq)"""
)


def redact_header_calls(text: str) -> str:
    """``text`` with the credentials of the secret-looking headers its calls set
    redacted (see the module docstring); text without any comes back as it is."""
    if "(" not in text and "[" not in text:
        return text
    return _HEADER_CALL_RE.sub(masked_value(_secret_call), text)


def _secret_call(m: re.Match[str]) -> bool:
    """Whether the call's value holds a credential: any word but a scheme's name under an
    authorization header; under another secret-looking name a literal secret."""
    if m["bare"] is not None or AUTHORIZATION_RE.fullmatch(m["name"]):
        return not scheme_name(m["val"])
    name = m["name"]
    if not (secret_word_name(name) or name.lower().endswith("auth")):
        return False
    quoted = single_quoted(m.string, m.start("val"))
    return literal_or_braced(m["val"], after_scheme=m["scheme"] is not None, quoted=quoted)
