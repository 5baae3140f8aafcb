"""Secrets a command says are secrets, whatever their name: ``gh secret set
DEPLOY_SSH --body X``, ``flyctl secrets set NAME=X``, ``kubectl create secret generic
n --from-literal=KEY=X`` (a runbook's names were kept because ``DEPLOY_SSH`` or
``DATABASE_URL`` is no secret-looking name); curl's short cookie flag ``-b`` as its
``--cookie``; and an environment list entry with other keys between its name and its
value lines. A reference, a placeholder and another item's value stay.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

COMMAND_GOES = [
    (f"gh secret set DEPLOY_SSH --body {V}", f"gh secret set DEPLOY_SSH --body {R}"),
    (f'gh secret set REGION -b "{V}"', f'gh secret set REGION -b "{R}"'),
    (f"flyctl secrets set DATABASE_URL={V}", f"flyctl secrets set DATABASE_URL={R}"),
    (f"fly secrets set --app web SESSION={V} OTHER='{V}'", f"fly secrets set --app web SESSION={R} OTHER='{R}'"),
    (
        f"kubectl create secret generic db --from-literal=username=admin --from-literal=DB_URL={V}",
        f"kubectl create secret generic db --from-literal=username=admin --from-literal=DB_URL={R}",
    ),
]
COMMAND_STAYS = [
    'gh secret set DEPLOY_SSH --body "$DEPLOY_SSH"',
    "gh secret set DEPLOY_SSH --body <your-key>",
    "flyctl secrets set DATABASE_URL=$DATABASE_URL",
    "fly secrets set --app=web-production-app DATABASE_URL=<url>",
    f"fly secrets list && export REGION={V}",
    "kubectl create secret generic db --from-literal=DB_URL=${DB_URL}",
    f"kubectl create configmap cfg --from-literal=DB_URL={V}",
    f"heroku config:set REGION={V}",
]


@pytest.mark.parametrize(("text", "expected"), COMMAND_GOES)
def test_a_value_a_secret_command_sets_goes_whatever_its_name(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(("text", "expected"), COMMAND_GOES)
def test_a_hook_command_that_sets_a_secret_loses_its_value(text: str, expected: str) -> None:
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", COMMAND_STAYS)
def test_a_secret_command_without_a_literal_value_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


CURL_GOES = [
    (f"curl -b 'session={V}' https://x", f"curl -b 'session={R}' https://x"),
    (f'curl -s -b "a=b; sid={V}" https://x', f'curl -s -b "a=b; sid={R}" https://x'),
    (f"curl https://x -b session={V}", f"curl https://x -b session={R}"),
]
CURL_STAYS = [
    "curl -b cookies.txt https://x",
    "curl -b 'theme=dark' https://x",
    f"git checkout -b fix={V}",
    f"curl https://x; git checkout -b fix={V}",
]


@pytest.mark.parametrize(("text", "expected"), CURL_GOES)
def test_a_cookie_curl_b_sends_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected


@pytest.mark.parametrize("text", CURL_STAYS)
def test_curl_b_without_a_secret_cookie_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


ENTRY_GOES = [
    (
        f"env:\n  - name: API_KEY\n    type: string\n    value: {V}\n",
        f"env:\n  - name: API_KEY\n    type: string\n    value: {R}\n",
    ),
    (
        f'- name: DB_PASSWORD\n  type: secret\n  required: true\n  value: "{V}"',
        f'- name: DB_PASSWORD\n  type: secret\n  required: true\n  value: "{R}"',
    ),
    (
        f'{{\n  "name": "API_TOKEN",\n  "type": "string",\n  "value": "{V}"\n}}',
        f'{{\n  "name": "API_TOKEN",\n  "type": "string",\n  "value": "{R}"\n}}',
    ),
]
ENTRY_STAYS = [
    f"- name: API_KEY\n  type: string\n- name: REGION\n  value: {V}",
    f"- name: API_KEY\n  valueFrom:\n    secretKeyRef:\n      value: {V}",
    f"- name: API_KEY\n  type: string\n    value: {V}",
    "- name: API_KEY\n  type: string\n  value: ${API_KEY}",
    f"- name: API_KEY\n  a: 1\n  b: 2\n  c: 3\n  d: 4\n  e: 5\n  value: {V}",
]


@pytest.mark.parametrize(("text", "expected"), ENTRY_GOES)
def test_an_entry_value_after_other_keys_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", ENTRY_STAYS)
def test_a_value_of_another_item_or_a_nested_key_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_a_secret_command_goes_on_after_a_line_continuation() -> None:
    # deployment-monitoring.md writes kubectl's --from-literal one to a line, each line
    # ending in a backslash: the command is one, and so is what it says is a secret.
    command = f"kubectl create secret generic db \\\n  --from-literal=DEPLOY_SSH={V} \\\n  -n prod"
    expected = f"kubectl create secret generic db \\\n  --from-literal=DEPLOY_SSH={R} \\\n  -n prod"
    assert redact_command(command) == expected
    fly = f"fly secrets set \\\r\n  DATABASE_URL={V}"
    assert redact_command(fly) == f"fly secrets set \\\r\n  DATABASE_URL={R}"
    # A line that ends without one ends the command.
    assert redact_command(f"kubectl create secret generic db\nexport DEPLOY_SSH={V}").endswith(V)


GH_CONTINUED = [
    # A runbook breaks a long ``gh secret set`` over lines as it breaks kubectl's: the
    # value after ``--body`` on the next line is the secret all the same.
    (f"gh secret set DEPLOY_SSH \\\n  --body {V}", f"gh secret set DEPLOY_SSH \\\n  --body {R}"),
    (f"gh secret set DEPLOY_SSH --repo o/r \\\r\n  -b {V}", f"gh secret set DEPLOY_SSH --repo o/r \\\r\n  -b {R}"),
    (f"gh secret set \\\n  DEPLOY_SSH \\\n  --repo o/r \\\n  --body={V}", f"gh secret set \\\n  DEPLOY_SSH \\\n  --repo o/r \\\n  --body={R}"),
    (f"gh secret set DEPLOY_SSH --body \\\n  '{V}' \\\n  -e prod", f"gh secret set DEPLOY_SSH --body \\\n  '{R}' \\\n  -e prod"),
    # A value piped in (or a here-string) is what ``gh secret set`` reads from stdin.
    (f"echo {V} | gh secret set DEPLOY_SSH", f"echo {R} | gh secret set DEPLOY_SSH"),
    (f'echo -n "{V}" | gh secret set DEPLOY_SSH --repo o/r', f'echo -n "{R}" | gh secret set DEPLOY_SSH --repo o/r'),
    (f"printf '%s' {V} | gh secret set -e prod DEPLOY_SSH", f"printf '%s' {R} | gh secret set -e prod DEPLOY_SSH"),
    (f"gh secret set DEPLOY_SSH <<< '{V}'", f"gh secret set DEPLOY_SSH <<< '{R}'"),
]
GH_STAYS = [
    'gh secret set DEPLOY_SSH --body "$(cat deploy_key)"',
    'gh secret set DEPLOY_SSH \\\n  --body "$(cat deploy_key)"',
    "gh secret set DEPLOY_SSH \\\n  --body <your-key>",
    'echo "$DEPLOY_SSH" | gh secret set DEPLOY_SSH',
    "echo your-deploy-key | gh secret set DEPLOY_SSH",
    "cat deploy_key | gh secret set DEPLOY_SSH",
    f"echo {V} | gh secret list",
    # A line break without a backslash ends the command.
    f"gh secret set DEPLOY_SSH\n--body {V}",
]


@pytest.mark.parametrize(("text", "expected"), GH_CONTINUED)
def test_gh_secret_set_goes_past_a_continuation_and_from_stdin(text: str, expected: str) -> None:
    assert redact_command(text) == expected
    assert redact_prose(text) == expected


@pytest.mark.parametrize("text", GH_STAYS)
def test_gh_secret_set_keeps_references_and_placeholders(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text
