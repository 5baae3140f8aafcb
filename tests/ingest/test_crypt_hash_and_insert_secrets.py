"""A password's crypt hash (``/etc/shadow``'s ``$6$``, htpasswd's ``$apr1$``, bcrypt's
``$2b$``, ``$argon2id$``) and an SQL ``INSERT``'s value under a secret-named column
(``INSERT INTO users (name, password) VALUES ('bob', 'X')``): neither was read (a probe of
config files and seed data this session). A hash is cracked by a wordlist, as
``useradd -p HASH``'s is, which the client rule already took. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"
SHA512 = "$6$Zq8mTr2v$LpxQ9wertyuiopZq8mTr2vLpxQ9wertyuiopZq8mTr2vLpxQ9wertyuiopZq8mTr2vLpxQ9wer"
BCRYPT = "$2b$12$Zq8mTr2vLpxQ9wertyuiOeZq8mTr2vLpxQ9wertyuiopasdfghjk"

BOTH = [
    (f"bob:{SHA512}:19000:0:99999:7:::", f"bob:{R}:19000:0:99999:7:::"),
    ("bob:$apr1$Zq8mTr2v$Lpx9wertyuiopZq8mTr2", f"bob:{R}"),
    (f"hashed = '{BCRYPT}'", f"hashed = '{R}'"),
    ("$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG", R),
    (f"INSERT INTO users (name, password) VALUES ('bob', '{PW}');", f"INSERT INTO users (name, password) VALUES ('bob', '{R}');"),
    (
        f"INSERT INTO users (id, email, api_key) VALUES (1, 'a@example.org', '{PW}'), (2, 'b@example.org', '{PW}2');",
        f"INSERT INTO users (id, email, api_key) VALUES (1, 'a@example.org', '{R}'), (2, 'b@example.org', '{R}');",
    ),
    (
        f"psql -c \"INSERT INTO users (name, token) VALUES ('bob', '{PW}')\"",
        f"psql -c \"INSERT INTO users (name, token) VALUES ('bob', '{R}')\"",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_prose_takes_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(("text", "expected"), BOTH)
def test_the_command_rules_take_it(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "bcrypt hashes look like $2b$12$...",
        "echo $1$2",
        "INSERT INTO users (name, password) VALUES ($1, $2)",
        "INSERT INTO users (name, password) VALUES ('bob', 'password')",
        f"INSERT INTO t (a, b) VALUES ('x', '{PW}')",
        f"INSERT INTO users (name, password) VALUES ('bob', crypt('{PW}', gen_salt('bf')))",  # a call: not counted
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text
