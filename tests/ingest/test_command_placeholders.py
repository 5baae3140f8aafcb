"""The command rule keeps what only shows where a secret goes, as prose does: one
`secret_values.is_placeholder` for both. Runbooks write ``-d "password=yourpassword"``
(moodle-external-api-development), ``export OPENROUTER_API_KEY=sk-or-v1-your-key-here``
(perplexity-search), a known token's prefix with ``...`` or ``xxx`` after it; the command
rule redacted them while prose kept them. A value with such a prefix and a random tail is
a secret still.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_values import is_placeholder
from skill_retriever.ingest.secrets import REDACTED, redact_command

PLACEHOLDERS = [
    'curl -X POST https://moodle.example/login/token.php -d "password=yourpassword"',
    "export OPENROUTER_API_KEY=sk-or-v1-your-key-here",
    "ANTHROPIC_API_KEY=sk-ant-... claude",
    "export SUPABASE_KEY=eyJ...",
    "GITHUB_TOKEN=ghp_xxx gh auth status",
    "export OPENAI_API_KEY=sk-proj-xxxx...",
    "export LANGSMITH_API_KEY=lsv2_pt_...",
    "export AWS_ACCESS_KEY_ID=AKIA...",
    "export HF_TOKEN=hf_xxxxxxxx",
    "mytool --api-key YourApiKey",
]
SECRETS = [
    # The same prefixes with a random tail: a token written out.
    ("export OPENROUTER_API_KEY=sk-or-v1-a8F3kQ9zR2", "export OPENROUTER_API_KEY=" + REDACTED),
    ("ANTHROPIC_API_KEY=sk-ant-Zq81Lm", "ANTHROPIC_API_KEY=" + REDACTED),
    ("export SUPABASE_KEY=eyJhbGciOiJIUzI1NiJ9x", "export SUPABASE_KEY=" + REDACTED),
    ("GITHUB_TOKEN=ghp_4fT9qLmZ", "GITHUB_TOKEN=" + REDACTED),
    ('curl -d "password=yourPa55w0rd"', f'curl -d "password={REDACTED}"'),
    ('curl -d "password=yourmom"', f'curl -d "password={REDACTED}"'),
]


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_a_placeholder_stays_in_a_command_as_in_prose(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text


@pytest.mark.parametrize(("text", "expected"), SECRETS)
def test_a_token_prefix_with_a_random_tail_goes(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("value", ["sk-ant-...", "sk-or-v1-your-key-here", "eyJ...", "ghp_xxx", "yourpassword", "xxx..."])
def test_is_placeholder_reads_a_prefix_and_a_mark(value: str) -> None:
    assert is_placeholder(value)
    assert is_placeholder(f'"{value}"')


@pytest.mark.parametrize("value", ["sk-ant-Zq81Lm", "eyJhbGciOiJIUzI1NiJ9", "ghp_4fT9qLmZ", "yourPa55w0rd", "hunter2_xxx", "sk-ant-Zq81...Lm"])
def test_is_placeholder_keeps_a_random_tail_a_secret(value: str) -> None:
    assert not is_placeholder(value)
