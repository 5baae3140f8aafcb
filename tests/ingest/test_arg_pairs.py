"""A secret among the pairs of one argument (a connection string, ``Server=x;Password=X;``,
``AccountName=a;AccountKey=X``; a libpq conninfo, ``host=db password=X``) goes in an MCP
server's arguments, as in a hook's command: `redact_args` read only the argument's first
name (``Server``, ``host``), so the password after it stayed in the index and the
``.mcp.json`` written from it."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_args

R = REDACTED
PW = "Tr0ub4dor3Xq"
KEY = "Zk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0sA2eV9uKq1Xr8TzAbCdEfGhIjKlMnOpQrStUvWxYz01234567=="


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--connection-string", f"Server=tcp:x.database.windows.net,1433;Database=db;User ID=app;Password={PW};Encrypt=true;"],
            ["--connection-string", f"Server=tcp:x.database.windows.net,1433;Database=db;User ID=app;Password={R};Encrypt=true;"],
        ),
        (
            [f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={KEY};EndpointSuffix=core.windows.net"],
            [f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={R};EndpointSuffix=core.windows.net"],
        ),
        ([f"host=db user=app password={PW} dbname=app"], [f"host=db user=app password={R} dbname=app"]),
    ],
)
def test_a_secret_pair_inside_an_argument_goes(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected
    assert redact_args(expected) == expected


@pytest.mark.parametrize(
    "args",
    [
        ["--connection-string", "Server=x;Database=db;Password=${DB_PASSWORD};"],
        ["host=db user=app dbname=app sslmode=require"],
        ["Server=x;Integrated Security=true;TrustServerCertificate=True"],
    ],
)
def test_an_argument_without_a_secret_pair_stays(args: list[str]) -> None:
    assert redact_args(args) == args
