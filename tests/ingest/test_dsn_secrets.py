"""A Go MySQL driver's data source name (``bob:X@tcp(db:3306)/shop``) is a URL's user info
without its scheme: the URL rule reads user info after ``://`` only, so its password
stayed, in prose, commands and MCP arguments (seen: a probe of prose shapes this
session). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f'db, _ := sql.Open("mysql", "bob:{PW}@tcp(db:3306)/shop")', f'db, _ := sql.Open("mysql", "{R}@tcp(db:3306)/shop")'),
        (f"DSN=bob:{PW}@tcp(127.0.0.1:3306)/shop?parseTime=true ./app", f"DSN={R}@tcp(127.0.0.1:3306)/shop?parseTime=true ./app"),
        (f"root:{PW}@unix(/run/mysqld/mysqld.sock)/shop", f"{R}@unix(/run/mysqld/mysqld.sock)/shop"),
    ],
)
def test_a_dsn_password_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected


def test_an_mcp_argument() -> None:
    assert redact_args(["--dsn", f"bob:{PW}@tcp(db:3306)/x"]) == ["--dsn", f"{R}@tcp(db:3306)/x"]


@pytest.mark.parametrize(
    "text",
    [
        "user:password@tcp(localhost:3306)/dbname",  # the shape documentation writes
        "root:$PW@tcp(db)/x",
        "bob:@tcp(db)/x",
        "write to a@tcp(",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text
