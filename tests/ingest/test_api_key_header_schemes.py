"""A secret-looking header other than ``Authorization`` (``X-Api-Key``, ``X-Auth-Token``)
keeps a scheme word before its one credential whatever the word (Okta's ``SSWS``), as
``Authorization: SSWS X`` does: curl's ``-H``, an MCP server's ``--header`` argument and
an ``http`` hook's ``headers`` redacted the whole value, scheme and all, though the
written-out header line (``x-api-key: SSWS X``) and prose kept the scheme. The credential
goes in every form; a value of more words is no scheme and credential and goes whole, and
so does a first word under a name whose value may be a passphrase (``X-Password: correct
horse``) or one that reads as a secret itself (``Hunter2 X``)."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command, redact_headers

R = REDACTED
CRED = "q9W8e7R6t5Y4u3I2o1P0"


@pytest.mark.parametrize("scheme", ["SSWS", "Hawk", "GenieKey", "Splunk", "Bearer"])
@pytest.mark.parametrize("credential", [CRED, "X"])
@pytest.mark.parametrize(
    "form",
    [
        "curl -H 'X-Api-Key: {s} {c}' https://api.example.com",
        'curl -H "X-Auth-Token: {s} {c}" https://api.example.com',
        'curl --header "x-api-key: {s} {c}" https://api.example.com',
        "curl --header='X-Api-Key: {s} {c}' https://api.example.com",
    ],
)
def test_a_command_keeps_the_scheme_and_loses_the_credential(form: str, scheme: str, credential: str) -> None:
    command = form.format(s=scheme, c=credential)
    assert redact_command(command) == form.format(s=scheme, c=R)


@pytest.mark.parametrize("scheme", ["SSWS", "Hawk", "Bearer"])
def test_headers_and_header_arguments_keep_the_scheme(scheme: str) -> None:
    assert redact_headers({"X-Api-Key": f"{scheme} X"}) == {"X-Api-Key": f"{scheme} {R}"}
    assert redact_headers({"X-Auth-Token": f"{scheme} {CRED}"}) == {"X-Auth-Token": f"{scheme} {R}"}
    assert redact_args(["--header", f"X-Api-Key: {scheme} {CRED}"]) == ["--header", f"X-Api-Key: {scheme} {R}"]
    assert redact_args(["-H", f"X-Api-Key: {scheme} X"]) == ["-H", f"X-Api-Key: {scheme} {R}"]


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"X-Api-Key": CRED}, {"X-Api-Key": R}),
        ({"X-Api-Key": "SSWS"}, {"X-Api-Key": R}),  # one word is the value
        ({"X-Api-Key": f"SSWS {CRED} extra"}, {"X-Api-Key": R}),  # three words: no scheme
        ({"X-Password": "correct horse"}, {"X-Password": R}),  # a passphrase goes whole
        ({"X-Client-Secret": "correct horse"}, {"X-Client-Secret": R}),
        ({"X-Api-Key": f"Hunter2 {CRED}"}, {"X-Api-Key": R}),  # a first word that reads as a secret
        ({"token": "hunter2 stuff"}, {"token": R}),
        ({"X-Api-Key": "SSWS ${OKTA_TOKEN}"}, {"X-Api-Key": "SSWS ${OKTA_TOKEN}"}),
        ({"X-Api-Key": "SSWS <api-token>"}, {"X-Api-Key": "SSWS <api-token>"}),
    ],
)
def test_what_is_no_scheme_and_credential(headers: dict[str, str], expected: dict[str, str]) -> None:
    assert redact_headers(headers) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"curl -H 'X-Api-Key: {CRED}' u", f"curl -H 'X-Api-Key: {R}' u"),
        (f"curl -H 'X-Api-Key: SSWS {CRED} extra' u", f"curl -H 'X-Api-Key: {R}' u"),
        ("curl -H 'X-Password: correct horse' u", f"curl -H 'X-Password: {R}' u"),
        ('curl -H "X-Secret: correct horse" u', f'curl -H "X-Secret: {R}" u'),
        (f"curl -H 'X-Api-Key: Hunter2 {CRED}' u", f"curl -H 'X-Api-Key: {R}' u"),
        (f"curl -H 'X-Api-Key: 1Password {CRED}' u", f"curl -H 'X-Api-Key: {R}' u"),
        (f'curl --header="X-Auth-Token: pa55word {CRED}" u', f'curl --header="X-Auth-Token: {R}" u'),
        ('curl -H "X-Api-Key: SSWS $OKTA_TOKEN" u', 'curl -H "X-Api-Key: SSWS $OKTA_TOKEN" u'),
        ("curl -H 'X-Api-Key: SSWS ${OKTA_TOKEN}' u", "curl -H 'X-Api-Key: SSWS ${OKTA_TOKEN}' u"),
        ('curl -H "X-Api-Key: SSWS <token>" u', 'curl -H "X-Api-Key: SSWS <token>" u'),
    ],
)
def test_a_command_without_a_scheme_and_credential(command: str, expected: str) -> None:
    assert redact_command(command) == expected
