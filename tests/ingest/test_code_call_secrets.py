"""Secrets code passes by place or to a setter named for them, and generated keys with
symbols in them, which no rule read: ``ds.setPassword("X")``, Rust's ``.pass(Some("X"))``,
.NET's ``new NetworkCredential("bob", "X")``, Go's ``smtp.PlainAuth("", user, "X", host)``,
``req.SetBasicAuth("bob", "X")``, ``jwt.sign(payload, "X")``, ``hmac.new(b"X", ...)``,
``Fernet(b"X")``, PHP's ``curl_setopt($ch, CURLOPT_PASSWORD, "X")``, an LDAP bind with its DN,
``"Basic " + btoa("bob:X")``; a Django ``SECRET_KEY`` of its generator's symbols
(``django-insecure-9x#k2$m@q!7z%w(3e)...``: ``(``, ``)`` and ``%`` read as code); csh's
``setenv NAME X``; AWS's ``ssm put-parameter --type SecureString --value X`` and
``secretsmanager --secret-string X``. Each kept its secret: a probe of common code this
session. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"
DJANGO = "django-insecure-9x#k2$m@q!7z%w(3e)r8t^y&u*i0o-p+a=s"

#: Each line with ``{}`` where the secret stands.
CASES = [
    'dataSource.setPassword("{}");',
    "ds.setPassword('{}')",
    'cfg.SetPassword("{}")',
    "user.set_password('{}')",
    'let opts = OptsBuilder::new().user(Some("bob")).pass(Some("{}"));',
    'new NetworkCredential("bob", "{}")',
    'new NetworkCredential("bob", "{}", "CORP")',
    'auth := smtp.PlainAuth("", "bob@example.com", "{}", "smtp.example.com")',
    'client.basic_auth("bob", Some("{}"))',
    'req.SetBasicAuth("bob", "{}")',
    'httpClient.setBasicAuth("bob", "{}");',
    "jwt.sign({{ id: user.id }}, '{}', {{ expiresIn: '1h' }})",
    "token = jwt.encode({{'sub': 1}}, '{}', algorithm='HS256')",
    'hmac.new(b"{}", msg, hashlib.sha256)',
    'Fernet(b"{}")',
    'curl_setopt($ch, CURLOPT_PASSWORD, "{}");',
    'curl_setopt($ch, CURLOPT_USERPWD, "{}");',
    'ldap.bind("cn=admin,dc=example,dc=com", "{}")',
    'headers: {{ Authorization: "Basic " + Buffer.from("{}").toString("base64") }}',
    "headers.set('Authorization', 'Basic ' + btoa('{}'));",
    "SECRET_KEY = '{}'",
    "setenv DB_PASSWORD {}",
    "launchctl setenv API_TOKEN {}",
    "aws ssm put-parameter --name /app/db --value {} --type SecureString",
    "aws secretsmanager put-secret-value --secret-id prod/db --secret-string '{}'",
]


def _secret(case: str) -> str:
    return DJANGO if "SECRET_KEY" in case else PW


@pytest.mark.parametrize("case", CASES)
def test_prose_takes_it(case: str) -> None:
    assert redact_prose(case.format(_secret(case))) == case.format(R)


@pytest.mark.parametrize("case", [c for c in CASES if "secretsmanager" not in c])
def test_the_command_rules_take_it(case: str) -> None:
    assert redact_command(case.format(_secret(case))) == case.format(R)


@pytest.mark.parametrize(
    "text",
    [
        "jwt.sign(payload, process.env.JWT_SECRET)", "hmac.new(key, msg, hashlib.sha256)", "parser.token('EOF')",
        'lexer.token("IDENT")', "ds.setPassword(pw)", 'cfg.setToken(System.getenv("T"))', "u.set_password('changeme')",
        "Fernet(key)", "Fernet(Fernet.generate_key())", "$('#x').bind('click', handler)", "client.bind(dn, password, cb)",
        "btoa('hello world')", "aws ssm put-parameter --name /app/port --value 8080 --type String",
        "aws secretsmanager create-secret --name x --secret-string file://s.json", "setenv PATH /usr/bin",
        'password = "printf(\\"%d %s\\", a, b)"', "PASSWORD='${{ secrets.PW }}'", "pattern = '^[a-z0-9!#$%&*+/=?^_-]+@'",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text
