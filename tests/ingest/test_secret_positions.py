"""Secrets that a command, a config line or a variable's sigil puts in a secret's place,
each of which reached ``items.sqlite`` verbatim (seen redacting a SKILL.md that quotes
them with `redact_prose`) while ``API_KEY=...`` beside them went: a PHP or Perl
variable (``$apiKey = "..."``), a Rails ``secret_key_base``, ... Placeholders and
references stay as written, as they do after ``API_KEY=``.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GOES = [
    (f'$apiKey = "{V}";', f'$apiKey = "{R}";'),
    (f"$api_key='{V}';", f"$api_key='{R}';"),
    (f"my $token = '{V}';", f"my $token = '{R}';"),
    (f"$DB_PASSWORD = {V}", f"$DB_PASSWORD = {R}"),
    (f"secret_key_base: {V}", f"secret_key_base: {R}"),
    (f"SECRET_KEY_BASE={V}", f"SECRET_KEY_BASE={R}"),
    (f'config.secret_key_base = "{V}"', f'config.secret_key_base = "{R}"'),
]
STAYS = [
    '$apiKey = getenv("API_KEY");',
    "$token = $request->bearerToken();",
    '$password = "your-password";',
    "$apiKey = '<api-key>';",
    "echo $API_KEY",
    "${API_KEY}=${{ secrets.API_KEY }}",
    "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    "secret_key_base: ${SECRET_KEY_BASE}",
    "database_base: Zyx987Wvu654Tsr321Qpo",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_secret_in_a_secret_position_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", STAYS)
def test_references_and_placeholders_stay(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "$" * 200_000 + "token = x",
        "$a" * 100_000 + " = ",
    ],
)
def test_crafted_long_lines_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
