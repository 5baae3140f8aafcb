"""Secrets whose name and value stand on different lines, which the line-by-line rules
of `redact_prose` did not see and ``items.sqlite`` kept verbatim (seen redacting a
deployment guide): a Kubernetes or ECS environment list (``- name: API_KEY`` and
``value: "..."`` on the next line; the same on one line, in JSON, in a flow mapping or
in HCL), and a YAML block scalar under a secret's name (``api_key: |`` or ``>-`` with
the value on the indented lines after it). The value goes when it reads as a literal
secret, as after ``API_KEY=``; ``valueFrom``, references, placeholders and a block of
prose stay, and ``repair`` redacts such an item of an older index.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.redact_fields import redact_frontmatter
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.model import Node

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GOES = [
    (f'env:\n  - name: API_KEY\n    value: "{V}"\n', f'env:\n  - name: API_KEY\n    value: "{R}"\n'),
    (f"- name: DB_PASSWORD\n  value: {V}\n- name: PORT\n  value: 8080", f"- name: DB_PASSWORD\n  value: {R}\n- name: PORT\n  value: 8080"),
    (f'{{"name": "OPENAI_API_KEY", "value": "{V}"}}', f'{{"name": "OPENAI_API_KEY", "value": "{R}"}}'),
    (f'{{\n  "name": "STRIPE_SECRET_KEY",\n  "value": "{V}"\n}}', f'{{\n  "name": "STRIPE_SECRET_KEY",\n  "value": "{R}"\n}}'),
    (f"- {{name: API_TOKEN, value: {V}}}", f"- {{name: API_TOKEN, value: {R}}}"),
    (f'env {{\n  name  = "API_KEY"\n  value = "{V}"\n}}', f'env {{\n  name  = "API_KEY"\n  value = "{R}"\n}}'),
    # Another key between name and value (an ECS task definition's ``type``, seen redacting one).
    (f'{{"name":"API_KEY","type":"x","value":"{V}"}}', f'{{"name":"API_KEY","type":"x","value":"{R}"}}'),
    (f'{{"name": "DB_PASSWORD", "secure": true, "value": "{V}"}}', f'{{"name": "DB_PASSWORD", "secure": true, "value": "{R}"}}'),
    (f"- {{name: API_TOKEN, type: plain, value: {V}}}", f"- {{name: API_TOKEN, type: plain, value: {R}}}"),
    (f"api_key: >-\n  {V}\nother: 1", f"api_key: >-\n  {R}\nother: 1"),
    (f"api_key: |\n  {V}\n", f"api_key: |\n  {R}\n"),
    (f"secrets:\n  db_password: |-\n    {V}\n\n  region: eu", f"secrets:\n  db_password: |-\n    {R}\n\n  region: eu"),
    (f"- token: >\n    {V[:10]}\n    {V[10:]}\nnext: 1", f"- token: >\n    {R}\nnext: 1"),
]
STAYS = [
    "- name: API_KEY\n  valueFrom:\n    secretKeyRef:\n      name: app\n      key: api-key",
    "- name: API_KEY\n  value: ${API_KEY}",
    '- name: API_KEY\n  value: "<your-api-key>"',
    "- name: API_KEY\n  value: changeme",
    f"- name: LOG_LEVEL\n  value: {V}",
    f"- name: API_KEY\n\n  value: {V}",  # a blank line: no longer the same entry
    "token: |\n  The token you get from the dashboard,\n  pasted here.\n",
    "api_key: >-\n  ${API_KEY}\n",
    "description: |\n  Zyx987Wvu654Tsr321Qpo\n",
    "api_key: |\n  -----BEGIN NOTHING-----\n  see docs\n",
    "api_key: |\n",
    "api_key: |\nnot_indented: Zyx987Wvu654Tsr321Qpo\n",
    "The name: API_KEY. Its value: set in the console.",
    f'{{"name":"API_KEY","valueFrom":"arn:aws:ssm:x","value2":"{V}"}}',
    f'{{"name":"REGION","type":"x","value":"{V}"}}',
    '{"name":"API_KEY","type":"x","value":"<your-api-key>"}',
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_secret_on_the_line_after_its_name_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", STAYS)
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_an_env_entry_in_frontmatter_loses_its_value_too() -> None:
    """The frontmatter ``attrs`` keeps as data (``env: [{name: API_KEY, value: ...}]``)
    is redacted as a key named ``API_KEY`` would be."""
    fm = {"env": [{"name": "API_KEY", "value": V}, {"name": "REGION", "value": "eu-west-1"},
                  {"name": "TOKEN", "value": "${TOKEN}"}, {"name": "SECRET", "valueFrom": {"name": "x"}}]}
    assert redact_frontmatter(fm) == {
        "env": [{"name": "API_KEY", "value": R}, {"name": "REGION", "value": "eu-west-1"},
                {"name": "TOKEN", "value": "${TOKEN}"}, {"name": "SECRET", "valueFrom": {"name": "x"}}]
    }


def test_repair_redacts_them_in_an_item_an_older_index_holds() -> None:
    text = f"# Deploy\n\n```yaml\nenv:\n  - name: API_KEY\n    value: {V}\n```\n"
    old = Node(id="old/skills/deploy", kind="skill", name="deploy", text=text, attrs={"frontmatter": {}})
    clean = scrubbed(old)
    assert clean is not None and V not in clean.text and "name: API_KEY" in clean.text
    assert scrubbed(clean) is None


@pytest.mark.parametrize(
    "text",
    [
        "name: API_KEY\n" * 50_000,
        "- name: API_KEY\n  value:" * 50_000,
        '"name":"a",' * 50_000,
        "a: |\n" + " " * 200_000,
        "".join(f"{' ' * i}k: |\n" for i in range(2_000)),
        "token: |\n" + "  x\n" * 100_000,
    ],
)
def test_crafted_texts_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
