"""Secrets in Windows commands (PowerShell's ``$env:API_KEY = "X"``, ``ConvertTo-SecureString
"X" -AsPlainText``, ``net user bob X``, ``cmdkey /pass:X``, ``schtasks /rp X``, ``psexec -p
X``, ``sc config svc password= X``), a jq or yq path's (``jq '.password = "X"'``) and one
given to ``vercel env add`` on its input: each kept its value, in hook commands, and most
in prose too (seen: a probe of common commands this session; in the data, a
privilege-escalation skill's ``psexec ... -p P@ssw0rd123`` kept the password its line
above had lost). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

#: Read by both the command rules and prose.
BOTH = [
    (f'$password = ConvertTo-SecureString "{PW}" -AsPlainText -Force', f'$password = ConvertTo-SecureString "{R}" -AsPlainText -Force'),
    (f'ConvertTo-SecureString -AsPlainText -Force -String "{PW}"', f'ConvertTo-SecureString -AsPlainText -Force -String "{R}"'),
    (
        f'New-LocalUser -Name bob -Password (ConvertTo-SecureString "{PW}" -AsPlainText -Force)',
        f'New-LocalUser -Name bob -Password (ConvertTo-SecureString "{R}" -AsPlainText -Force)',
    ),
    (f"net user bob {PW} /add", f"net user bob {R} /add"),
    (f"cmdkey /add:server /user:bob /pass:{PW}", f"cmdkey /add:server /user:bob /pass:{R}"),
    (f"schtasks /create /tn x /ru bob /rp {PW} /tr y", f"schtasks /create /tn x /ru bob /rp {R} /tr y"),
    (f"psexec \\\\host -u bob -p {PW} cmd", f"psexec \\\\host -u bob -p {R} cmd"),
    (f'sc.exe config svc obj= ".\\bob" password= "{PW}"', f'sc.exe config svc obj= ".\\bob" password= "{R}"'),
    (f"jq '.password = \"{PW}\"' c.json", f"jq '.password = \"{R}\"' c.json"),
    (f"vercel env add DB_PASS production <<< {PW}", f"vercel env add DB_PASS production <<< {R}"),
    (f"echo -n {PW} | vercel env add DB_PASS production", f"echo -n {R} | vercel env add DB_PASS production"),
]
#: Read by the command rules (prose read them already).
COMMANDS = [
    (f'$env:API_KEY = "{PW}"', f'$env:API_KEY = "{R}"'),
    (f'$env:DB_PASS="{PW}"', f'$env:DB_PASS="{R}"'),
    (f'yq -i ".db.password = \\"{PW}\\"" config.yml', f'yq -i ".db.password = \\"{R}\\"" config.yml'),
]


@pytest.mark.parametrize(("command", "expected"), BOTH + COMMANDS)
def test_the_command_rules_take_it(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("command", "expected"), BOTH)
def test_prose_takes_it(command: str, expected: str) -> None:
    assert redact_prose(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "net user bob /delete", "net user bob *", "net user", "net use x: \\\\s\\share",
        "ConvertTo-SecureString $plain -AsPlainText -Force", "ConvertTo-SecureString -String $env:PW -AsPlainText",
        "Read-Host -AsSecureString | ConvertFrom-SecureString", "$token = Get-Secret -Name x", "sc query svc",
        '$env:PATH = "C:\\bin"', "echo $env:API_KEY", "jq '.name = \"x\"' f", "jq '.token = env.TOKEN' f",
        "vercel env add DB_PASS", "vercel deploy --prod", "config.password = x",
    ],
)
def test_what_stays(command: str) -> None:
    assert redact_command(command) == command
    assert redact_prose(command) == command
