"""A header written out as ``name: [scheme] credential`` in a command (a heredoc that
writes a headers file, a script's header lines, ``printf 'x-api-key: ...'``) loses its
credential as the ``-H`` rule takes it: the command rule read only ``Authorization`` so,
and ``x-api-key: Token X`` reached the index whole. Only a literal secret goes there
(`braced_values.literal_or_braced`): a message such as ``echo "Missing token: set
GITHUB_TOKEN"`` holds none.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
C = "9f8e7d6c5b4a39281706"

GOES = [
    (f"x-api-key: Token {C}", f"x-api-key: Token {R}"),
    ("Proxy-Authorization: Basic dXNlcjpwYXNz", f"Proxy-Authorization: Basic {R}"),
    (f"cat > headers.txt <<EOF\nX-Api-Key: {C}\nAccept: application/json\nEOF", f"cat > headers.txt <<EOF\nX-Api-Key: {R}\nAccept: application/json\nEOF"),
    (f"printf 'X-Auth-Token: Bearer {C}\\n' > h.txt", f"printf 'X-Auth-Token: Bearer {R}\\n' > h.txt"),
    (f"node -e 'fetch(u, {{headers: {{auth: `Bearer {C}`}}}})'", f"node -e 'fetch(u, {{headers: {{auth: `Bearer {R}`}}}})'"),
    (f"  x-auth: Token {C}", f"  x-auth: Token {R}"),
]
KEPT = [
    "x-api-key: Token $API_KEY",
    "x-api-key: ${API_KEY}",
    'echo "Missing token: set GITHUB_TOKEN first"',
    "sort_key: name",
    "tokenizer: bert-base-uncased",
    "x-api-key: <your-key>",
    "echo 'auth: done'",
    "node -e 'app.use(bearerAuth({ token: process.env.API_TOKEN! }))'",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_written_out_header_loses_its_credential(text: str, expected: str) -> None:
    assert redact_command(text) == expected
    assert redact_prose(text) == expected  # as prose already reads it


@pytest.mark.parametrize("text", KEPT)
def test_a_header_line_without_a_literal_secret_stays(text: str) -> None:
    assert redact_command(text) == text
