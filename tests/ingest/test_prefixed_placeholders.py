"""A key's shape written with x's after a word of its own is a placeholder: LaunchDarkly's
``api-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`` (in ../shared/data/skills), a UUID of x's,
``key_xxxxxxxxxxxx``. `is_placeholder` knew runs of x's alone or after a known token's
prefix (``sk-xxx``), so the command rule and `redact_args` redacted such an argument
(seen running `redact_args` over the LaunchDarkly server's): the index lost the shape the
author showed, and the installer could not say it is left to fill in. A word with digits
before the x's (``hunter2_xxx``) may be a password, and stays no placeholder.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secret_values import is_placeholder
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

PLACEHOLDERS = [
    "api-xxxxxxxx-xxxx-xxxx",
    "api-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    "key_xxxxxxxxxxxx",
    "API-XXXX-XXXX",
    "sk-proj-xxxx-xxxx",
    "my-db-pass-****",
    "'api-xxxxxxxx-xxxx-xxxx'",
]
NOT_PLACEHOLDERS = [
    "hunter2_xxx",
    "api-xxxxxxxx-q9W8e7R6t5",
    "q9W8e7R6t5-xxxx",
    "abcxxx",
    "api-xxxx-xxxx-1234",
    "averyveryverylongword-xxxx",
]


@pytest.mark.parametrize("value", PLACEHOLDERS)
def test_x_runs_after_a_word_are_a_placeholder(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", NOT_PLACEHOLDERS)
def test_a_value_with_more_than_marks_after_its_word_is_none(value: str) -> None:
    assert not is_placeholder(value)


def test_the_argument_and_the_command_keep_it() -> None:
    key = "api-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
    assert redact_args(["--api-key", key]) == ["--api-key", key]
    assert redact_command(f"server --api-key {key}") == f"server --api-key {key}"
    assert redact_args(["--api-key", "api-xxxxxxxx-q9W8e7R6t5"]) == ["--api-key", REDACTED]
