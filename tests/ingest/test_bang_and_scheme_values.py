"""Two edges of a value: a ``!`` that ends a password is the password's (``Test123!``,
``P@ssw0rd!``: prose kept it after the marker, ``[redacted]!``, read as a sentence's
exclamation), and an auth scheme's name set as a value (``http --auth-type=bearer``)
names how a credential is sent, not one (the command rule redacted it)."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3. Enter password: Test123!", f"3. Enter password: {R}"),
        ("Password: P@ssw0rd!", f"Password: {R}"),
        ("export API_KEY=abc123def456!!", f"export API_KEY={R}"),
        ("Log in with password: Test123!.", f"Log in with password: {R}."),  # the sentence's own stays
        ("Authorization: Bearer abc123def456!", f"Authorization: Bearer {R}"),
        ("mysql -pTest123! db", f"mysql -p{R} db"),
        ("password: hunter2xyz, then log in", f"password: {R}, then log in"),
        ("token: process.env.API_TOKEN!,", "token: process.env.API_TOKEN!,"),  # code: kept whole
    ],
)
def test_a_bang_after_a_password_goes_with_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "command",
    [
        "http --auth-type=bearer x.example",
        "http --auth-type bearer x.example",
        "curl --auth-scheme Digest https://x.example",
        "tool --token-type=Bearer",
        '{"auth_type": "bearer"}',
        "python run.py --auth oauth2",
    ],
)
def test_an_auth_scheme_named_as_a_value_stays(command: str) -> None:
    assert redact_command(command) == command


def test_a_credential_after_the_scheme_flag_still_goes() -> None:
    assert redact_command("http --auth-type=bearer --auth=abc123def456 x") == (
        f"http --auth-type=bearer --auth={R} x"
    )
    assert redact_args(["--auth-type", "bearer", "--auth", "abc123def456"]) == ["--auth-type", "bearer", "--auth", R]
