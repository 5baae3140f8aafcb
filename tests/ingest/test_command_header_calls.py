"""A header that code sets with a call, its name and its value the call's first two
arguments: ``xhr.setRequestHeader('Authorization', 'Bearer X')``, ``headers.set(...)``,
``.header("X-Api-Key", "X")``, Go's ``req.Header.Set(...)``. Prose redacted the
credential and the command rule (hook commands, code in a hook's script) kept it: its
header rules read ``name: value`` only (seen running ``redact_command`` over such a line).
The scheme stays; a reference, placeholder or a credential code appends stays whole.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
V = "q9W8e7R6t5Y4u3I2o1P0"

GOES = [
    (f"xhr.setRequestHeader('Authorization', 'Bearer {V}');", f"xhr.setRequestHeader('Authorization', 'Bearer {R}');"),
    (f'headers.set("Authorization", "Token {V}")', f'headers.set("Authorization", "Token {R}")'),
    (f'.header("X-Api-Key", "{V}")', f'.header("X-Api-Key", "{R}")'),
    (f'req.Header.Set("Authorization", "Bearer {V}")', f'req.Header.Set("Authorization", "Bearer {R}")'),
    (f'req.Header.Add("X-Auth-Token", "{V}")', f'req.Header.Add("X-Auth-Token", "{R}")'),
    (f'headers.append("Authorization", `Bearer {V}`)', f'headers.append("Authorization", `Bearer {R}`)'),
    (f'setHeader("Authorization", "SSWS {V}")', f'setHeader("Authorization", "SSWS {R}")'),
    (f'.header( "Proxy-Authorization" , "Basic {V}" )', f'.header( "Proxy-Authorization" , "Basic {R}" )'),
    (f'.header(AUTHORIZATION, "Bearer {V}")', f'.header(AUTHORIZATION, "Bearer {R}")'),
    (f'.header(header::AUTHORIZATION, "Bearer {V}")', f'.header(header::AUTHORIZATION, "Bearer {R}")'),
    (f'new Headers([["Authorization", "Bearer {V}"]])', f'new Headers([["Authorization", "Bearer {R}"]])'),
    (f'headers.add("Authorization", f"Bearer {V}")', f'headers.add("Authorization", f"Bearer {R}")'),
    (f'node -e "x.setHeader(\\"X-Api-Key\\", \\"{V}\\")"', f'node -e "x.setHeader(\\"X-Api-Key\\", \\"{R}\\")"'),
]
STAYS = [
    'xhr.setRequestHeader("Authorization", "Bearer " + token)',
    'req.Header.Set("Authorization", "Bearer "+token)',
    "xhr.setRequestHeader('Authorization', `Bearer ${token}`)",
    'xhr.setRequestHeader("Authorization", "Bearer $TOKEN")',
    'headers.set("Authorization", "Bearer {token}")',
    'headers.set("Authorization", "Bearer <your-token>")',
    'headers.set("Authorization", "Bearer")',
    'headers.set("Authorization", token)',
    'xhr.setRequestHeader("Content-Type", "application/json")',
    '.header("X-Api-Key", "your-api-key")',
    '.header("X-Api-Key", apiKey)',
    '.header("X-Api-Key", "required")',
    # Under another name than Authorization a word is no credential.
    '.header("X-Api-Key", "Hello world")',
    f'.header("X-Request-Id", "{V}")',
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_header_a_call_sets_loses_its_credential(text: str, expected: str) -> None:
    assert redact_command(text) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize("text", STAYS)
def test_a_call_without_a_credential_stays(text: str) -> None:
    assert redact_command(text) == text


@pytest.mark.parametrize(("text", "expected"), GOES[:8])
def test_prose_reads_them_as_the_command_rule_does(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
