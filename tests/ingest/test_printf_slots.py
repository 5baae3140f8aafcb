"""A ``printf`` format's slot under a secret's name (``printf 'API_KEY=%s\\n' "$KEY" >>
.env``) stays in a hook's command: the slot rule read ``%s`` only at the value's end,
and the ``\\n`` escape after it made ``%s\\n`` a literal, so the index showed
``API_KEY=[redacted]`` where no secret was. A literal before the escape still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED


@pytest.mark.parametrize(
    "command",
    [
        "printf 'API_KEY=%s\\n' \"$KEY\" >> .env",
        'printf "DB_PASSWORD=%s\\r\\n" "$PW" > .env',
    ],
)
def test_a_printf_slot_stays(command: str) -> None:
    assert redact_command(command) == command


def test_a_literal_before_an_escape_still_goes() -> None:
    assert redact_command("printf 'API_KEY=abc123def456\\n' >> .env") == f"printf 'API_KEY={R}\\n' >> .env"
    # the escape ends the slot's value: a secret after it is an assignment of its own
    command = "printf 'API_KEY=%s\\tTOKEN=abc123def456\\n' \"$A\""
    assert redact_command(command) == f"printf 'API_KEY=%s\\tTOKEN={R}\\n' \"$A\""
