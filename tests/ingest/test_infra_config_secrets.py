"""Secrets infrastructure files and tools hold in their own shapes, which no rule read: a
Terraform variable's literal ``default`` when the variable is named for a secret or marked
``sensitive``, an Ansible template that hashes a literal password (``"{{ 'X' |
password_hash('sha512') }}"``), Apache's ``SetEnv DB_PASS X``, Vault AppRole's ``secret_id=X``
in prose, ``rabbitmqadmin -p X`` and a server's header directive (nginx's
``proxy_set_header Authorization "Basic X"``), Redis' ``requirepass X``, ``helm registry login -p
X``, ``grafana-cli admin reset-admin-password X`` and a literal a process substitution hands a
command as a file (``wg set wg0 private-key <(echo X)``, ``--data-file=<(echo -n X)``). Each kept its secret: a probe this session. Every
value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    "case",
    [
        'variable "db_password" {{\n  type = string\n  default = "{}"\n}}',
        'variable "admin_login" {{\n  sensitive = true\n  default   = "{}"\n}}',
        "    password: \"{{{{ '{}' | password_hash('sha512') }}}}\"",
        "SetEnv DB_PASS {}",
        "vault write auth/approle/login role_id=abc secret_id={}",
        "rabbitmqadmin -u bob -p {} list queues",
        'proxy_set_header Authorization "Basic {}";',
        'http-request set-header Authorization "Basic {}"',
        "redis-server --requirepass {} --appendonly yes",
        "requirepass {}",
        "CONFIG SET masterauth {}",
        "helm registry login r.io -u bob -p {}",
        "grafana-cli --homepath /usr/share/grafana admin reset-admin-password {}",
        "wg set wg0 private-key <(echo {})",
        "gcloud secrets versions add db-pass --data-file=<(echo -n {})",
        "docker secret create db_pass <(echo {})",
    ],
)
def test_prose_takes_it(case: str) -> None:
    assert redact_prose(case.format(PW)) == case.format(R)


@pytest.mark.parametrize(
    "case",
    ["SetEnv DB_PASS {}", "rabbitmqadmin -u bob -p {} list queues", "redis-server --requirepass {}",
     "wg set wg0 private-key <(echo {})", "helm registry login r.io -u bob -p {}", "ansible localhost -m debug -a \"msg={{{{ '{}' | password_hash('sha512') }}}}\""],
)
def test_the_command_rules_take_it(case: str) -> None:
    assert redact_command(case.format(PW)) == case.format(R)


@pytest.mark.parametrize(
    "text",
    [
        'variable "region" {\n  default = "us-east-1"\n}', 'variable "db_password" {\n  default = ""\n}',
        'variable "api_token" {\n  default = "changeme"\n}', 'variable "db_name" {\n  default = "shop2024db"\n}',
        "password: \"{{ vault_db_password | password_hash('sha512') }}\"", "SetEnv APP_ENV production",
        "aws secretsmanager get-secret-value --query SecretString --secret-id prod/db",
        "rabbitmqadmin -u bob list queues", 'proxy_set_header Authorization "Bearer $token";',
        "proxy_set_header Host $host;", "the auth 'Basic authentication' is used",
        "redis-server --requirepass $REDIS_PASSWORD", "requirepass foobared", "wg set wg0 private-key /etc/wg/key",
        "gcloud secrets versions add x --data-file=<(echo -n $PW)", "grafana-cli admin reset-admin-password $PW",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
