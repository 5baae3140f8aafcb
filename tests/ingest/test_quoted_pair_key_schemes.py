"""A quoted pair under a secret-looking header's name keeps a scheme word before its one
credential in a hook's command (``headers={"X-Api-Key": "SSWS X"}`` in a ``python -c``
script, ``echo '{"x-api-key": "SSWS X"}'``), as ``curl -H 'X-Api-Key: SSWS X'``, prose
and ``redact_headers`` keep it: the quoted-pair rule knew only the standard schemes
(``Bearer``) and took the whole value, the scheme dropped with the secret. A first word
that is no scheme (a passphrase's name, ``X-Password``; a word that reads as a secret)
still goes with the credential, and a reference after the scheme stays."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
CRED = "q9W8e7R6t5Y4u3I2o1P0"


@pytest.mark.parametrize("scheme", ["SSWS", "Hawk", "GenieKey", "Bearer"])
@pytest.mark.parametrize(
    "form",
    [
        """python -c 'requests.get(u, headers={{"X-Api-Key": "{s} {c}"}})'""",
        """python -c "requests.get(u, headers={{'X-Auth-Token': '{s} {c}'}})\"""",
        """echo '{{"x-api-key": "{s} {c}"}}' > headers.json""",
    ],
)
def test_a_quoted_pair_keeps_the_scheme(form: str, scheme: str) -> None:
    command = form.format(s=scheme, c=CRED)
    expected = form.format(s=scheme, c=R)
    assert redact_command(command) == expected
    assert redact_prose(command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("""echo '{"X-Password": "correct horse"}'""", f"""echo '{{"X-Password": "{R}"}}'"""),
        (f"""echo '{{"X-Api-Key": "Hunter2x {CRED}"}}'""", f"""echo '{{"X-Api-Key": "{R}"}}'"""),
        (f"""echo '{{"X-Api-Key": "SSWS {CRED} extra"}}'""", f"""echo '{{"X-Api-Key": "{R}"}}'"""),
        ("""echo '{"X-Api-Key": "SSWS <token>"}'""", """echo '{"X-Api-Key": "SSWS <token>"}'"""),
        ("""python -c 'h = {"X-Api-Key": "SSWS {key}"}'""", """python -c 'h = {"X-Api-Key": "SSWS {key}"}'"""),
    ],
)
def test_what_is_no_scheme_and_credential(command: str, expected: str) -> None:
    assert redact_command(command) == expected
