"""Code that only names the variable holding a credential keeps it, in the command rule as
in prose: ``f"Bearer {API_KEY}"``, ``"Bearer ${TOKEN}"``, ``Authorization: Bearer
$GITHUB_TOKEN`` as a quoted value of a secret-looking name, a JavaScript template
literal, ``"Bearer " + token``. The rule read an f-string's ``f`` or a template
literal's backtick as the value, and a quoted value of a scheme and a reference as a
literal secret (``AUTH_HEADER="[redacted]"``). A literal credential after the scheme
still goes, and the scheme stays, as the header rule writes it.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "sk-abc123def456ghi789jkl012mno"  # an OpenAI-shaped key: a format that goes anywhere
W = "q9W8e7R6t5Y4u3I2o1P0"  # a credential of no known format

KEPT = [
    'headers = {"Authorization": f"Bearer {API_KEY}"}',
    "headers = {'Authorization': f'Bearer {token}'}",
    'headers = {"Authorization": f"Bearer {self.api_key}"}',
    'Authorization=f"Bearer {API_KEY}"',
    "headers: { Authorization: `Bearer ${token}` }",
    'headers: { "Authorization": `Bearer ${process.env.API_KEY}` }',
    'headers = {"Authorization": "Bearer " + API_KEY}',
    "{'Authorization': 'Bearer ' + token}",
    '"Authorization": "Bearer %s" % token',
    '"Authorization": "Bearer {}".format(token)',
    "Authorization: Token {{ api_token }}",
    'AUTH_HEADER="Bearer ${TOKEN}"',
    'AUTH="Bearer $GITHUB_TOKEN"',
    'export AUTH_HEADER="Authorization: Bearer $GITHUB_TOKEN"',
    '--auth-header "Bearer ${TOKEN}"',
    'TOKEN_HEADER="Bearer $T"; curl -H "$TOKEN_HEADER" https://x',
    'curl -d "token=Bearer ${TOKEN}" https://x',
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://x',
    "AUTH='Bearer ${TOKEN}'",
]
GOES = [
    (f'curl -H "Authorization: Bearer {V}" https://x', f'curl -H "Authorization: Bearer {R}" https://x'),
    (f'headers = {{"Authorization": f"Bearer {W}"}}', f'headers = {{"Authorization": f"Bearer {R}"}}'),
    (f'AUTH_HEADER="Bearer {W}"', f'AUTH_HEADER="Bearer {R}"'),
    (f'export AUTH_HEADER="Authorization: Bearer {W}"', f'export AUTH_HEADER="Authorization: Bearer {R}"'),
    (f'curl -d "token=Bearer {W}" https://x', f'curl -d "token=Bearer {R}" https://x'),
    # In single quotes the shell expands nothing: a lower-case ``$`` word is literal text.
    ("AUTH='Bearer $ecretP4ss'", f"AUTH='Bearer {R}'"),
]


@pytest.mark.parametrize("text", KEPT)
def test_a_reference_after_a_scheme_is_kept_verbatim(text: str) -> None:
    assert redact_command(text) == text


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_literal_credential_after_a_scheme_goes_and_the_scheme_stays(text: str, expected: str) -> None:
    assert redact_command(text) == expected
