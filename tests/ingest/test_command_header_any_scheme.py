"""A header written out in a hook's command (a heredoc's line, ``printf 'X-Api-Key: ...'``)
keeps its scheme and loses its credential whatever the scheme, as prose does: the
command rule knew only `AUTH_SCHEMES` there, so ``x-api-key: SSWS X`` kept X and
``x-api-key: 1Password X`` lost the scheme and kept X."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

CRED = "q9W8e7R6t5Y4u3I2o1P0"


@pytest.mark.parametrize("scheme", ["SSWS", "Hawk", "GenieKey", "1Password", "3scale", "Token"])
@pytest.mark.parametrize(
    "form",
    ["x-api-key: {s} {c}", "printf 'X-Auth-Token: {s} {c}\\n' > headers", "cat <<EOF > h\nX-Api-Key: {s} {c}\nEOF"],
)
def test_the_credential_goes_and_the_scheme_stays(form: str, scheme: str) -> None:
    command = form.format(s=scheme, c=CRED)
    assert redact_command(command) == command.replace(CRED, REDACTED)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('echo "Missing token: set API_TOKEN first"', 'echo "Missing token: set API_TOKEN first"'),
        ("token: process.env.API_TOKEN!,", "token: process.env.API_TOKEN!,"),
        ("x-api-key: SSWS ${OKTA_TOKEN}", "x-api-key: SSWS ${OKTA_TOKEN}"),
        # a word after a literal secret is no credential: the secret itself goes, as before
        ("password: Secret123 please", f"password: {REDACTED} please"),
    ],
)
def test_what_holds_no_credential_after_a_scheme(command: str, expected: str) -> None:
    assert redact_command(command) == expected
