"""An ``auth`` setting that holds basic credentials, base64 of ``user:password``
(``.npmrc``'s ``_auth=X``, a Docker ``config.json``'s ``{"auth": "X"}``), is redacted in
prose: ``auth`` alone names no secret to prose (``auth: true``, ``auth: oauth2``), so the
credentials stayed in a runbook that quotes the file. The value must read as such a blob
(base64 that decodes to printable text) as well as a literal secret, so an ``auth``
setting's word (``auth: basicAuth1234567``) stays."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
BLOB = "ZGVwbG95OlRyMHViNGRvcjNYcQ=="  # deploy:Tr0ub4dor3Xq
BARE = "VHIwdWI0ZG9yM1hxc2VjcmV0"  # Tr0ub4dor3Xqsecret


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"_auth={BARE}\nalways-auth=true", f"_auth={R}\nalways-auth=true"),
        (f"Add `_auth = {BLOB}` to .npmrc", f"Add `_auth = {R}` to .npmrc"),
        (f'{{"auths": {{"ghcr.io": {{"auth": "{BLOB}"}}}}}}', f'{{"auths": {{"ghcr.io": {{"auth": "{R}"}}}}}}'),
        (f"registry:\n  auth: {BLOB}", f"registry:\n  auth: {R}"),
    ],
)
def test_basic_credentials_under_auth_go(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(
    "text",
    [
        "auth: true",
        '"auth": "oauth2"',
        "auth: basicAuth1234567",  # base64's letters, but no text inside
        '"auth": "${DOCKER_AUTH}"',
        "_auth=<base64 of user:password>",
        "auth = AuthMiddleware2024",
        "always-auth=true",
    ],
)
def test_an_auth_setting_without_credentials_stays(text: str) -> None:
    assert redact_prose(text) == text
