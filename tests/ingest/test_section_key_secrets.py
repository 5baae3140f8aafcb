"""A bare ``"Key"`` in a JSON section named for a credential (ASP.NET's ``"Jwt": {"Key":
"X"}``, ``JwtSettings``, ``Auth``, ``ApiKeys``, ``Secrets``): prose kept its value, ``key``
alone being no secret's name. Its value goes whatever it looks like, a passphrase a person
typed as much as a machine's token, and so does one after a nested object in the section
(both kept before the secrets15 brief: ``PASSPHRASE_LEAKS``, and the nested case moved here
from the kept list); a placeholder, a reference, an empty value, code, a header's name, a
describing phrase, a ``Key`` of any other section (``"Cache"``) and ``{"key": "<hex>"}``
alone stay. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
#: An invented secret, shaped as a literal one (letters and digits, 24 characters).
V = "Hx5Nq2Wd8Kf3Zt7Mb4Pr9Cv6"
#: An invented 40-digit hexadecimal key.
HEX = "c4e8a1f7b3d9025e6a8c1f4b7d3e9a2c5f0b8d6e"

#: Sections that kept their key before, each as prose keeps it now.
PROSE_LEAKS = [
    (f'"Jwt": {{"Key": "{V}", "Issuer": "app"}}', f'"Jwt": {{"Key": "{R}", "Issuer": "app"}}'),
    (
        f'{{\n  "JwtSettings": {{\n    "Issuer": "app",\n    "Key": "{V}",\n    "Audience": "web"\n  }}\n}}',
        f'{{\n  "JwtSettings": {{\n    "Issuer": "app",\n    "Key": "{R}",\n    "Audience": "web"\n  }}\n}}',
    ),
    (f'"Auth": {{ "key": "{HEX}" }}', f'"Auth": {{ "key": "{R}" }}'),
    (f"'ApiKeys': {{'Key': '{V}'}}", f"'ApiKeys': {{'Key': '{R}'}}"),
    (f'"Secrets": {{"KEY": "{HEX}"}}', f'"Secrets": {{"KEY": "{R}"}}'),
    (f'{{\\"Jwt\\": {{\\"Key\\": \\"{V}\\"}}}}', f'{{\\"Jwt\\": {{\\"Key\\": \\"{R}\\"}}}}'),
]
#: Keys that are no credential, or whose section does not say they are: kept.
PROSE_KEPT = [
    f'{{"key": "{HEX}"}}',
    f'"Cache": {{"Key": "{V}"}}',
    '"Jwt": {"Key": "your-secret-key-here-at-least-32-chars"}',
    '"Jwt": {"Key": "<jwt-signing-key>"}',
    '"Jwt": {"Key": "${JWT_KEY}"}',
    '"Auth": {"Header": "X-Api-Key", "Key": "X-Api-Key"}',
    f'"Jwt": {{"Issuer": "app"}},\n"Cache": {{"Key": "{V}"}}',
    f'"Jwt": {{"Issuer": "app"}},\n"Key": "{V}"',  # the section closed before the key
    f'"Jwt": {{"Options": {{"Clock": 5}}}},\n"Key": "{V}"',
]
#: Values a person typed, or keys after a nested object in the section: kept before, now
#: redacted as a machine's token was.
PASSPHRASE_LEAKS = [
    (
        '"Jwt": {"Key": "ThisIsMySuperSecretKey123", "Issuer": "app"}',
        f'"Jwt": {{"Key": "{R}", "Issuer": "app"}}',
    ),
    ('"JwtSettings": {"Key": "super-secret-key-change-in-production"}', f'"JwtSettings": {{"Key": "{R}"}}'),
    ('"Jwt": {"Key": "Correct-Horse-Battery-Staple"}', f'"Jwt": {{"Key": "{R}"}}'),
    ('"Secrets": {"Key": "correct horse battery staple"}', f'"Secrets": {{"Key": "{R}"}}'),
    ('"Jwt": {"Key": "hunter2"}', f'"Jwt": {{"Key": "{R}"}}'),
    (f'"Jwt": {{"Options": {{"Clock": 5}}, "Key": "{V}"}}', f'"Jwt": {{"Options": {{"Clock": 5}}, "Key": "{R}"}}'),
    (
        '"Jwt": {"Audience": {"a": 1}, "Key": "ThisIsMySuperSecretKey123"}',
        f'"Jwt": {{"Audience": {{"a": 1}}, "Key": "{R}"}}',
    ),
    (
        '{\n  "Jwt": {\n    "Audience": { "Web": { "Url": "x" } },\n    "Key": "ThisIsMySuperSecretKey123"\n  }\n}',
        f'{{\n  "Jwt": {{\n    "Audience": {{ "Web": {{ "Url": "x" }} }},\n    "Key": "{R}"\n  }}\n}}',
    ),
]
#: What only shows where a signing key goes, or names where it is, or is no key: kept
#: whatever the section.
PLACEHOLDERS_KEPT = [
    '"Jwt": {"Key": "your-secret-key"}',
    '"Jwt": {"Key": "<secret>"}',
    '"Jwt": {"Key": "CHANGE_ME"}',
    '"Jwt": {"Key": "changeme"}',
    '"Jwt": {"Key": "xxx"}',
    '"Jwt": {"Key": "..."}',
    '"Jwt": {"Key": ""}',
    '"Jwt": {"Key": "$JWT_KEY"}',
    '"Jwt": {"Key": "{jwt_key}"}',
    '"Jwt": {"Key": "keys/jwt-signing.pem"}',
    '"Jwt": {"Key": "Configuration.Jwt.Key"}',
    '"Jwt": {"Key": "the JWT signing key, 32 bytes or more"}',
    '"ApiKeys": {"Key": "Ocp-Apim-Subscription-Key"}',
    '"Auth": {"Key": "Authorization"}',
]


@pytest.mark.parametrize(("text", "kept"), PROSE_LEAKS)
def test_prose_redacts_a_key_in_a_credentials_section(text: str, kept: str) -> None:
    assert redact_prose(text) == kept


@pytest.mark.parametrize(("text", "kept"), PASSPHRASE_LEAKS)
def test_prose_redacts_a_typed_or_nested_section_key(text: str, kept: str) -> None:
    assert redact_prose(text) == kept


@pytest.mark.parametrize("text", PLACEHOLDERS_KEPT)
def test_prose_keeps_a_section_keys_placeholder(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize("text", PROSE_KEPT)
def test_prose_keeps_other_keys_and_placeholders(text: str) -> None:
    assert redact_prose(text) == text


def test_prose_with_a_redacted_section_key_is_stable() -> None:
    """Applying the rules twice changes nothing more (`redact_prose`'s promise)."""
    once = redact_prose(f'"Jwt": {{"Key": "{V}"}}')
    assert once != f'"Jwt": {{"Key": "{V}"}}'
    assert redact_prose(once) == once


#: Sections with a brace inside a string before the key (a note's ``{x}``, a pattern's
#: ``}``): the section finder counted it as JSON's and lost the section, so the key stayed
#: (the secrets16 brief); a JSON string, escapes and all, is stepped over now.
STRING_BRACE_LEAKS = [
    ('"Jwt": {"Note": "use {x} here }", "Key": "S3cr3tPassphrase!"}', f'"Jwt": {{"Note": "use {{x}} here }}", "Key": "{R}"}}'),
    (f'"Jwt": {{"Note": "a }} b", "Key": "{V}"}}', f'"Jwt": {{"Note": "a }} b", "Key": "{R}"}}'),
    (f'"Jwt": {{"Note": "opens {{ here", "Key": "{V}"}}', f'"Jwt": {{"Note": "opens {{ here", "Key": "{R}"}}'),
    (
        f'{{\n  "Jwt": {{\n    "Format": "\\"{{}}\\" }}\\\\",\n    "Key": "{V}"\n  }}\n}}',
        f'{{\n  "Jwt": {{\n    "Format": "\\"{{}}\\" }}\\\\",\n    "Key": "{R}"\n  }}\n}}',
    ),
]
#: A brace inside a string of another section, or a key after its section closed: kept.
STRING_BRACE_KEPT = [
    f'"Cache": {{"Note": "see Jwt: {{ here", "Key": "{V}"}}',
    f'"Jwt": {{"Note": "}}"}},\n"Cache": {{"Key": "{V}"}}',
]


@pytest.mark.parametrize(("text", "kept"), STRING_BRACE_LEAKS)
def test_prose_steps_over_braces_inside_strings(text: str, kept: str) -> None:
    assert redact_prose(text) == kept


@pytest.mark.parametrize("text", STRING_BRACE_KEPT)
def test_prose_keeps_a_key_a_string_brace_does_not_put_in_a_credentials_section(text: str) -> None:
    assert redact_prose(text) == text
