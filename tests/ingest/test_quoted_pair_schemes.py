"""A quoted pair whose value is an auth scheme and a credential (a script's headers dict,
``{'Authorization': 'Bearer X'}``) keeps the scheme and loses the credential, as the
header rule writes it (``Authorization: Bearer [redacted]``); the JSON-pair rule took the
scheme word too, and took a placeholder or a reference after it.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GOES = [
    ("headers = {'Authorization': 'Bearer token'}", f"headers = {{'Authorization': 'Bearer {R}'}}"),
    (f"headers = {{'Authorization': 'Bearer {V}'}}", f"headers = {{'Authorization': 'Bearer {R}'}}"),
    (f'curl -d \'{{"Authorization": "Basic {V}"}}\'', f'curl -d \'{{"Authorization": "Basic {R}"}}\''),
    (f"{{'X-Auth-Token': 'token {V}'}}", f"{{'X-Auth-Token': 'token {R}'}}"),
    (f"{{'auth_header': 'Bearer {V}'}}", f"{{'auth_header': 'Bearer {R}'}}"),
    # No scheme: the value goes whole, as before; so does a phrase that starts with a
    # scheme's word (a passphrase), not a scheme and one credential.
    (f'{{"Authorization": "{V}"}}', f'{{"Authorization": "{R}"}}'),
    ("{'password': 'token of my love 42'}", f"{{'password': '{R}'}}"),
    ("{'Authorization': 'Bearer'}", f"{{'Authorization': '{R}'}}"),
]
STAYS = [
    "{'Authorization': 'Bearer <token>'}",
    "{'Authorization': 'Bearer $TOKEN'}",
    "{'Authorization': 'Bearer ${API_TOKEN}'}",
    '{"Authorization": "Bearer {token}"}',
    "{'Authorization': 'Bearer your-token-here'}",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_pair_keeps_its_scheme_and_loses_the_credential(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", STAYS)
def test_a_placeholder_or_reference_after_a_scheme_stays(text: str) -> None:
    assert redact_command(text) == text
