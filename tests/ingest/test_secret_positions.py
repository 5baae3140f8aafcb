"""Secrets that a command, a config line or a variable's sigil puts in a secret's place,
each of which reached ``items.sqlite`` verbatim (seen redacting a SKILL.md that quotes
them with `redact_prose`) while ``API_KEY=...`` beside them went: a PHP or Perl
variable (``$apiKey = "..."``), a Rails ``secret_key_base``, a command that sets a
secret-named variable or setting to the word after its name (a Dockerfile's ``ENV
API_KEY value``, fish's ``set -gx API_KEY value``, Windows' ``setx``, ``aws configure
set aws_secret_access_key X``, ``npm config set``, ``git config``). Placeholders and
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
    (f"ENV API_KEY {V}", f"ENV API_KEY {R}"),
    (f'ENV OPENAI_API_KEY "{V}"', f'ENV OPENAI_API_KEY "{R}"'),
    (f"ENV API_KEY={V}", f"ENV API_KEY={R}"),
    (f"set -x API_KEY {V}", f"set -x API_KEY {R}"),
    (f"set -gx OPENAI_API_KEY '{V}'", f"set -gx OPENAI_API_KEY '{R}'"),
    (f"set -U -x DB_PASSWORD {V}", f"set -U -x DB_PASSWORD {R}"),
    (f"set --export API_TOKEN {V}; and run", f"set --export API_TOKEN {R}; and run"),
    (f'setx OPENAI_API_KEY "{V}"', f'setx OPENAI_API_KEY "{R}"'),
    (f"aws configure set aws_secret_access_key {V}", f"aws configure set aws_secret_access_key {R}"),
    (
        f"aws configure set aws_session_token {V} --profile dev",
        f"aws configure set aws_session_token {R} --profile dev",
    ),
    (f"npm config set //registry.npmjs.org/:_authToken {V}", f"npm config set //registry.npmjs.org/:_authToken {R}"),
    (f"yarn config set npmAuthToken {V}", f"yarn config set npmAuthToken {R}"),
    (f"git config --global github.token {V}", f"git config --global github.token {R}"),
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
    'ENV PATH "$VIRTUAL_ENV/bin:$PATH"',
    "ENV API_KEY ${API_KEY}",
    "ENV API_KEY=your-api-key",
    "env API_KEY Zyx987Wvu654Tsr321Qpo",  # env runs a command; ENV is the Dockerfile's
    "set -x API_KEY $API_KEY",
    "set -gx API_KEY (cat ~/.api_key)",
    "set -euxo pipefail",
    "set API_KEY_FILE Zyx987Wvu654Tsr321Qpo",
    "aws configure set aws_access_key_id AKIAEXAMPLEID",
    "aws configure set region us-east-1",
    "npm config set prefix '~/.npm-global'",
    'openclaw config set plugins.entries.manifest.config.apiKey "USER_API_KEY"',
    "git config --global user.name Zyx987Wvu654Tsr321Qpo",
    "git config --global credential.helper store",
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
        "set" + " -x" * 100_000 + " TOKEN",
        "config set" + " --a" * 100_000,
        "ENV TOKEN " + "a" * 200_000,
        "git config" + " --g" * 100_000 + " token",
    ],
)
def test_crafted_long_lines_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
