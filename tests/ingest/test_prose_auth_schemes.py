"""Prose keeps an auth scheme and loses the credential after it wherever a secret-looking
name sets it, quoted pair or header line (``{'auth': 'Basic X'}``, ``X-Auth: Token X``),
as the command rule writes it (`test_quoted_pair_schemes`); prose took only ``Bearer``'s
and an ``Authorization`` header's, so ``{'auth': 'Basic X'}`` kept its credential. A
scheme the two rules did not know (``Negotiate``) left the credential after it in both.
Placeholders and references after a scheme stay, and so does a scheme word in prose.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"
B64 = "dXNlcjpwYXNzd29yZDEyMw=="

#: Read alike by prose and by the command rule.
BOTH = [
    (f"{{'auth': 'Basic {V}'}}", f"{{'auth': 'Basic {R}'}}"),
    (f"'auth': 'Basic {B64}'", f"'auth': 'Basic {R}'"),
    (f"Authorization: Basic {V}", f"Authorization: Basic {R}"),
    (f'"Proxy-Authorization": "Digest {V}"', f'"Proxy-Authorization": "Digest {R}"'),
    (f'-H "Authorization: Token {V}"', f'-H "Authorization: Token {R}"'),
    (f"{{'X-Auth-Token': 'token {V}'}}", f"{{'X-Auth-Token': 'token {R}'}}"),
    (f"{{'auth_header': 'ApiKey {V}'}}", f"{{'auth_header': 'ApiKey {R}'}}"),
    (f"Authorization: Negotiate {B64}", f"Authorization: Negotiate {R}"),
    (f'{{"Authorization": "NTLM {B64}"}}', f'{{"Authorization": "NTLM {R}"}}'),
    (f"-H 'X-Auth: Basic {V}'", f"-H 'X-Auth: Basic {R}'"),
    (f'curl -H "X-Auth: Basic {B64}" https://x', f'curl -H "X-Auth: Basic {R}" https://x'),
]
#: Prose only: a YAML or JavaScript key, an assignment (the command rule takes the
#: whole quoted value of ``AUTH = "..."``, scheme and all) and a call's two arguments.
PROSE = [
    (f"auth: Basic {V}", f"auth: Basic {R}"),
    (f"headers: {{ auth: 'Basic {V}' }}", f"headers: {{ auth: 'Basic {R}' }}"),
    (f'AUTH_HEADER = "Basic {B64}"', f'AUTH_HEADER = "Basic {R}"'),
    (f"  proxy_auth: `Digest {V}`.", f"  proxy_auth: `Digest {R}`."),
    (f"xhr.setRequestHeader('Authorization', 'Basic {B64}');", f"xhr.setRequestHeader('Authorization', 'Basic {R}');"),
]
STAYS = [
    "{'auth': 'Basic <base64>'}",
    "Authorization: Basic <base64>",
    "{'auth': 'Bearer $TOKEN'}",
    "auth: Basic ${CREDS}",
    '"auth": "Basic ${CREDS}"',
    "{'auth': 'Basic your_credentials'}",
    "{'auth': 'Basic YOUR_CREDENTIALS'}",
    "{'auth': 'Basic authentication'}",
    'WWW-Authenticate: Basic realm="Restricted"',
    '"WWW-Authenticate": "Basic realm=\\"Restricted\\""',
    "auth: Basic",
    # A scheme's word after a name that says nothing of a secret is prose.
    "error: 'Token expired9'",
    '"description": "Token amounts"',
    "title: Basic Compilation2024",
    "- Basic authentication with Token42abcdef rotation",
]


@pytest.mark.parametrize(("text", "expected"), BOTH + PROSE)
def test_prose_keeps_the_scheme_and_loses_the_credential(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_the_command_rule_reads_them_alike(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", STAYS)
def test_a_placeholder_reference_or_plain_word_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_a_redacted_text_is_not_redacted_again() -> None:
    once = redact_prose(f"{{'auth': 'Basic {V}'}}\nauth: Negotiate {B64}")
    assert once == f"{{'auth': 'Basic {R}'}}\nauth: Negotiate {R}"
    assert redact_prose(once) == once
