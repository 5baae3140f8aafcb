"""Secrets in shapes no rule read: a table whose column header names the secret (``| User |
Password |`` then ``| admin | X |``), a TOML or INI table named for secrets (``[passwords]``
then ``admin = "X"``), a PEM private key written in base64 (a kubeconfig's
``client-key-data: LS0tLS1CRUdJTi...``), OpenVPN's static key block, a PuTTY key's private
lines, an HTML password field's ``value``, and a sentence that gives a user and password
(``the default credentials are `admin:X```). Each kept its secret: a probe this session.
Every value here is invented.
"""

from __future__ import annotations

import base64

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


def _b64(pem_label: str) -> str:
    body = "MIIEowIBAAKCAQEAx9k2mQz7LpXk9s2mQz7LpXk9s2mQz7LpXk9s2mQz7Lp"
    return base64.b64encode(f"-----BEGIN {pem_label}-----\n{body}\n-----END {pem_label}-----\n".encode()).decode()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"| user | password |\n|---|---|\n| admin | {PW} |\n| bob | `Rt5zW8nBq3` |",
         f"| user | password |\n|---|---|\n| admin | {R} |\n| bob | `{R}` |"),
        (f"| Service | API key | Notes |\n|---|---|---|\n| Stripe | {PW}Qw8 | live |",
         f"| Service | API key | Notes |\n|---|---|---|\n| Stripe | {R} | live |"),
        (f'[passwords]\nadmin = "{PW}"\nreader = "Rt5zW8nBq3"\n\n[server]\nport = 8080',
         f'[passwords]\nadmin = "{R}"\nreader = "{R}"\n\n[server]\nport = 8080'),
        (f"[app.api_keys]\nstripe = {PW}Qw8 ; live\n[db]\nhost = x", f"[app.api_keys]\nstripe = {R} ; live\n[db]\nhost = x"),
        (f"    client-key-data: {_b64('RSA PRIVATE KEY')}", f"    client-key-data: {R}"),
        (("-----BEGIN OpenVPN Static key V1-----\ne685bdaf659a25a200e2b9e39e51ff03\n0fc72cf1ce07232bd8b2be5e6c670143\n"
         "-----END OpenVPN Static key V1-----\nkey-direction 1"), f"{R}\nkey-direction 1"),
        (("PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAIHk9s2mQz7Lp\nPrivate-Lines: 2\n"
         "AAAAIGk9s2mQz7LpXk9s2mQz7LpXk9s2m\nAAAAIGk9s2mQz7Lp\nPrivate-MAC: 5f3a9e1c2b4d6f8a"),
         ("PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAIHk9s2mQz7Lp\nPrivate-Lines: 2\n"
         f"{R}\nPrivate-MAC: 5f3a9e1c2b4d6f8a")),
        (f'<input type="password" name="pw" value="{PW}">', f'<input type="password" name="pw" value="{R}">'),
        (f"<input value='{PW}' type='password'>", f"<input value='{R}' type='password'>"),
        (f"The default credentials are `admin:{PW}`.", f"The default credentials are `admin:{R}`."),
        (f"The login is admin / {PW}.", f"The login is admin / {R}."),
        (f"Credentials for staging: bob:{PW}", f"Credentials for staging: bob:{R}"),
    ],
)
def test_prose_takes_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


def test_the_command_rules_take_a_base64_key_and_a_password_field() -> None:
    key = _b64("PRIVATE KEY")
    assert redact_command(f"kubectl config set-credentials x --client-key-data={key}") == (
        f"kubectl config set-credentials x --client-key-data={R}"
    )
    assert redact_command(f'echo \'<input type="password" value="{PW}">\'') == f'echo \'<input type="password" value="{R}">\''


@pytest.mark.parametrize(
    "text",
    [
        "| Token | Value |\n|---|---|\n| primary-500 | #3B82F6 |", "| Key | Action |\n|---|---|\n| Ctrl+S | save |",
        "| Field | Password |\n|---|---|\n| min length | 12 |\n| policy | strong |",
        '[secrets]\nbackend = "vault"\npath = "/kv/app"', "see [passwords] below",
        f"    client-certificate-data: {_b64('CERTIFICATE')}", "-----BEGIN OpenVPN Static key V1-----\n...\n-----END OpenVPN Static key V1-----",
        '<input type="text" value="Xk9s2mQz7Lp">', '<input type="password" value="">', "credentials are admin:admin",
        "the login is user/password", "credentials: see below",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
