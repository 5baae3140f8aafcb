"""A ``&`` in a quoted password (``tool "--password=Tr0ub&3x9"``, ``curl -u
"admin:Tr0ub&3x9"``, ``mysql -p"Tr0ub&3x9"``, ``--conn "Server=db;Password=Tr0ub&3x9"``):
in quotes it is a character of the word, but the command rules ended the value there
(a flag's bare value, a client's simple command, an assignment's value) and kept
``&3x9`` (seen: the last session's note, "left"). Read whole now; a ``&`` that parts a
form's or a URL's fields still does, and a blank still ends a client's simple command
in a quoted script. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED

#: A secret flag that opens a quoted word: the word is one argument, its value all after ``=``.
QUOTED_FLAGS = [
    ('tool "--password=Tr0ub&3x9"', f'tool "--password={R}"'),
    ("tool '--password=Tr0ub&3x9'", f"tool '--password={R}'"),
    ('tool "--api-key=sk9&Xk2mQz7Lp" --verbose "x"', f'tool "--api-key={R}" --verbose "x"'),
    ('tool "--password=correct horse battery" x', f'tool "--password={R}" x'),
    ('docker run "--token=a\\"b&c9Xk2" img', f'docker run "--token={R}" img'),
    ('["--api-key=sk&abc123", "x"]', f'["--api-key={R}", "x"]'),
]

#: A client's password quoted, with a ``&`` in it: the quotes hold the simple command together.
QUOTED_CLIENTS = [
    ('curl -u "admin:Tr0ub&3x9" https://api.example.com', f'curl -u "admin:{R}" https://api.example.com'),
    ("curl -u 'admin:Tr0ub&3x9' https://api.example.com", f"curl -u 'admin:{R}' https://api.example.com"),
    ('mysql -u root -p"Tr0ub&3x9" shop', f'mysql -u root -p"{R}" shop'),
    ("mysql -u root -p'Tr0ub&3x9' shop", f"mysql -u root -p'{R}' shop"),
    ('sshpass -p "Tr0ub&3x9" ssh deploy@host', f'sshpass -p "{R}" ssh deploy@host'),
    ('redis-cli -a "Tr0ub&3x9" ping', f'redis-cli -a "{R}" ping'),
    ('docker login -u me -p "Tr0ub&3x9" registry.example.com', f'docker login -u me -p "{R}" registry.example.com'),
]

#: A connection string's password with a ``&``: the ``;`` between pairs makes it one word.
CONNECTION_STRINGS = [
    ('tool --conn "Server=db;Password=Tr0ub&3x9;User Id=a"', f'tool --conn "Server=db;Password={R};User Id=a"'),
    ('tool --conn "{Server=db;Password=Tr0ub&3x9}"', f'tool --conn "{{Server=db;Password={R}}}"'),
    ("tool --conn {Server=db;Password=Tr0ub&3x9}", f"tool --conn {{Server=db;Password={R}}}"),
    ('tool --conn "Password=Tr0ub&3x9;Server=db"', f'tool --conn "Password={R};Server=db"'),
    ('tool --conn "Server=db; Uid=sa; Pwd=Tr0ub&3x9"', f'tool --conn "Server=db; Uid=sa; Pwd={R}"'),
]


@pytest.mark.parametrize(("command", "expected"), QUOTED_FLAGS + QUOTED_CLIENTS + CONNECTION_STRINGS)
def test_a_quoted_ampersand_is_the_passwords(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("command", "expected"), QUOTED_CLIENTS)
def test_prose_reads_a_quoted_client_password_whole(command: str, expected: str) -> None:
    assert redact_prose(command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A form's or a URL's fields are parted by ``&``: the next field stays.
        ('curl -d "token=Xk9s2mQz7Lp&user=bob" https://x', f'curl -d "token={R}&user=bob" https://x'),
        ("https://x/?a=1&token=Xk9s2mQ7&b=2", f"https://x/?a=1&token={R}&b=2"),
        ('curl "https://x/?server=a;token=Xk9s2mQ7&b=2"', f'curl "https://x/?server=a;token={R}&b=2"'),
        # Outside a connection string an unquoted ``&&`` runs the next command.
        ("export A=1; API_TOKEN=Xk9s2mQz7Lp&&make", f"export A=1; API_TOKEN={R}&&make"),
        # A flag inside a script's quotes, not opening them: its value is one word of the script.
        ('bash -c "tool --password=Xk9s2mQz7Lp&&echo ok"', f'bash -c "tool --password={R}&&echo ok"'),
        # References, placeholders and settings in a quoted flag word stay.
        ('tool "--password=$PW" x', 'tool "--password=$PW" x'),
        ('tool "--token=<your token>"', 'tool "--token=<your token>"'),
        ('tool "--max-tokens=4096"', 'tool "--max-tokens=4096"'),
        ('tool "--auth-type=bearer"', 'tool "--auth-type=bearer"'),
        ('tool "--password="', 'tool "--password="'),
        # A blank in quotes may part a script's commands: each is its own simple command.
        ('sh -c "docker login; docker run -p 8080:80 img"', 'sh -c "docker login; docker run -p 8080:80 img"'),
        ('sh -c "cd /srv; mysql -p shop"', 'sh -c "cd /srv; mysql -p shop"'),
        ('echo "a;b" ; date -u +%H', 'echo "a;b" ; date -u +%H'),
    ],
)
def test_what_an_ampersand_or_a_blank_still_parts(command: str, expected: str) -> None:
    assert redact_command(command) == expected
