"""A connection string's ``Pwd=X`` (also ``PWD``, ``pwd``) in a hook's command or an MCP
server's argument: ``sqlcmd ... "Server=db;Uid=sa;Pwd=X;"``, ODBC's
``DRIVER={...};SERVER=db;UID=sa;PWD=X``. Prose redacted it; a command and an argument
kept it, ``pwd`` alone being no secret's name. Shell's own ``PWD=/srv/app`` is the working
directory and stays, and so does a ``Pwd`` after anything but another pair's ``;``
(``cd /tmp;PWD=/srv make``). A ``Pwd`` that comes first (``"Pwd=X;Server=db;Uid=sa"``)
was kept by a command and an argument until the secrets15 brief (`FIRST_LEAKS`); it goes
before a pair only a connection string holds, not before shell's ``PORT=3000 npm start``.
An MCP argument whose first pair is the password (``Password=X;Server=db``) lost all after
its ``=`` until the secrets16 brief (`ARG_FIRST_PAIRS`); only the value goes now.
Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import (
    REDACTED,
    redact_args,
    redact_command,
    redact_command_line,
)

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
    "PWD=build; make",
    "PWD=build; PORT=3000 npm start",
    "PWD=build; CC=gcc make",
    'sqlcmd "Pwd=${DB_PASSWORD};Server=db;Uid=sa"',
    'sqlcmd "Pwd=<password>;Server=db"',
]
#: A connection string whose password comes first: a command and an argument kept it.
FIRST_LEAKS = [
    ('sqlcmd "Pwd=hunter2x;Server=db;Uid=sa"', f'sqlcmd "Pwd={R};Server=db;Uid=sa"'),
    (f"Pwd={V};Server=db;Uid=sa", f"Pwd={R};Server=db;Uid=sa"),
    (f'dotnet run -- --conn "PWD={V}; SERVER=db; UID=sa"', f'dotnet run -- --conn "PWD={R}; SERVER=db; UID=sa"'),
    (f"isql -k 'pwd={V};DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db'", f"isql -k 'pwd={R};DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=db'"),
    (f"cat > app.ini <<EOF\nPwd={V};\nData Source=db;\nEOF", f"cat > app.ini <<EOF\nPwd={R};\nData Source=db;\nEOF"),
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


@pytest.mark.parametrize(("command", "kept"), FIRST_LEAKS)
def test_command_redacts_a_pwd_that_comes_first(command: str, kept: str) -> None:
    assert redact_command(command) == kept


def test_mcp_argument_with_its_pwd_first_is_redacted() -> None:
    assert redact_args(["--conn", "Pwd=hunter2x;Server=db;Uid=sa"]) == ["--conn", f"Pwd={R};Server=db;Uid=sa"]
    assert redact_args([f"PWD={V};SERVER=db"]) == [f"PWD={R};SERVER=db"]


@pytest.mark.parametrize(
    "text",
    [f"Pwd={V};Server=db;Uid=sa", f"Password={V};Server=db;Uid=sa", f'"ConnectionStrings": {{"Db": "Pwd={V};Server=db"}}'],
)
def test_prose_and_command_agree_on_a_password_first(text: str) -> None:
    """Prose redacted a literal password first already (``Pwd``, like ``Password``, names a
    secret there), and a command's ``Password=X;`` too: a ``Pwd`` first now goes alike,
    and an MCP argument keeps the same (`test_mcp_argument_keeps_the_pairs_after_its_password`)."""
    assert redact_prose(text) == redact_command(text) == text.replace(V, R)
    if not text.startswith('"'):
        assert redact_args([text]) == [text.replace(V, R)]


#: An argument whose first pair is a secret-named one (``Password``, Azure's
#: ``AccountKey``): only its value goes, the pairs after it stay, as in a command. Before
#: the secrets16 brief all after the ``=`` went (``Password=[redacted]``): nothing of the
#: password was kept, but the server, database and user were lost to a reader.
ARG_FIRST_PAIRS = [
    (f"Password={V};Server=db", f"Password={R};Server=db"),
    (f"Password={V}; Server=db; Database=app; User Id=sa", f"Password={R}; Server=db; Database=app; User Id=sa"),
    (f"AccountKey={V};EndpointSuffix=core.windows.net", f"AccountKey={R};EndpointSuffix=core.windows.net"),
    (f"Password={V};Server=db;Uid=sa;Pwd={V}", f"Password={R};Server=db;Uid=sa;Pwd={R}"),  # read on after it
    (f'Password="{V};x=y";Server=db', f"Password={R};Server=db"),  # ADO.NET's quotes hold a ``;``
    ("Password=${DB_PASSWORD};Server=db", "Password=${DB_PASSWORD};Server=db"),
]
#: A flag's value, or a value with a ``;`` that no pair follows, is one value: it goes whole.
ARG_WHOLE_VALUES = [
    (f"--password={V};Server=db", f"--password={R}"),
    (f"API_KEY={V};x", f"API_KEY={R}"),
]


@pytest.mark.parametrize(("arg", "kept"), ARG_FIRST_PAIRS)
def test_mcp_argument_keeps_the_pairs_after_its_password(arg: str, kept: str) -> None:
    assert redact_args([arg]) == [kept]
    assert redact_args(["--connection-string", arg]) == ["--connection-string", kept]
    assert redact_args([kept]) == [kept]


@pytest.mark.parametrize(("arg", "kept"), ARG_WHOLE_VALUES)
def test_mcp_argument_flag_value_goes_whole(arg: str, kept: str) -> None:
    assert redact_args([arg]) == [kept]


#: A connection string (or any pairs) in braces, its secret-named pair last: the command
#: rule read the value as a shell word up to the blank, the closing brace with it
#: (``Password=X}``), and wrote ``{Server=x;Password=[redacted]``, the brace lost; prose
#: kept it (seen: the secrets59 brief). The value ends now at the brace that closes braces
#: opened before its name (`shell_assignments`), quoted or not, in an MCP argument too.
BRACED_PAIRS = [
    (f"tool --conn {{Server=x;Password={V}}}", f"tool --conn {{Server=x;Password={R}}}"),
    (f"tool --conn {{Server=x;Password={V}}} --verbose", f"tool --conn {{Server=x;Password={R}}} --verbose"),
    (f"tool --conn '{{Server=x;Password={V}}}'", f"tool --conn '{{Server=x;Password={R}}}'"),
    (f'tool --conn "{{Server=x;Password={V}}}"', f'tool --conn "{{Server=x;Password={R}}}"'),
    (f"tool --conn={{Server=x;Password={V}}}", f"tool --conn={{Server=x;Password={R}}}"),
    (f"tool --conn {{Server=x;Uid=sa;Pwd={V}}}", f"tool --conn {{Server=x;Uid=sa;Pwd={R}}}"),
    (f"tool --opts {{host=db,api_key={V}}},{{y=1}}", f"tool --opts {{host=db,api_key={R}}},{{y=1}}"),
    (f"tool --conn {{Server=x;Password={{{V}}}}}", f"tool --conn {{Server=x;Password={R}}}"),
]


@pytest.mark.parametrize(("command", "kept"), BRACED_PAIRS)
def test_command_keeps_the_brace_that_closes_its_pairs(command: str, kept: str) -> None:
    assert redact_command(command) == kept
    assert redact_command(kept) == kept


@pytest.mark.parametrize(("command", "kept"), BRACED_PAIRS)
def test_mcp_argument_keeps_the_brace_that_closes_its_pairs(command: str, kept: str) -> None:
    # the words of the command as an MCP server's arguments, as `redact_command_line` splits them
    assert redact_command_line(command) == kept


#: Pairs in braces whose first pair is the secret's: the command rule read a name only at
#: a word's start or after ``;``, ``,``, ``=`` or a quote, not after ``{``, so the password
#: stayed (``{Password=X}``, ``{Pwd=X;Server=x}``); an MCP argument that starts so read
#: ``{Password`` as a flag's name and lost the brace (``{Password=[redacted]``). Prose
#: redacted each already, and keeps the brace (found beside the secrets59 brief).
BRACED_FIRST_PAIRS = [
    (f"tool --conn {{Password={V}}}", f"tool --conn {{Password={R}}}"),
    (f"tool --conn {{Password={V};Server=x}}", f"tool --conn {{Password={R};Server=x}}"),
    (f"tool --conn {{Pwd={V};Server=x}}", f"tool --conn {{Pwd={R};Server=x}}"),
    (f"tool --conn '{{Password={V}}}'", f"tool --conn '{{Password={R}}}'"),
    (f"tool --opts {{api_key={V}}}", f"tool --opts {{api_key={R}}}"),
]


@pytest.mark.parametrize(("command", "kept"), BRACED_FIRST_PAIRS)
def test_a_pair_that_opens_braces_is_read_as_prose_reads_it(command: str, kept: str) -> None:
    assert redact_command(command) == redact_prose(command) == kept
    assert redact_command_line(command) == kept
    assert redact_args([command.rpartition(" ")[2]]) == [kept.rpartition(" ")[2]]
