"""An ``.npmrc`` line's secret under a registry's scope (``//registry.npmjs.org/:_authToken=X``,
``:_password=X``), as a setup hook writes it (``echo "//.../:_authToken=X" > ~/.npmrc``),
is redacted by the command rule as prose redacts it: the assignment rule read a name only
at the start of a word, and the scope's ``/:`` before it hid the name, so a token of no
well-known format (a legacy npm token is a UUID) stayed in the hook's command."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
UUID = "4a1b2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
B64 = "VHIwdWI0ZG9yM1hxc2VjcmV0"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"//registry.npmjs.org/:_authToken={UUID}", f"//registry.npmjs.org/:_authToken={R}"),
        (
            f'echo "//registry.npmjs.org/:_authToken={UUID}" > ~/.npmrc',
            f'echo "//registry.npmjs.org/:_authToken={R}" > ~/.npmrc',
        ),
        (
            f"cd app && echo //npm.example.com/repo/:_password={B64} >> .npmrc",
            f"cd app && echo //npm.example.com/repo/:_password={R} >> .npmrc",
        ),
    ],
)
def test_a_scoped_npmrc_secret_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(
    "command",
    [
        'echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > ~/.npmrc',
        "echo //registry.npmjs.org/:_authToken=$NPM_TOKEN >> .npmrc",
        "echo //registry.npmjs.org/:username=deploy >> .npmrc",
        "curl https://example.com/a:sort_key=name",
    ],
)
def test_what_holds_no_secret_stays(command: str) -> None:
    assert redact_command(command) == command
