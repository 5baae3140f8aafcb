"""Secrets everyday tools take in their own syntax, which no rule read: archives' and PDFs'
passwords (``unrar x -pX``, ``pdftk ... user_pw X``, ``qpdf --encrypt X Y``), Oracle's
``user/X@db`` (``sqlplus``, ``rman target``, ``sqlldr userid=``), Wi-Fi's (``nmcli ...
password X``, ``wpa_passphrase SSID X``), RDP's (``xfreerdp /p:X``, ``rdesktop -p X``), the
legacy ``mongo`` shell's ``-p X``, the macOS keychain's ``-w X``, registries' (``poetry
config http-basic.NAME USER X``, ``cargo login X``), MinIO's ``mc admin user add``,
redis-cli's ``AUTH X``, MySQL's ``SET PASSWORD FOR 'bob'@'%' = 'X'``, a key-value store's
``consul kv put app/db_password X``, ``doppler secrets set`` / ``netlify env:set``, and a
password piped into ``sudo -S``, ``passwd`` or ``vncpasswd -f``. Each kept its secret: a probe
of common commands this session. And mongo's ``--authenticationDatabase admin`` lost
``admin`` in a hook command: a word under a name that says it is a setting's choice stays.
Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

#: Each command with ``{}`` where the secret stands.
CASES = [
    "unrar x -p{} archive.rar",
    "rar a -hp{} archive.rar dir",
    "pdftk in.pdf output out.pdf user_pw {}",
    "pdftk in.pdf output out.pdf owner_pw {} allow printing",
    "qpdf --encrypt {} - 256 -- in.pdf out.pdf",
    "sqlplus system/{}@localhost:1521/XE",
    "sqlplus -S 'bob/{}@orcl' @report.sql",
    "expdp bob/{}@orcl schemas=bob",
    "sqlldr userid=bob/{}@orcl control=load.ctl",
    "sqlplus bob/{}",
    "nmcli dev wifi connect HomeNet password {}",
    "wpa_passphrase HomeNet {}",
    "xfreerdp /u:bob /p:{} /v:10.0.0.5",
    "rdesktop -u bob -p {} 10.0.0.5",
    "mongo --host db -u bob -p {} --authenticationDatabase admin",
    "Run `mongo -u bob -p {}` to connect",
    "security add-generic-password -a bob -s svc -w {}",
    "poetry config http-basic.private bob {}",
    "poetry config pypi-token.pypi {}",
    "cargo login {}",
    "mc admin user add myminio bob {}",
    "redis-cli -h db AUTH {}",
    "redis-cli -h db AUTH default {}",
    "mysql -u root -e \"SET PASSWORD FOR 'bob'@'%' = '{}'\"",
    "SET PASSWORD = '{}';",
    "consul kv put app/db_password {}",
    "etcdctl --endpoints=http://e:2379 put /app/password {}",
    "doppler secrets set API_KEY {}",
    "netlify env:set API_KEY {}",
    "echo {} | sudo -S apt update",
    "echo \"{}\" | sudo -kS systemctl restart nginx",
    "echo {} | passwd --stdin bob",
    "echo {} | vncpasswd -f > ~/.vnc/passwd",
]


@pytest.mark.parametrize("case", CASES)
def test_the_command_rules_take_it(case: str) -> None:
    assert redact_command(case.format(PW)) == case.format(R)


@pytest.mark.parametrize("case", CASES)
def test_prose_takes_it(case: str) -> None:
    assert redact_prose(case.format(PW)) == case.format(R)


def test_rman_loses_each_password_and_keeps_each_database() -> None:
    line = f"rman target sys/{PW}@orcl catalog rman/{PW}@cat"
    assert redact_command(line) == f"rman target sys/{R}@orcl catalog rman/{R}@cat"
    assert redact_prose(line) == f"rman target sys/{R}@orcl catalog rman/{R}@cat"


def test_passwd_reads_the_new_password_twice() -> None:
    line = f'echo -e "{PW}\\n{PW}" | passwd bob'
    assert redact_prose(line) == f'echo -e "{R}" | passwd bob'
    assert redact_command(line) == f'echo -e "{R}" | passwd bob'


@pytest.mark.parametrize(
    "text",
    [
        "docker run --name mongo -p 27017:27017 mongo", "unrar x -p- archive.rar", "rar a -hp archive.rar dir",
        "pdftk in.pdf output out.pdf user_pw PROMPT", 'qpdf --encrypt "$USER_PW" "$OWNER_PW" 256 -- in.pdf out.pdf',
        "nmcli dev wifi connect HomeNet --ask", "wpa_passphrase HomeNet", "xfreerdp /u:bob /p:$PW /v:host",
        "rdesktop -u bob -p - host", "security add-generic-password -a bob -s svc -w",
        "poetry config virtualenvs.in-project true", "poetry config pypi-token.pypi $PYPI_TOKEN", "cargo login",
        "cargo login $CRATES_TOKEN", "redis-cli -h db AUTH $PW", "redis-cli -h db PING", "sqlplus / as sysdba",
        "sqlplus @scripts/run.sql", "sqlplus bob/$PW@orcl", "rman target /", "expdp bob@orcl directory=dp",
        "consul kv put app/db_host db.example.com", "netlify env:set NODE_VERSION 20", "doppler secrets set API_KEY $KEY",
        "echo $PW | sudo -S apt update", "echo y | sudo apt install x", "cat f | sudo tee /etc/x", "echo $PW | passwd --stdin bob",
        "SET PASSWORD = @pw;", "mongosh --authenticationDatabase admin --authenticationMechanism SCRAM-SHA-256 --authSource admin",
        "mongodump --authenticationDatabase=admin", "x --auth-user bob --token-type bearer",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text
