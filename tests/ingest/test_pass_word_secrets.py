"""Names that say "password" without ``passw`` (``DB_PASS``, ``MYSQL_PWD``,
``--passphrase``, ``ansible_become_pass``), and a Java or Maven system property's dotted
flag (``-Djavax.net.ssl.keyStorePassword=X``): the command rules read a secret's name as
one holding ``key``, ``token``, ``secret``, ``passw``, ``auth`` or ``credential``, so these
kept their values in hook commands and MCP arguments, which prose redacted (seen: a probe
of common commands this session). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secret_names import pass_argument, secret_name
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    "name",
    ["DB_PASS", "SMTP_PASS", "--smtp-pass", "ansible_become_pass", "userPass", "pass", "--pass", "PASS2",
     "MYSQL_PWD", "DB_PWD", "dbPwd", "--db-pwd", "PASSPHRASE", "--passphrase", "gpg.passphrase", "GPG_PASSPHRASE",
     "--passphrase-file"],
)
def test_names_that_say_password(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize(
    "name",
    ["PWD", "--pwd", "OLDPWD", "bypass", "BYPASS_CACHE", "--compass", "--passes", "PASSES", "--pass-through",
     "--pass-file", "passenger", "--first-pass-only", "author", "keywords"],
)
def test_names_that_do_not(name: str) -> None:
    assert not secret_name(name)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"DB_PASS={PW} ./run", f"DB_PASS={R} ./run"),
        (f"MYSQL_PWD={PW} mysql -u root shop", f"MYSQL_PWD={R} mysql -u root shop"),
        (f"export GPG_PASSPHRASE={PW}", f"export GPG_PASSPHRASE={R}"),
        (f"gpg --batch --passphrase {PW} -d f.gpg", f"gpg --batch --passphrase {R} -d f.gpg"),
        (f"gpg --passphrase={PW} -d f.gpg", f"gpg --passphrase={R} -d f.gpg"),
        (f"tool --smtp-pass {PW}", f"tool --smtp-pass {R}"),
        (f'ansible-playbook site.yml -e "ansible_become_pass={PW}"', f'ansible-playbook site.yml -e "ansible_become_pass={R}"'),
        (f"curl -d '{{\"user\": \"bob\", \"pass\": \"{PW}\"}}' https://x", f"curl -d '{{\"user\": \"bob\", \"pass\": \"{R}\"}}' https://x"),
        (f'curl "https://x/api?user=bob&pass={PW}"', f'curl "https://x/api?user=bob&pass={R}"'),
        (f"USER=bob PASS={PW} ./login.sh", f"USER=bob PASS={R} ./login.sh"),
        (f"java -Djavax.net.ssl.keyStorePassword={PW} -jar app.jar", f"java -Djavax.net.ssl.keyStorePassword={R} -jar app.jar"),
        (f"mvn deploy -Dgpg.passphrase={PW}", f"mvn deploy -Dgpg.passphrase={R}"),
        (f"openssl enc -aes-256-cbc -pass pass:{PW} -in a", f"openssl enc -aes-256-cbc -pass pass:{R} -in a"),
    ],
)
def test_their_values_go(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "PWD=/srv/app make", "cd $OLDPWD", "tool --pass-file /run/pw", "tool --pass-through x", "BYPASS_CACHE=1 make",
        "DB_PASS=$DB_PASS ./run", 'tool --pass "$PASS"', "tool --passes 3",
        # A pass's number (two-pass encoding) and where openssl reads a pass phrase.
        "ffmpeg -i in.mp4 -c:v libx264 -pass 2 out.mp4", "x264 --pass 1 -o out.mkv in.y4m",
        "openssl enc -aes-256-cbc -pass env:PW -in a", "openssl enc -aes-256-cbc -pass file:/run/pw -in a",
        "openssl rsa -passin stdin -in key.pem",
        # A dotted flag that names no secret, or a setting's path or switch under one.
        "java -Dfile.encoding=UTF-8 -jar x", "java -Dauth.enabled=true -jar x", "mvn -Dapi.key.file=/etc/key x",
        # A sentence's full stop after a flag is no dotted name.
        "pass --token. Then run it",
    ],
)
def test_what_stays(command: str) -> None:
    assert redact_command(command) == command


def test_mcp_arguments() -> None:
    assert redact_args(["--passphrase", PW]) == ["--passphrase", R]
    assert redact_args(["-e", f"DB_PASS={PW}"]) == ["-e", f"DB_PASS={R}"]
    assert redact_args([f"-Djavax.net.ssl.keyStorePassword={PW}"]) == [f"-Djavax.net.ssl.keyStorePassword={R}"]
    assert redact_args(["-pass", "2"]) == ["-pass", "2"]
    assert redact_args(["-pass", f"pass:{PW}"]) == ["-pass", f"pass:{R}"]


def test_pass_argument_only_under_pass() -> None:
    assert pass_argument("-pass", "2") and pass_argument("--pass", "env:PW")
    assert not pass_argument("--password", "2") and not pass_argument("--pass", PW)
