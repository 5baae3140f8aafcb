"""``htpasswd -b`` takes the password on its command line (``htpasswd -b file user X``,
``-bc``, ``-nb user X`` without a file): it is redacted in a hook's command, in prose
(when it reads as a literal secret) and in an MCP server's arguments, as the other
clients' password flags are. No rule read it (``-b`` is a flag of no value and the
password the third word after it), so it stayed in every one."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_invocation

R = REDACTED
PW = "Tr0ub4dor3Xq"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"htpasswd -b .htpasswd admin {PW}", f"htpasswd -b .htpasswd admin {R}"),
        (f"htpasswd -bc /etc/nginx/.htpasswd admin '{PW}'", f"htpasswd -bc /etc/nginx/.htpasswd admin '{R}'"),
        (f"htpasswd -B -C 12 -b auth.txt admin {PW} && nginx -s reload", f"htpasswd -B -C 12 -b auth.txt admin {R} && nginx -s reload"),
        (f"htpasswd -nb admin {PW} > users", f"htpasswd -nb admin {R} > users"),
        (f"sudo htpasswd -c -b .htpasswd admin {PW}", f"sudo htpasswd -c -b .htpasswd admin {R}"),
    ],
)
def test_an_htpasswd_password_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected
    assert redact_prose(f"Run `{command}` once.") == f"Run `{expected}` once."


@pytest.mark.parametrize(
    "command",
    [
        "htpasswd -c .htpasswd admin",  # prompts for the password
        "htpasswd -b .htpasswd admin $ADMIN_PASSWORD",
        'htpasswd -b .htpasswd admin "${ADMIN_PASSWORD}"',
        "htpasswd -b .htpasswd admin <password>",
        "htpasswd -D .htpasswd admin",
        "htpasswd -v .htpasswd admin",
    ],
)
def test_htpasswd_without_a_password_stays(command: str) -> None:
    assert redact_command(command) == command
    assert redact_prose(command) == command


def test_an_htpasswd_argument_list_loses_its_password() -> None:
    assert redact_invocation("htpasswd", ["-b", ".htpasswd", "admin", PW]) == ("htpasswd", ["-b", ".htpasswd", "admin", R])
