"""A ``--bearer`` flag's token and a ``Cookie`` header's values in an ``http`` hook's or an
MCP server's headers: neither was read (``--bearer X`` named no secret to the flag rule,
and `redact_headers` read a header only by a secret-looking name, which ``Cookie`` is not).
Seen: a probe of MCP arguments this session. Every value here is invented.
"""

from __future__ import annotations

from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command, redact_headers

R = REDACTED
TOKEN = "Zq8mTr2vLpxQ9"


def test_a_bearer_flags_token_goes() -> None:
    assert redact_args(["--bearer", TOKEN]) == ["--bearer", R]
    assert redact_command(f"mcp-proxy --bearer={TOKEN} https://mcp.example.com") == f"mcp-proxy --bearer={R} https://mcp.example.com"
    assert redact_args(["--bearer-format", "JWT"]) == ["--bearer-format", "JWT"]  # names none


def test_a_cookie_headers_literal_values_go_and_its_attributes_stay() -> None:
    headers = {"Cookie": f"session={TOKEN}; theme=dark", "Set-Cookie": f"sid={TOKEN}xx; Path=/; HttpOnly", "Accept": "text/html"}
    assert redact_headers(headers) == {
        "Cookie": f"session={R}; theme=dark", "Set-Cookie": f"sid={R}; Path=/; HttpOnly", "Accept": "text/html",
    }
    assert redact_headers({"Cookie": "session=$SESSION"}) == {"Cookie": "session=$SESSION"}
