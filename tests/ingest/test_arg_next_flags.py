"""The word after a secret-looking flag in an MCP server's arguments is its value only
when it is no flag: ``["--api-key", "--verbose"]`` passes no key, and ``--verbose`` is
the next option. `redact_args` redacted it (seen running it over that list), so the
installed server lost an option and the user was told to set a value that was never
there; so it did after a flag that takes no value (``--password-stdin``, ``--no-auth``),
as the command rule already reads both (`secret_flags._secret_flag`).
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import (
    REDACTED,
    redact_args,
    redact_command_line,
    redact_invocation,
)

R = REDACTED
V = "q9W8e7R6t5Y4u3I2o1P0"

CASES = [
    (["--api-key", "--verbose"], ["--api-key", "--verbose"]),
    (["--token", "-v"], ["--token", "-v"]),
    (["--api-key", "--verbose", "--token", V], ["--api-key", "--verbose", "--token", R]),
    (["--password-stdin", "registry.example.com"], ["--password-stdin", "registry.example.com"]),
    (["--no-auth", "server.js"], ["--no-auth", "server.js"]),
    (["--api-key", V, "--verbose"], ["--api-key", R, "--verbose"]),
    (["--token=--verbose"], ["--token=[redacted]"]),  # after ``=`` it is the value, as written
]


@pytest.mark.parametrize(("args", "expected"), CASES)
def test_a_flag_after_a_secret_flag_is_no_value(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


def test_the_command_and_its_arguments_read_alike() -> None:
    assert redact_command_line("server --api-key --verbose") == "server --api-key --verbose"
    assert redact_invocation("server --token", ["--port", "3000"]) == ("server --token", ["--port", "3000"])
