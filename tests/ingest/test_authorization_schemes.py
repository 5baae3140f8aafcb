"""Under an ``Authorization`` or ``Proxy-Authorization`` header the first word of a
two-word value is the scheme, whichever it is: the scheme stays and the credential after
it goes. Both rules read a scheme not in `secret_values.AUTH_SCHEMES` (Okta's ``SSWS``,
``OAuth``, ``Key``, ``Splunk``, ``GenieKey``) as the value: the command rule redacted the
scheme and kept the credential, prose kept both. AWS's ``AWS4-HMAC-SHA256`` is followed by
``name=value`` parameters, of which ``Credential`` and ``Signature`` go.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_headers

R = REDACTED
V = "00abcDEFghiJKLmnoPQRstuVWXyz0123456789"
B64 = "dXNlcjpwYXNzd29yZDEyMw=="
SIG = "fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"
AWS = "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-date, Signature="

#: Read alike by prose and by the command rule.
BOTH = [
    (f"Authorization: SSWS {B64}", f"Authorization: SSWS {R}"),
    (f"Authorization: OAuth {V}", f"Authorization: OAuth {R}"),
    (f"Proxy-Authorization: Key {V}", f"Proxy-Authorization: Key {R}"),
    (f"Authorization: Splunk {V}", f"Authorization: Splunk {R}"),
    (f"Authorization: GenieKey {V}", f"Authorization: GenieKey {R}"),
    (f'-H "Authorization: SSWS {B64}"', f'-H "Authorization: SSWS {R}"'),
    (f'{{"Authorization": "SSWS {B64}"}}', f'{{"Authorization": "SSWS {R}"}}'),
    (f"{{'authorization': 'OAuth {V}'}}", f"{{'authorization': 'OAuth {R}'}}"),
    (f"Authorization: {V}", f"Authorization: {R}"),
    (
        f"Authorization: AWS4-HMAC-SHA256 {AWS}{SIG}",
        f"Authorization: AWS4-HMAC-SHA256 Credential={R}, SignedHeaders=host;range;x-amz-date, Signature={R}",
    ),
    (
        f'-H "Authorization: AWS4-HMAC-SHA256 {AWS}{SIG}"',
        f'-H "Authorization: AWS4-HMAC-SHA256 Credential={R}, SignedHeaders=host;range;x-amz-date, Signature={R}"',
    ),
    # A call's two arguments (`header_calls`).
    (f"xhr.setRequestHeader('Authorization', 'SSWS {B64}');", f"xhr.setRequestHeader('Authorization', 'SSWS {R}');"),
]
#: Placeholders and references after any scheme stay in both rules.
KEPT = [
    "Authorization: SSWS <token>",
    "Authorization: SSWS ${OKTA_TOKEN}",
    "Authorization: SSWS $OKTA_TOKEN",
    '{"Authorization": "GenieKey {api_key}"}',
]
#: Prose that names schemes or describes the header holds no credential.
PROSE_STAYS = [
    "Authorization: JWT, OAuth",
    "Authorization: Basic authentication is used",
    "Authorization: required for every call",
    "Authorization: Okta uses SSWS tokens",
    "Authorization: SSWS",
    # Under another name a first word is no scheme: the rule stays the known schemes'.
    "description: OAuth abc123def456ghi",
]


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_prose_keeps_any_scheme_and_loses_the_credential(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_the_command_rule_reads_them_alike(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", KEPT)
def test_a_placeholder_or_reference_after_any_scheme_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


@pytest.mark.parametrize("text", PROSE_STAYS)
def test_prose_without_a_credential_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_a_credential_after_the_value_in_a_command_is_no_scheme_s() -> None:
    # An unquoted header's one word is the value; a URL or flag after it is no credential.
    assert redact_command(f"Authorization: {V} https://x.example") == f"Authorization: {R} https://x.example"
    assert redact_command(f"Authorization: {V} -v") == f"Authorization: {R} -v"


def test_http_hook_headers_keep_any_scheme() -> None:
    headers = {"Authorization": f"SSWS {B64}", "Proxy-Authorization": "Key $PROXY_KEY", "X-Api-Key": f"SSWS {B64}"}
    assert redact_headers(headers) == {
        "Authorization": f"SSWS {R}",
        "Proxy-Authorization": "Key $PROXY_KEY",
        # a scheme before one credential is kept under any secret header's name
        # (test_api_key_header_schemes), as under Authorization
        "X-Api-Key": f"SSWS {R}",
    }


def test_a_redacted_text_is_not_redacted_again() -> None:
    once = redact_prose(f"Authorization: SSWS {B64}\nAuthorization: AWS4-HMAC-SHA256 {AWS}{SIG}")
    assert redact_prose(once) == once
    assert redact_command(once) == once
