"""A value a command sets under a secret's name, the name and the value words apart
(``npm config set //registry.npmjs.org/:_authToken X``, ``git config --global
github.token X``, ``aws configure set aws_secret_access_key X``), is redacted in a hook's
command and an MCP server's arguments as prose redacts it: the setter rule ran only over
prose, so a token of no well-known format (a legacy npm token is a UUID) stayed in a
hook's command and in the arguments of a server that runs ``npm config set``."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_invocation

R = REDACTED
UUID = "4a1b2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"npm config set //registry.npmjs.org/:_authToken {UUID}", f"npm config set //registry.npmjs.org/:_authToken {R}"),
        (
            f"npm config set //registry.npmjs.org/:_authToken {UUID} && npm publish",
            f"npm config set //registry.npmjs.org/:_authToken {R} && npm publish",
        ),
        (f"yarn config set npmAuthToken '{UUID}'", f"yarn config set npmAuthToken '{R}'"),
        ("git config --global github.token 9f8e7d6c5b4a3928", f"git config --global github.token {R}"),
        ("aws configure set aws_secret_access_key Zk9vQ2xY7pR4mN8t", f"aws configure set aws_secret_access_key {R}"),
        ("set -gx OPENAI_API_KEY abc123def456", f"set -gx OPENAI_API_KEY {R}"),
    ],
)
def test_a_secret_a_command_sets_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(
    "command",
    [
        "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
        'npm config set //registry.npmjs.org/:_authToken "$NPM_TOKEN"',
        "npm config set //registry.npmjs.org/:_authToken <your-token>",
        "npm config set registry https://registry.npmjs.org/",
        "git config --global credential.helper store",
        "aws configure set region us-east-1",
        "set -euo pipefail",
    ],
)
def test_a_setting_without_a_secret_stays(command: str) -> None:
    assert redact_command(command) == command


def test_an_mcp_server_that_sets_a_secret_loses_it() -> None:
    args = ["config", "set", "//registry.npmjs.org/:_authToken", UUID]
    assert redact_invocation("npm", args) == ("npm", [*args[:3], R])
