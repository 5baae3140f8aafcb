"""Under a secret-looking name, a word before a credential is its auth scheme, whatever
the scheme (``{'auth': 'SSWS X'}``: Okta's), as under ``Authorization``: prose kept the
credential after a scheme it did not know (``SSWS``, ``Hawk``, ``2FA``), and took a
scheme with digits for the secret (``1Password X`` became ``[redacted] X``)."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

CRED = "q9W8e7R6t5Y4u3I2o1P0"


@pytest.mark.parametrize("scheme", ["SSWS", "Hawk", "2FA", "1Password", "3scale", "GenieKey", "Bearer"])
@pytest.mark.parametrize(
    "form",
    [
        "{{'auth': '{s} {c}'}}",
        '{{"api_key": "{s} {c}"}}',
        "x-api-key: {s} {c}",
        "curl -H 'X-Api-Key: {s} {c}' https://x.example",
        'AUTH_HEADER="{s} {c}"',
        "xhr.setRequestHeader('X-Auth-Token', '{s} {c}');",
    ],
)
def test_the_credential_goes_and_the_scheme_stays(form: str, scheme: str) -> None:
    text = form.format(s=scheme, c=CRED)
    assert redact_prose(text) == text.replace(CRED, REDACTED)


@pytest.mark.parametrize(
    "text",
    [
        "{'auth': 'SSWS ${OKTA_TOKEN}'}",  # a reference
        "{'auth': 'SSWS <api-token>'}",  # a placeholder
        "api_key: Stored in Vault",  # prose: words, no credential
        "password: Ask the admin",
        "token: Generate one under Settings",
        "author: Jane Doe2024",  # no secret's name
        "{'mode': 'SSWS q9W8e7R6t5Y4u3I2o1P0'}",
    ],
)
def test_no_credential_no_change(text: str) -> None:
    assert redact_prose(text) == text
