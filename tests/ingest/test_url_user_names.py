"""A URL's user name alone (``postgres://app@localhost/app``, ``ssh://deploy@host``) stays:
the URL rule took the whole user info whenever it had no password, since a token may
stand as the user name (``https://TOKEN@host``), so a database URL lost its plain user
name in prose, hook commands and MCP arguments. Only a short name that reads as no
literal secret stays; a token as the user name still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED


@pytest.mark.parametrize(
    "url",
    [
        "postgres://app@localhost/app",
        "postgresql://postgres@db.example.com:5432/app",
        "ssh://deploy@host.example.com/srv/repo.git",
        "mysql://root@127.0.0.1:3306/test",
        "amqp://guest@rabbit:5672/",
    ],
)
def test_a_user_name_alone_stays(url: str) -> None:
    assert redact_prose(f"Connect to {url} first.") == f"Connect to {url} first."
    assert redact_command(f"psql {url}") == f"psql {url}"
    assert redact_args(["--db", url]) == ["--db", url]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://9f8e7d6c5b4a39281706f5e4d3c2b1a0@git.example.com/r.git", f"https://{R}@git.example.com/r.git"),
        ("https://Tr0ub4dor3Xq@api.example.com", f"https://{R}@api.example.com"),
        ("postgres://app:Tr0ub4dor3Xq@localhost/app", f"postgres://{R}@localhost/app"),
    ],
)
def test_a_token_as_the_user_name_still_goes(url: str, expected: str) -> None:
    assert redact_prose(url) == expected
    assert redact_command(url) == expected
