"""A HashiCorp Vault token is a secret of a known format, redacted wherever it stands:
``hvs.`` (service), ``hvb.`` (batch) and ``hvr.`` (recovery) and 24 or more characters,
and a legacy service token, ``s.`` and exactly 24 letters and digits of both cases. Prose
read ``hvs.CAES...`` after ``VAULT_TOKEN=`` as code (a name and an attribute) and kept
it, and ``vault login TOKEN`` kept it in every rule."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_text

R = REDACTED
HVS = "hvs.CAESIJk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0s"
SHORT = "hvs.6j4cuewowBGit65rheNoceI7"  # a dev server's root token, as Vault's docs show one
HVB = "hvb.AAAAAQJk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0sA2eV9uKq1Xr8Tz_AbCd-Ef"
LEGACY = "s.Ab3dE5fG7hI9jK1lM3nO5pQ7"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"export VAULT_TOKEN={HVS}", f"export VAULT_TOKEN={R}"),
        (f"vault login {SHORT}", f"vault login {R}"),
        (f"Use the batch token `{HVB}`.", f"Use the batch token `{R}`."),
        (f"export VAULT_TOKEN={LEGACY}", f"export VAULT_TOKEN={R}"),
        (f"vault login {LEGACY}", f"vault login {R}"),
        (f'{{"vault_token": "{LEGACY}"}}', f'{{"vault_token": "{R}"}}'),
    ],
)
def test_a_vault_token_goes_everywhere(text: str, expected: str) -> None:
    assert redact_text(text) == expected  # a known format: no name needed
    assert redact_prose(text) == expected
    assert redact_command(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "export VAULT_TOKEN=hvs.your-token-here",
        "vault login hvs.xxxxxxxxxxxxxxxxxxxxxxxx",
        "Tokens start with hvs. (service) or hvb. (batch).",
        "s.getElementsByClassName",  # code: a name's attribute
        "s.abcdefghijklmnopqrstuvwx",  # letters of one case: no token's shape
        "this.s.Ab3dE5fG7hI9jK1lM3nO5pQ7",  # an attribute of an attribute
        "s.Ab3dE5fG7hI9jK1lM3nO5pQ7()",  # a call
        "$s.Ab3dE5fG7hI9jK1lM3nO5pQ7",
    ],
)
def test_a_vault_look_alike_stays(text: str) -> None:
    assert redact_text(text) == text
    assert redact_prose(text) == text
