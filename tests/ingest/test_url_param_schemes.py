"""A form or query parameter whose value is an auth scheme and a credential
(``-d "grant=x&token=Bearer X"``): the URL rule read the scheme alone as the parameter's
value and redacted it, and the credential after the space stayed, in the command rule,
in prose and in MCP arguments (seen running ``redact_command`` over that ``curl -d``).
The scheme stays and the credential goes, when it reads as one after a scheme
(`braced_values.literal_or_braced`); a scheme's name alone (``?auth_type=basic``) picks a
scheme and is no credential, as a flag's or an assignment's is not.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command, redact_text

R = REDACTED
W = "q9W8e7R6t5Y4u3I2o1P0"

GOES = [
    (f"curl -d 'grant=x&token=Bearer {W}' https://x", f"curl -d 'grant=x&token=Bearer {R}' https://x"),
    (f'curl -d "a=1&authorization=Basic {W}" https://x', f'curl -d "a=1&authorization=Basic {R}" https://x'),
    (f"see https://x/cb?a=1&auth=Token {W}", f"see https://x/cb?a=1&auth=Token {R}"),
    (f"https://x/cb?a=1&auth=Bearer%20{W}", f"https://x/cb?a=1&auth={R}"),
]
STAYS = [
    'curl "https://x/api?auth_type=basic&x=1"',
    "https://x/login?auth=bearer or a cookie",
    "curl -d 'grant=x&token=Bearer $TOKEN' https://x",
    "https://x/?a=1&token=Bearer <token>",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_the_credential_after_a_parameter_s_scheme_goes(text: str, expected: str) -> None:
    assert redact_command(text) == expected
    assert redact_prose(text) == expected
    assert redact_text(text) == expected


@pytest.mark.parametrize("text", STAYS)
def test_a_scheme_alone_or_before_no_credential_stays(text: str) -> None:
    assert redact_command(text) == text
    assert redact_text(text) == text


def test_an_argument_loses_the_credential() -> None:
    assert redact_args([f"https://x/?a=1&token=Bearer {W}"]) == [f"https://x/?a=1&token=Bearer {R}"]
