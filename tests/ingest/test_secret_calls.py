"""Secrets a command or a call sets without ``NAME=`` and that `redact_prose` kept
(seen checking an Android release guide and a GitHub Actions runbook): Gradle's
``storePassword "X"`` / ``keyPassword "X"`` in a ``signingConfigs`` block (a Groovy call
without parentheses) and ``gh secret set API_KEY --body X`` (or ``-b X``). The name
check and the value check of an assignment decide, so placeholders, references and
names of no secret stay.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GRADLE_GOES = [
    (f'    storePassword "{V}"', f'    storePassword "{R}"'),
    (f"        keyPassword '{V}'", f"        keyPassword '{R}'"),
    ('storePassword "hunter2xyz9"  // release', f'storePassword "{R}"  // release'),
    (
        f'signingConfigs {{\n  release {{\n    storeFile file("k.jks")\n    storePassword "{V}"\n    keyAlias "upload"\n    keyPassword "{V}"\n  }}\n}}',
        f'signingConfigs {{\n  release {{\n    storeFile file("k.jks")\n    storePassword "{R}"\n    keyAlias "upload"\n    keyPassword "{R}"\n  }}\n}}',
    ),
]
GRADLE_STAYS = [
    'storePassword "<your-store-password>"',
    "storePassword System.getenv(\"STORE_PASSWORD\")",
    'storePassword "$STORE_PASSWORD"',
    "storePassword keystoreProperties['storePassword']",
    f'keyAlias "{V}"',
    'storePassword "changeme"',
    'Password "correct horse battery staple" is an example of a passphrase',
]


@pytest.mark.parametrize(("text", "expected"), GRADLE_GOES)
def test_a_gradle_signing_password_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", GRADLE_STAYS)
def test_a_gradle_call_without_a_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


GH_GOES = [
    (f"gh secret set API_KEY --body {V}", f"gh secret set API_KEY --body {R}"),
    (f'gh secret set API_KEY -b "{V}"', f'gh secret set API_KEY -b "{R}"'),
    (f"gh secret set DB_PASSWORD --repo owner/app --body={V}", f"gh secret set DB_PASSWORD --repo owner/app --body={R}"),
    (f"gh secret set -e prod STRIPE_SECRET_KEY -b {V}", f"gh secret set -e prod STRIPE_SECRET_KEY -b {R}"),
    (f"`gh secret set NPM_TOKEN --body {V}`.", f"`gh secret set NPM_TOKEN --body {R}`."),
]
GH_STAYS = [
    'gh secret set API_KEY --body "$API_KEY"',
    "gh secret set API_KEY --body <your-api-key>",
    "gh secret set API_KEY < key.txt",
    f"gh variable set API_KEY --body {V}",
    "gh secret set API_KEY -b your_api_key",
]


@pytest.mark.parametrize(("text", "expected"), GH_GOES)
def test_a_value_gh_secret_set_takes_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", GH_STAYS)
def test_gh_secret_set_without_a_literal_secret_stays(text: str) -> None:
    assert redact_prose(text) == text
