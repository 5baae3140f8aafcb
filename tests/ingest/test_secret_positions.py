"""Secrets that a command, a config line or a variable's sigil puts in a secret's place,
each of which reached ``items.sqlite`` verbatim (seen redacting a SKILL.md that quotes
them with `redact_prose`) while ``API_KEY=...`` beside them went: a PHP or Perl
variable (``$apiKey = "..."``), a Rails ``secret_key_base``, a command that sets a
secret-named variable or setting to the word after its name (a Dockerfile's ``ENV
API_KEY value``, fish's ``set -gx API_KEY value``, Windows' ``setx``, ``aws configure
set aws_secret_access_key X``, ``npm config set``, ``git config``), a secret-named
flag and the word after it (``--password X``), and a client's password flag
(``docker login -p X``, ``keytool -storepass X``, ``openssl enc -k X``, ``mysql -pX``,
``curl -u user:X``: only in the simple command the client starts, as hook commands
read them). Placeholders and
references stay as written, as they do after ``API_KEY=``.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GOES = [
    (f'$apiKey = "{V}";', f'$apiKey = "{R}";'),
    (f"$api_key='{V}';", f"$api_key='{R}';"),
    (f"my $token = '{V}';", f"my $token = '{R}';"),
    (f"$DB_PASSWORD = {V}", f"$DB_PASSWORD = {R}"),
    (f"secret_key_base: {V}", f"secret_key_base: {R}"),
    (f"SECRET_KEY_BASE={V}", f"SECRET_KEY_BASE={R}"),
    (f'config.secret_key_base = "{V}"', f'config.secret_key_base = "{R}"'),
    (f"auth: {{api_key: {V}}}", f"auth: {{api_key: {R}}}"),
    (f"ENV API_KEY {V}", f"ENV API_KEY {R}"),
    (f'ENV OPENAI_API_KEY "{V}"', f'ENV OPENAI_API_KEY "{R}"'),
    (f"ENV API_KEY={V}", f"ENV API_KEY={R}"),
    (f"set -x API_KEY {V}", f"set -x API_KEY {R}"),
    (f"set -gx OPENAI_API_KEY '{V}'", f"set -gx OPENAI_API_KEY '{R}'"),
    (f"set -U -x DB_PASSWORD {V}", f"set -U -x DB_PASSWORD {R}"),
    (f"set --export API_TOKEN {V}; and run", f"set --export API_TOKEN {R}; and run"),
    (f'setx OPENAI_API_KEY "{V}"', f'setx OPENAI_API_KEY "{R}"'),
    (f"aws configure set aws_secret_access_key {V}", f"aws configure set aws_secret_access_key {R}"),
    (
        f"aws configure set aws_session_token {V} --profile dev",
        f"aws configure set aws_session_token {R} --profile dev",
    ),
    (f"npm config set //registry.npmjs.org/:_authToken {V}", f"npm config set //registry.npmjs.org/:_authToken {R}"),
    (f"yarn config set npmAuthToken {V}", f"yarn config set npmAuthToken {R}"),
    (f"git config --global github.token {V}", f"git config --global github.token {R}"),
    (f"docker login -u me -p {V}", f"docker login -u me -p {R}"),
    (f"docker login -u me --password {V} ghcr.io", f"docker login -u me --password {R} ghcr.io"),
    (f"podman login -p {V} quay.io", f"podman login -p {R} quay.io"),
    (
        f"az login --service-principal -u 0f1e2d3c -p {V} --tenant contoso.com",
        f"az login --service-principal -u 0f1e2d3c -p {R} --tenant contoso.com",
    ),
    (f"mytool --api-key {V} --verbose", f"mytool --api-key {R} --verbose"),
    (f'mytool --client-secret "{V}"', f'mytool --client-secret "{R}"'),
    ('tool --password "correct horse battery staple"', f'tool --password "{R}"'),
    ('Invoke-Spray -UserList u.txt -Password "Spring2024!"', f'Invoke-Spray -UserList u.txt -Password "{R}"'),
    (
        f"keytool -genkey -keystore a.jks -storepass {V} -keypass {V}",
        f"keytool -genkey -keystore a.jks -storepass {R} -keypass {R}",
    ),
    (f"jarsigner -storepass {V} app.apk key0", f"jarsigner -storepass {R} app.apk key0"),
    (f"keytool -importkeystore -srcstorepass {V}", f"keytool -importkeystore -srcstorepass {R}"),
    (f"openssl enc -aes-256-cbc -k {V} -in a", f"openssl enc -aes-256-cbc -k {R} -in a"),
    (f"openssl enc -d -pass pass:{V}", f"openssl enc -d -pass pass:{R}"),
    (f"openssl pkcs12 -export -passout pass:{V}", f"openssl pkcs12 -export -passout pass:{R}"),
    (f"mysql -u root -p{V} db", f"mysql -u root -p{R} db"),
    ("mysql -u root -phunter2", f"mysql -u root -p{R}"),
    (f"mysqldump -uroot -p'{V}' app > a.sql", f"mysqldump -uroot -p'{R}' app > a.sql"),
    (f"sshpass -p {V} ssh host", f"sshpass -p {R} ssh host"),
    (f"redis-cli -a {V} ping", f"redis-cli -a {R} ping"),
    (f"curl -u admin:{V} https://api.example.com", f"curl -u admin:{R} https://api.example.com"),
    (f'curl --user "admin:{V}" https://x', f'curl --user "admin:{R}" https://x'),
    (f'curl -H "Authorization: Bearer {V}" https://x', f'curl -H "Authorization: Bearer {R}" https://x'),
]
STAYS = [
    '$apiKey = getenv("API_KEY");',
    "$token = $request->bearerToken();",
    '$password = "your-password";',
    "$apiKey = '<api-key>';",
    "echo $API_KEY",
    "${API_KEY}=${{ secrets.API_KEY }}",
    "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    "secret_key_base: ${SECRET_KEY_BASE}",
    "database_base: Zyx987Wvu654Tsr321Qpo",
    "auth: {api_key: ${API_KEY}}",
    "auth: {token: {{TOKEN}}}",
    'ENV PATH "$VIRTUAL_ENV/bin:$PATH"',
    "ENV API_KEY ${API_KEY}",
    "ENV API_KEY=your-api-key",
    "env API_KEY Zyx987Wvu654Tsr321Qpo",  # env runs a command; ENV is the Dockerfile's
    "set -x API_KEY $API_KEY",
    "set -gx API_KEY (cat ~/.api_key)",
    "set -euxo pipefail",
    "set API_KEY_FILE Zyx987Wvu654Tsr321Qpo",
    "aws configure set aws_access_key_id AKIAEXAMPLEID",
    "aws configure set region us-east-1",
    "npm config set prefix '~/.npm-global'",
    'openclaw config set plugins.entries.manifest.config.apiKey "USER_API_KEY"',
    "git config --global user.name Zyx987Wvu654Tsr321Qpo",
    "git config --global credential.helper store",
    "docker login -u $CI_REGISTRY_USER -p $CI_REGISTRY_PASSWORD $CI_REGISTRY",
    "docker login -u me --password-stdin ghcr.io",
    "docker run -p 8080:80 nginx",
    "docker login -p your-password",
    "az login --service-principal -u $APP_ID -p $CLIENT_SECRET --tenant $TENANT_ID",
    "az login --service-principal -u <app-id> -p <password-or-cert> --tenant <tenant>",
    "az vm open-port -g rg -n vm --port 443 && az vm create -n vm -p 22",
    "pass --token when asked",
    "use --password-file secrets12.txt",
    "mytool --token --verbose",
    "psexec.py -k -no-pass domain.local/Administrator@dc.domain.local",
    "tool --no-password Zyx987Wvu654Tsr321Qpo",
    "mytool --api-key <api-key>",
    "keytool -export -rfc -keystore upload.jks -alias ALIAS -storepass PASSWORD -file cert.pem",
    "keytool -storepass:env STOREPASS -list",
    "openssl req -new -keyout key.pem -nodes",
    "openssl enc -d -pass env:PASSPHRASE",
    "mysql -u root -p db",
    "mysql -u root -p",
    "mkdir -p out2024x && ssh -p 2222 host",
    "grep -pabc12345 file",
    "curl -u admin: https://x",
    'curl -u "$USER:$PASS" https://x',
    "curl -u user:password https://x",
    "date -u +%H:%M:%S",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_secret_in_a_secret_position_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", STAYS)
def test_references_and_placeholders_stay(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "$" * 200_000 + "token = x",
        "$a" * 100_000 + " = ",
        "set" + " -x" * 100_000 + " TOKEN",
        "config set" + " --a" * 100_000,
        "ENV TOKEN " + "a" * 200_000,
        "git config" + " --g" * 100_000 + " token",
        "--token " * 50_000,
        "mysql " + "-p" * 100_000,
        "curl " + "-u a:" * 50_000,
        "keytool" + " -storepass" * 50_000,
    ],
)
def test_crafted_long_lines_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("docker login -u me -p S3cret99 ghcr.io", f"docker login -u me -p {R} ghcr.io"),
        ("az login --service-principal -u app -p S3cret99 -t t", f"az login --service-principal -u app -p {R} -t t"),
        ("keytool -list -storepass S3cret99", f"keytool -list -storepass {R}"),
        ("openssl enc -aes-256-cbc -k S3cret99 -in a", f"openssl enc -aes-256-cbc -k {R} -in a"),
        ("openssl enc -d -pass pass:S3cret99 -in a", f"openssl enc -d -pass pass:{R} -in a"),
    ],
)
def test_hook_commands_lose_these_client_passwords_too(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected
    assert redact_command("docker run -p 8080:80 nginx && openssl req -new -keyout k.pem") == (
        "docker run -p 8080:80 nginx && openssl req -new -keyout k.pem"
    )
