"""A ``$`` inside single quotes is literal text: the shell expands nothing there, so
``'https://x/?password=$ecretP4ss'`` holds the password ``$ecretP4ss``, not a variable.

Such a value is tested as any literal one: it goes unless it is a placeholder. A
``${VAR}`` or upper-case ``$VAR`` inside single quotes is kept: written that way it is a
template another tool fills in (``envsubst``, a CI's variables, a script run later), not a
password. In double quotes and bare, ``$x`` is still a reference the shell expands.
A script inside single quotes (``bash -c '... "$tok"'``) is read as literal text too: a
pass over the text cannot tell a script from a quoted argument (``curl -d '{"token":
"$tok"}'`` sends ``$tok``), and in doubt a value goes; its upper-case variables
(``$TOKEN``) are placeholders and stay.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_formats import REDACTED as R
from skill_retriever.ingest.secret_values import is_reference, single_quoted
from skill_retriever.ingest.secrets import redact_command

COMMAND_GOES = [
    ("curl 'https://x/?password=$ecretP4ss'", f"curl 'https://x/?password={R}'"),
    ("curl 'https://x/?a=1&token=$abc123XYZ&b=2'", f"curl 'https://x/?a=1&token={R}&b=2'"),
    ("curl 'https://u:$ecretP4ss@h.example/'", f"curl 'https://{R}@h.example/'"),
    ("cmd --password '$x'", f"cmd --password '{R}'"),
    ("cmd --password='$ecretP4ss'", f"cmd --password='{R}'"),
    ("export TOKEN='$abc123XYZ'", f"export TOKEN='{R}'"),
    ("curl -d 'token=$abc123XYZ' https://x.example", f"curl -d 'token={R}' https://x.example"),
    ("curl -u 'admin:$ecretP4ss' https://x.example", f"curl -u 'admin:{R}' https://x.example"),
    ("curl -H 'Authorization: Bearer $abcDEF123' x", f"curl -H 'Authorization: Bearer {R}' x"),
    ("curl -H 'X-Api-Key: $abcDEF123' x", f"curl -H 'X-Api-Key: {R}' x"),
    ("mysql -p'$ecretP4ss' db", f"mysql -p'{R}' db"),
    ("echo '{\"api_key\": \"$abcDEF123\"}'", f"echo '{{\"api_key\": \"{R}\"}}'"),
    ("bash -c 'curl -H \"Authorization: Bearer $tok\" x'", f"bash -c 'curl -H \"Authorization: Bearer {R}\" x'"),
]
COMMAND_STAYS = [
    'curl "https://x/?password=$pass"',
    "curl https://x/?password=$pass",
    "curl 'https://x/?password=${PASS}'",
    "curl 'https://x/?password=$PASS'",
    'cmd --password "$x"',
    "cmd --password $x",
    "export TOKEN='${TOKEN}'",
    "export TOKEN='$TOKEN'",
    'export TOKEN="$abc123XYZ"',
    "bash -c 'curl -H \"Authorization: Bearer $TOKEN\" https://x.example'",
    "echo 'it''s' && curl -u admin:$pass x",
]


@pytest.mark.parametrize(("command", "expected"), COMMAND_GOES)
def test_single_quoted_dollar_values_are_redacted_in_commands(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize("command", COMMAND_STAYS)
def test_expanded_references_and_quoted_templates_stay(command: str) -> None:
    assert redact_command(command) == command


PROSE_GOES = [
    ("export TOKEN='$abc123XYZ'", f"export TOKEN='{R}'"),
    ("DB_PASSWORD='$ecretP4ss'", f"DB_PASSWORD='{R}'"),
    ("curl 'https://x/?password=$ecretP4ss'", f"curl 'https://x/?password={R}'"),
    ("curl -d 'token=$abc123XYZ' https://x.example", f"curl -d 'token={R}' https://x.example"),
    ("curl -H 'Authorization: Bearer $abcDEF123' x", f"curl -H 'Authorization: Bearer {R}' x"),
]
PROSE_STAYS = ["export TOKEN='${TOKEN}'", 'export TOKEN="$abc123XYZ"', "export TOKEN=$abc123XYZ"]


@pytest.mark.parametrize(("text", "expected"), PROSE_GOES)
def test_single_quoted_dollar_values_are_redacted_in_prose(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize("text", PROSE_STAYS)
def test_prose_keeps_references_and_quoted_templates(text: str) -> None:
    assert redact_prose(text) == text


def test_a_value_in_its_own_single_quotes_is_no_reference() -> None:
    assert is_reference("$x") and is_reference('"$x"') and is_reference("$(cat key)")
    assert not is_reference("'$x'") and not is_reference("'$(cat key)'")


def test_single_quoted_reads_the_quoting_of_the_line() -> None:
    text = "a '$x' \"'$y'\" '$z\n$w 'q'$v \\'$u"
    assert single_quoted(text, text.index("$x"))
    assert not single_quoted(text, text.index("$y"))  # a ' inside double quotes
    assert single_quoted(text, text.index("$z"))  # left open: up to the line's end
    assert not single_quoted(text, text.index("$w"))  # the next line starts unquoted
    assert not single_quoted(text, text.index("$v"))  # after the closing quote
    assert not single_quoted(text, text.index("$u"))  # an escaped quote opens nothing
