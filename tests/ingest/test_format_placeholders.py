"""A token of a known format's prefix with only placeholder marks after it
(``ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx``, ``sk-ant-api03-XXXX...``) stays wherever it
stands, as it stays after a name (`secret_values.is_placeholder`): the format rule took
any body of the right length and characters, so a runbook's template showed
``[redacted]`` where no token was. A random body still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command, redact_text


@pytest.mark.parametrize(
    "token",
    [
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXX",
        "xoxb-xxxxxxxxxx-xxxxxxxxxx",
        "glpat-xxxxxxxxxxxxxxxxxxxx",
    ],
)
def test_a_known_prefix_before_placeholder_marks_stays(token: str) -> None:
    text = f"Paste the token ({token}) into the form."
    assert redact_text(text) == text
    assert redact_prose(text) == text
    assert redact_command(f"gh auth login --with-token <<< {token}") == f"gh auth login --with-token <<< {token}"
    assert redact_args([token]) == [token]


def test_a_known_token_with_a_random_body_still_goes() -> None:
    token = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    assert redact_text(f"token {token} here") == f"token {REDACTED} here"
