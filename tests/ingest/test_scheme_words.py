"""An auth scheme's word may start with a digit or hold digits (``2FA``, ``3scale``,
``AWS4-HMAC-SHA256``, ``SCRAM-SHA-256``, ``OAuth2``): the credential after it goes and
the scheme stays, in prose and in the command rule. Under an ``Authorization`` header
``SCHEME_WORD`` wanted a letter first, so ``2FA`` was read as the value and the
credential after it stayed; under any other secret name the schemes known everywhere
(`AUTH_SCHEMES`) held no word with digits, and prose took ``HMAC-SHA256`` for the
value. A credential is no scheme's word either: ``Authorization: X (see docs)`` read
X as a scheme and kept it, in both rules.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_headers

R = REDACTED
C = "q9W8e7R6t5Y4u3I2o1P0"

BOTH = [
    (f"Authorization: 2FA {C}", f"Authorization: 2FA {R}"),
    (f"Authorization: 3scale {C}", f"Authorization: 3scale {R}"),
    (f"Proxy-Authorization: 1Password {C}", f"Proxy-Authorization: 1Password {R}"),
    (f'curl -H "Authorization: 2FA {C}" https://x', f'curl -H "Authorization: 2FA {R}" https://x'),
    (f'{{"Authorization": "2FA {C}"}}', f'{{"Authorization": "2FA {R}"}}'),
    (f"curl -H 'X-Api-Key: HMAC-SHA256 {C}' https://x", f"curl -H 'X-Api-Key: HMAC-SHA256 {R}' https://x"),
    (f"curl -H 'X-Api-Key: OAuth2 {C}' https://x", f"curl -H 'X-Api-Key: OAuth2 {R}' https://x"),
    (f"{{'auth': 'SCRAM-SHA-256 {C}'}}", f"{{'auth': 'SCRAM-SHA-256 {R}'}}"),
    (f"{{'auth': 'TC3-HMAC-SHA256 {C}'}}", f"{{'auth': 'TC3-HMAC-SHA256 {R}'}}"),
    # A credential followed by words is the value, not a scheme before them.
    (f"Authorization: {C} (see the docs)", f"Authorization: {R} (see the docs)"),
    ("Authorization: abc123def456ghi789jkl is the key", f"Authorization: {R} is the key"),
]
PROSE = [
    (f"x-api-key: HMAC-SHA256 {C}", f"x-api-key: HMAC-SHA256 {R}"),
    (f"x-api-key: AWS4-HMAC-SHA256 {C}", f"x-api-key: AWS4-HMAC-SHA256 {R}"),
    (f"xhr.setRequestHeader('Authorization', '2FA {C}');", f"xhr.setRequestHeader('Authorization', '2FA {R}');"),
]
KEPT = [
    "Authorization: 2FA ${TOTP_TOKEN}",
    "Authorization: OAuth2 <access-token>",
    "auth: OAuth2 authentication",
]
#: Prose only: the command rule reads any word after the header's name as a credential.
PROSE_KEPT = ["Authorization: 401 responses mean the token expired", "x-api-key: HMAC-SHA256"]


@pytest.mark.parametrize(("text", "expected"), BOTH + PROSE)
def test_prose_keeps_a_scheme_with_digits_and_loses_the_credential(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_the_command_rule_reads_them_alike(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", KEPT)
def test_no_credential_after_a_scheme_with_digits_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


@pytest.mark.parametrize("text", PROSE_KEPT)
def test_prose_without_a_credential_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_http_hook_headers_keep_a_scheme_with_digits() -> None:
    headers = {"Authorization": f"2FA {C}", "X-Api-Key": f"HMAC-SHA256 {C}"}
    assert redact_headers(headers) == {"Authorization": f"2FA {R}", "X-Api-Key": f"HMAC-SHA256 {R}"}
