"""Secrets Markdown writes in its own ways, none of which a prose rule read: a value in a
code span (``Password: `X```, ``**Password:** `X```), a kind of key named in two words
(``API key: X``, ``Secret key = X``), a list item's dash (``- Password - X``), R's
``password <- "X"``, a password with no verb (``default password X``, ``Password X`` at a
line's start), a table's ``Login`` column of ``user / X`` cells (the user kept), ``Basic
auth: bob / X``, a login's user and password each in a code span, and a URL's user info
before a host with no scheme (``admin:X@db.example.com``).
Each kept its secret before: a probe of runbook shapes this session. Every value here is
invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"Password: `{PW}`", f"Password: `{R}`"),
        (f"- **Password**: `{PW}`", f"- **Password**: `{R}`"),
        (f"**Password:** `{PW}`", f"**Password:** `{R}`"),
        (f"`DB_PASSWORD`: `{PW}`", f"`DB_PASSWORD`: `{R}`"),
        (f"TOKEN=`{PW}`", f"TOKEN=`{R}`"),
        (f"API key: {PW}", f"API key: {R}"),
        (f"API Key: `{PW}`", f"API Key: `{R}`"),
        (f"**Secret key** = {PW}", f"**Secret key** = {R}"),
        (f"* Password - {PW}", f"* Password - {R}"),
        (f"- **Token** \u2014 {PW}", f"- **Token** \u2014 {R}"),
        (f'password <- "{PW}"', f'password <- "{R}"'),
        (f"The default password `{PW}` must be changed.", f"The default password `{R}` must be changed."),
        (f"Password {PW}", f"Password {R}"),
        (f"PASSWORD\t{PW}", f"PASSWORD\t{R}"),
        (f"Basic auth: bob / {PW}", f"Basic auth: bob / {R}"),
        (f"Default login: `admin` / `{PW}`", f"Default login: `admin` / `{R}`"),
        (f"psql admin:{PW}@db.example.com:5432/shop", f"psql admin:{R}@db.example.com:5432/shop"),
        (f"ssh bob:{PW}@10.0.0.5", f"ssh bob:{R}@10.0.0.5"),
        (
            (
                f"| Service | URL | Login |\n|---|---|---|\n| Grafana | http://localhost:3000 | admin / {PW} |\n"
                f"| Kibana | http://localhost:5601 | `elastic:{PW}` |"
            ),
            (
                f"| Service | URL | Login |\n|---|---|---|\n| Grafana | http://localhost:3000 | admin / {R} |\n"
                f"| Kibana | http://localhost:5601 | `elastic:{R}` |"
            ),
        ),
    ],
)
def test_prose_takes_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Password: `string`",
        "password: `${DB_PASSWORD}`",
        "TOKEN=`cat ~/.token`",
        "TOKEN=`openssl rand -hex 32`",
        "Password - required field",
        "API key - see the dashboard",
        "API key: your-api-key",
        "API key: required",
        "Primary key: user_id2024abc",
        "Sort key: createdAt2",
        "SSH key: ~/.ssh/id_ed25519",
        "#### [CRITICAL] Hardcoded JWT secret \u2014 src/auth.js:42",
        "note: password - the user's own",
        "x <- y",
        "password <- getPass()",
        "default password policy",
        "New password must have 8 characters",
        "Basic Auth: see below",
        "login: `admin` / `guest`",
        "Email:bob@example.com",
        "nginx:1.25-alpine@sha256:abc123",
        "git clone git@github.com:org/repo.git",
        "user:pass@localhost",
        "| Login | Notes |\n|---|---|\n| SSO | via Okta |\n| admin/root | both work |",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
