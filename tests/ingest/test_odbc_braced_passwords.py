"""A connection string's password in ODBC's braces (``PWD={a;b}``, ``Password={p@ss;word}``):
ODBC lets a braced value hold a ``;`` (and a ``}`` written twice), so the value runs to its
closing brace. Before the secrets16 brief a command, an MCP argument and prose kept it, whole
or after its ``;``: the value was read up to the ``;`` (``{p@ss``) and taken for a template's
slot. The whole braced value goes now wherever a ``Pwd=``/``Password=`` password goes; a
driver's name in braces (``DRIVER={ODBC Driver 18 for SQL Server}``), a template
(``Pwd={password}``, ``{{ db_password }}``, ``{0}``), a placeholder and shell's ``PWD``
stay. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
DRIVER = "DRIVER={ODBC Driver 18 for SQL Server}"

#: Connection strings whose braced password was kept, each as kept now, alike in a
#: command's quotes, an MCP argument and prose.
BRACED_LEAKS = [
    ("Server=db;Uid=sa;PWD={a;b}", f"Server=db;Uid=sa;PWD={R}"),
    (f"{DRIVER};SERVER=db;UID=sa;PWD={{Hx5N;q2Wd8Kf3}};", f"{DRIVER};SERVER=db;UID=sa;PWD={R};"),
    ("Server=db;Password={p@ss;word};Uid=sa", f"Server=db;Password={R};Uid=sa"),
    ("Password={p@ss;word};Server=db", f"Password={R};Server=db"),
    ("PWD={a;b};Server=db;Uid=sa", f"PWD={R};Server=db;Uid=sa"),
    ("Server=db;Uid=sa;Pwd={Hx5Nq2Wd8Kf3Zt7Mb4Pr9Cv6}", f"Server=db;Uid=sa;Pwd={R}"),
    ("Server=db;Uid=sa;Pwd={a}}b;c};Encrypt=yes", f"Server=db;Uid=sa;Pwd={R};Encrypt=yes"),  # ``}}`` is a ``}``
    ("Server=db;Password = {correct horse; battery};", f"Server=db;Password = {R};"),
]
#: Braces that hold no password, or a password that only shows where one goes: kept.
BRACED_KEPT = [
    f"{DRIVER};SERVER=db;UID=sa;Trusted_Connection=yes",
    "Server=db;Uid=sa;Pwd={password}",
    "Server=db;Uid=sa;PWD={self.db_password}",
    "Server=db;Uid=sa;Password={{ db_password }}",
    "Server=db;Uid=sa;Pwd={0}",
    "Server=db;Uid=sa;Pwd={}",
    "Server=db;Uid=sa;Pwd={<password>}",
    "Server=db;Uid=sa;Pwd={your-password}",
    "Server=db;Uid=sa;Password={your password}",
]


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS)
def test_command_redacts_a_braced_password(text: str, kept: str) -> None:
    assert redact_command(f'sqlcmd -S db "{text}"') == f'sqlcmd -S db "{kept}"'
    assert redact_command(f"isql -k '{text}'") == f"isql -k '{kept}'"


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS)
def test_mcp_argument_with_a_braced_password_is_redacted(text: str, kept: str) -> None:
    assert redact_args(["--connection-string", text]) == ["--connection-string", kept]
    assert redact_args([text]) == [kept]


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS)
def test_prose_redacts_a_braced_password(text: str, kept: str) -> None:
    assert redact_prose(f"Connect with `{text}`.") == f"Connect with `{kept}`."
    assert redact_prose(f'"ConnectionStrings": {{"Db": "{text}"}}') == f'"ConnectionStrings": {{"Db": "{kept}"}}'


@pytest.mark.parametrize("text", BRACED_KEPT)
def test_braces_that_hold_no_password_stay(text: str) -> None:
    assert redact_command(f'sqlcmd "{text}"') == f'sqlcmd "{text}"'
    assert redact_args(["--conn", text]) == ["--conn", text]
    assert redact_prose(f"Connect with `{text}`.") == f"Connect with `{text}`."


def test_shells_pwd_in_braces_is_no_password() -> None:
    """Shell's ``PWD`` names the working directory: braces after it outside a connection
    string (``PWD={a,b}``) are no password's, as ``PWD=/srv/app`` is none."""
    for command in ("PWD={a,b} make", "cd /tmp; PWD={build} make"):
        assert redact_command(command) == command


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS)
def test_a_redacted_braced_password_is_stable(text: str, kept: str) -> None:
    """Applying the rules twice changes nothing more."""
    assert redact_command(kept) == kept
    assert redact_args([kept]) == [kept]
    assert redact_prose(kept) == kept
