"""A ``.netrc`` entry's password (``machine api.example.com login me password X``, the
file curl, git, pip and Heroku's CLI read, often quoted in a runbook or written by a
setup hook) is redacted in prose, hook prompts and hook commands: no rule read it, so
the password stayed in every one (a keyword and its value are words apart, and a
Heroku API key there is a UUID, which reads as no literal secret). A reference or
placeholder stays; so does prose that only says "machine", "login" and "password"."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_text

R = REDACTED
PW = "Tr0ub4dor3Xq"
UUID = "4a1b2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"

GOES = [
    f"machine api.example.com login deploy password {PW}",
    f"machine api.heroku.com\n  login me@example.com\n  password {UUID}\nmachine git.heroku.com\n  login me@example.com\n  password {UUID}",
    f"machine github.com login x-access-token password {PW} account ci",
    f"default login anonymous password {PW}",
    f"`machine ftp.example.com login deploy password {PW}`",
    f"machine db.example.com account ops login deploy password '{PW}'",
]


@pytest.mark.parametrize("text", GOES)
def test_the_password_goes_in_prose_and_prompts(text: str) -> None:
    for redact in (redact_prose, redact_text):
        out = redact(text)
        assert PW not in out and UUID not in out
        assert out.count(R) == text.count(PW) + text.count(UUID)
        assert redact(out) == out


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            f'echo "machine api.example.com login deploy password {PW}" >> ~/.netrc',
            f'echo "machine api.example.com login deploy password {R}" >> ~/.netrc',
        ),
        (
            f"printf 'machine github.com\\nlogin bot\\npassword {UUID}\\n' > ~/.netrc",
            f"printf 'machine github.com\\nlogin bot\\npassword {R}\\n' > ~/.netrc",
        ),
        (
            f"cat > ~/.netrc <<EOF\nmachine api.heroku.com\n  login me@example.com\n  password {UUID}\nEOF",
            f"cat > ~/.netrc <<EOF\nmachine api.heroku.com\n  login me@example.com\n  password {R}\nEOF",
        ),
    ],
)
def test_the_password_goes_in_a_hook_command(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(
    "text",
    [
        'echo "machine api.example.com login deploy password $NETRC_PASSWORD" >> ~/.netrc',
        "machine api.example.com login deploy password ${GITHUB_TOKEN}",
        "machine api.example.com login <user> password <token>",
        "machine api.example.com login YOUR_LOGIN password YOUR_API_KEY",
        "Log in to the machine with your login and password first.",
        "A machine learning password classifier flags weak passwords.",
        "The build machine login uses password authentication.",
    ],
)
def test_what_holds_no_password_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_text(text) == text
    assert redact_command(text) == text


def test_a_crafted_long_entry_finishes() -> None:
    for text in ("machine " * 100_000, "machine h login u " * 50_000 + "password", "machine h" + " login u" * 50_000):
        assert isinstance(redact_command(text), str) and isinstance(redact_prose(text), str)
