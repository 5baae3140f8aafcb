"""A connection string's ``Pwd=X`` (also ``PWD``, ``pwd``) in a hook's command or an MCP
server's argument: ``sqlcmd ... "Server=db;Uid=sa;Pwd=X;"``, ODBC's
``DRIVER={...};SERVER=db;UID=sa;PWD=X``. Prose redacted it; a command and an argument
kept it, ``pwd`` alone being no secret's name. Shell's own ``PWD=/srv/app`` is the working
directory and stays, and so does a ``Pwd`` after anything but another pair's ``;``
(``cd /tmp;PWD=/srv make``). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
#: An invented secret, shaped as a literal one (letters and digits, 24 characters).
V = "Hx5Nq2Wd8Kf3Zt7Mb4Pr9Cv6"

#: Commands that kept their connection string's password before, each as kept now.
COMMAND_LEAKS = [
    (f'sqlcmd -Q "select 1" "Server=db;Database=app;Uid=sa;Pwd={V};"', f'sqlcmd -Q "select 1" "Server=db;Database=app;Uid=sa;Pwd={R};"'),
    (f'dotnet run -- --conn "Server=db;Uid=sa;PWD={V}"', f'dotnet run -- --conn "Server=db;Uid=sa;PWD={R}"'),
    (
        f'isql -k "DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db;UID=sa;PWD={V}"',
        f'isql -k "DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db;UID=sa;PWD={R}"',
    ),
    (f"export CONN='Server=db; User Id=sa; pwd={V}; Encrypt=true'", f"export CONN='Server=db; User Id=sa; pwd={R}; Encrypt=true'"),
    (
        f'cat > web.config <<EOF\n<add name="Db" connectionString="Server=db;\n     Uid=sa;\n     Pwd={V};" />\nEOF',
        f'cat > web.config <<EOF\n<add name="Db" connectionString="Server=db;\n     Uid=sa;\n     Pwd={R};" />\nEOF',
    ),
]
#: Commands whose ``PWD`` is no password, or whose password names where it is: kept.
COMMAND_KEPT = [
    "cd /tmp && PWD=/srv/app make",
    "PWD=/home/user ls",
    "cd /tmp;PWD=/srv/app make",
    "A=1; PWD=./build make",
    "cd build;pwd",
    'sqlcmd "Server=db;Uid=sa;Pwd=${DB_PASSWORD};"',
    'sqlcmd "Server=db;Uid=sa;Pwd=<password>;"',
    'sqlcmd "Server=db;Uid=sa;Pwd=$SA_PASSWORD"',
]


@pytest.mark.parametrize(("command", "kept"), COMMAND_LEAKS)
def test_command_redacts_a_connection_strings_pwd(command: str, kept: str) -> None:
    assert redact_command(command) == kept


@pytest.mark.parametrize("command", COMMAND_KEPT)
def test_command_keeps_the_working_directory_and_placeholders(command: str) -> None:
    assert redact_command(command) == command


@pytest.mark.parametrize(
    "arg",
    [f"Server=db;Database=app;Uid=sa;Pwd={V};", f"DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db;UID=sa;PWD={V}"],
)
def test_mcp_argument_with_a_connection_strings_pwd_is_redacted(arg: str) -> None:
    assert redact_args(["--connection-string", arg])[1] == arg.replace(V, R)
    assert redact_args([arg]) == [arg.replace(V, R)]


def test_prose_and_command_agree_on_a_connection_string() -> None:
    """Prose redacted ``Pwd=`` already: a command now keeps the same text."""
    text = f"Server=db;Database=app;Uid=sa;Pwd={V};"
    assert redact_command(text) == redact_prose(text) == f"Server=db;Database=app;Uid=sa;Pwd={R};"
