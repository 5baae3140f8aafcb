"""Secrets a command takes by its own syntax, none of which a rule read: rclone's remote
settings (``rclone config create NAME TYPE secret_access_key X``), ``net use
\\\\srv\\share X``, an expect script's answer to a password prompt (``expect "password:"``
then ``send "X\\r"``, pexpect's ``sendline('X')``), a value piped into a reader run with
``sudo``, and a JSON map of secrets over several lines (``"passwords": {`` then ``"admin":
"X"``); and ``chpasswd``'s ``user:password`` line, which lost its user with the password.
Each kept its secret (or lost the user) before: a probe of common commands this session.
Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

#: Read by the command rules and by prose alike.
BOTH = [
    (
        f"rclone config create s3r s3 provider AWS access_key_id AKIDZ3J7Q4 secret_access_key {PW}",
        f"rclone config create s3r s3 provider AWS access_key_id AKIDZ3J7Q4 secret_access_key {R}",
    ),
    (f"rclone config create b2r b2 account 0012ab key {PW}", f"rclone config create b2r b2 account 0012ab key {R}"),
    (f"rclone config create sf sftp host example.com user bob pass {PW}", f"rclone config create sf sftp host example.com user bob pass {R}"),
    (f"rclone config update gd drive client_id 123.apps client_secret {PW}", f"rclone config update gd drive client_id 123.apps client_secret {R}"),
    (f"rclone config password sf pass {PW}", f"rclone config password sf pass {R}"),
    (f"net use Z: \\\\srv\\share {PW} /user:CORP\\bob /persistent:yes", f"net use Z: \\\\srv\\share {R} /user:CORP\\bob /persistent:yes"),
    (f"net use \\\\srv\\share /user:bob {PW}", f"net use \\\\srv\\share /user:bob {R}"),
    (f"NET USE Z: \\\\srv\\share {PW}", f"NET USE Z: \\\\srv\\share {R}"),
    (f'expect "password:" ; send "{PW}\\r"', f'expect "password:" ; send "{R}"'),
    (f'spawn ssh bob@host\nexpect "*assword*"\nsend "{PW}\\r"\ninteract', f'spawn ssh bob@host\nexpect "*assword*"\nsend "{R}"\ninteract'),
    (f'expect {{\n  "*assword:" {{ send -- "{PW}\\r" }}\n}}', f'expect {{\n  "*assword:" {{ send -- "{R}" }}\n}}'),
    (f"child.expect('Password:')\nchild.sendline('{PW}')", f"child.expect('Password:')\nchild.sendline('{R}')"),
    (f'expect -c \'spawn ssh bob@h; expect "password:"; send "{PW}\\r"\'', f'expect -c \'spawn ssh bob@h; expect "password:"; send "{R}"\''),
    (f'echo "bob:{PW}" | sudo chpasswd', f'echo "bob:{R}" | sudo chpasswd'),
    (f'chpasswd <<< "bob:{PW}"', f'chpasswd <<< "bob:{R}"'),
    (f"echo bob:{PW} | chpasswd -c SHA512", f"echo bob:{R} | chpasswd -c SHA512"),
    (f"echo {PW} | sudo docker login -u bob --password-stdin", f"echo {R} | sudo docker login -u bob --password-stdin"),
]


@pytest.mark.parametrize(("command", "expected"), BOTH)
def test_the_command_rules_take_it(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("command", "expected"), BOTH)
def test_prose_takes_it(command: str, expected: str) -> None:
    assert redact_prose(command) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            f'```json\n{{\n  "passwords": {{\n    "admin": "{PW}",\n    "reader": "Rt5zW8nBq3"\n  }}\n}}\n```',
            f'```json\n{{\n  "passwords": {{\n    "admin": "{R}",\n    "reader": "{R}"\n  }}\n}}\n```',
        ),
        (
            f'const passwords = {{\n  admin: "{PW}",\n  reader: process.env.READER_PW,\n}};',
            f'const passwords = {{\n  admin: "{R}",\n  reader: process.env.READER_PW,\n}};',
        ),
        (
            f'API_KEYS = {{\n    "billing": "{PW}",\n    "search": os.environ["K"],\n}}',
            f'API_KEYS = {{\n    "billing": "{R}",\n    "search": os.environ["K"],\n}}',
        ),
    ],
)
def test_a_map_of_secrets_over_lines_loses_its_literal_values(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "rclone config create sf sftp host example.com user bob pass $(rclone obscure $PW)",
        "rclone config create s3r s3 env_auth true region us-east-1 access_key_id AKIDZ3J7Q4",
        "net use Z: \\\\srv\\share * /user:bob", "net use Z: \\\\srv\\share /user:bob", "net use Z: /delete",
        "net use \\\\srv\\share %PASSWORD% /user:bob", "net use \\\\srv\\share $pw /user:bob",
        'expect "password:"\nsend "$password\\r"', 'expect "password:"\nsend "$env(PW)\\r"',
        'expect "(yes/no)?"\nsend "yes\\r"', 'expect "Password:"\nsend "yes\\r"',
        "child.expect('Password:')\nchild.sendline(password)",
        'echo "bob:$PW" | sudo chpasswd', 'chpasswd <<< "$USER:$PASS"',
        '"secrets": {\n  "type": "vault",\n  "name": "prod"\n}', "Manage tokens: {see below}",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text
