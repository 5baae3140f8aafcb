"""A switch under a secret-looking name (``always-auth=true`` in ``.npmrc``,
``ALWAYS_AUTH=false``, ``npm config set always-auth true``, ``--auth=false``) stays in
a hook's command and an MCP server's arguments: the command rule redacted any value of
such a name, so the index showed ``always-auth=[redacted]``, as if a secret had been there. A value that is only a
boolean or ``0``/``1`` is no secret; anything longer still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED


@pytest.mark.parametrize(
    "command",
    [
        "echo always-auth=true >> .npmrc",
        "npm config set always-auth true",
        "ALWAYS_AUTH=false ./deploy.sh",
        "AUTH_ENABLED=1 REQUIRE_AUTH=yes ./run",
        'curl -d \'{"use_token": "false"}\' https://x.example',
        "server --auth=false --token-refresh off",
        "helm install x --set auth.enabled=TRUE",
    ],
)
def test_a_switch_under_a_secret_name_stays(command: str) -> None:
    assert redact_command(command) == command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("API_TOKEN=truex9 ./run", f"API_TOKEN={R} ./run"),
        ("echo always-auth=true >> .npmrc && echo _password=ZGVwbG95 >> .npmrc", f"echo always-auth=true >> .npmrc && echo _password={R} >> .npmrc"),
        ("server --auth=yes123", f"server --auth={R}"),
    ],
)
def test_a_value_more_than_a_switch_still_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected


def test_a_switch_argument_stays() -> None:
    args = ["--auth=false", "--use-token", "true", "ALWAYS_AUTH=1"]
    assert redact_args(args) == args
    assert redact_args(["--auth=yes123"]) == [f"--auth={R}"]
