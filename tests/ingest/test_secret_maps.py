"""A map named for secrets and keyed by whose they are (YAML's ``passwords:`` then ``admin:
X``, JSON's ``"credentials": {"bob": "X"}``): each key is a user's or a service's name,
which names no secret, so the value stayed (seen: a probe of config-file shapes this
session). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_lines import secret_lines
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"```yaml\npasswords:\n  admin: {PW}\n  bob: '{PW}2'\nother: x\n```", f"```yaml\npasswords:\n  admin: {R}\n  bob: '{R}'\nother: x\n```"),
        (f"credentials:\n  bob: {PW}\n", f"credentials:\n  bob: {R}\n"),
        (f"basic_auth:\n  users_passwords:\n    admin: {PW}\n  realm: x", f"basic_auth:\n  users_passwords:\n    admin: {R}\n  realm: x"),
        (f"api_keys:\n  billing: {PW}  # rotate\n  search: ${{SEARCH_KEY}}", f"api_keys:\n  billing: {R}  # rotate\n  search: ${{SEARCH_KEY}}"),
        (f'{{"credentials": {{"bob": "{PW}", "note": "alice"}}}}', f'{{"credentials": {{"bob": "{R}", "note": "alice"}}}}'),
        (f'{{"api-keys": {{"billing": "{PW}"}}}}', f'{{"api-keys": {{"billing": "{R}"}}}}'),
        # a nested map is no value of its key (test_next_line_secret_values.py): each goes alone
        ("secrets:\n  db: Zyx987Wvu654Tsr321Qpo\n  api: Zyx987Wvu654Tsr321Qpo", f"secrets:\n  db: {R}\n  api: {R}"),
    ],
)
def test_a_secret_maps_values_go(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "passwords:\n  min_length: 12\n  require_symbols: true",  # a policy, no secrets
        "tokens:\n  - name: a\n    value: b",  # a list is not read
        "secrets:\n  db:\n    host: db.internal",  # a nested map is not read
        f"passwords:\n  admin: alice\nadmin: {PW}x",  # after the map ends
        "mypasswords:\n  admin: x",
        'passwords:\n  admin: "<your password>"',
        '"ApiKeys": {"Key": "Ocp-Apim-Subscription-Key"}',  # a setting's key and a header's name
        '{"api_keys": {"header": "X-Api-Key", "in": "header"}}',
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_install_notes_the_line() -> None:
    (found,) = secret_lines(f"passwords:\n  admin: {PW}\n")
    assert found.line == 2 and "map named for secrets" in found.kind
