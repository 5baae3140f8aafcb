"""A format's slot under a secret's name is no secret (``printf 'token=%(token)s\\n'``,
``"password=%-10s" % pw``): the command rule cut the value at ``(`` and redacted the
``%`` (``token=[redacted](token)s\\n``), and read a slot with flags, width or precision
(``%-10s``, ``%5.2f``) or a conversion other than ``s d r`` (``%x``) as a literal, in hook
commands and MCP arguments. Every slot stays, with the placeholders that already stayed
(``%s``, ``{token}``, ``${TOKEN}``, ``$TOKEN``, ``<token>``); text after a slot in the
same word (``%s\\tTOKEN=X``) or a literal still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
SLOTS = ["%s", "%(token)s", "%(api_key)r", "%(token)-10s", "%-10s", "%5.2f", "%d", "%x", "{token}", "{}", "${TOKEN}", "$TOKEN", "<token>"]


@pytest.mark.parametrize("slot", SLOTS)
@pytest.mark.parametrize(
    "form",
    [
        "printf 'token=SLOT\\n' \"$T\" >> .env",
        'printf "API_KEY=SLOT\\r\\n" "$K" > .env',
        "echo token=SLOT",
        "curl --token SLOT https://api.example.com",
        "curl --password=SLOT https://api.example.com",
        "python -c 'print(\"password=SLOT\" % pw)'",
        "echo '{\"token\": \"SLOT\"}' > cfg.json",
        "printf 'X-Api-Key: SLOT\\n'",
    ],
)
def test_a_slot_stays(form: str, slot: str) -> None:
    text = form.replace("SLOT", slot)
    assert redact_command(text) == text
    assert redact_prose(text) == text


@pytest.mark.parametrize("slot", SLOTS)
def test_a_slot_argument_stays(slot: str) -> None:
    args = ["--token", slot, f"--api-key={slot}", f"TOKEN={slot}"]
    assert redact_args(args) == args


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("printf 'token=Tr0ub4dor3Xq\\n'", f"printf 'token={R}\\n'"),  # the escape ends the value
        ("curl --token %-10sTr0ub4dor3Xq u", f"curl --token {R} u"),
        ("echo password=%Tr0ub4dor3Xq", f"echo password={R}"),
    ],
)
def test_a_literal_with_a_slot_in_it_still_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected
