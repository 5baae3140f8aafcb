"""A secret a sentence gives in words (``The admin password is Xk9s2mQz7Lp.``, ``Set the
passphrase to `Xk9s2mQz7Lp```): the prose rules read a value after ``=`` or ``:`` only,
so such a value stayed (seen: a probe of prose shapes this session). A sentence about a
secret keeps its words (the shapes below are the data's: ``Token is ERC721``, ``API key
is missing``). Every value here is invented.
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
        (f"The admin password is {PW}.", f"The admin password is {R}."),
        (f"Set the passphrase to `{PW}`.", f"Set the passphrase to `{R}`."),
        (f'The API key for staging was "{PW}", rotate it.', f'The API key for staging was "{R}", rotate it.'),
        (f"password for bob is {PW}", f"password for bob is {R}"),
        (f"the password for the admin user is {PW}", f"the password for the admin user is {R}"),
        (f"the API key of the staging bucket was {PW}.", f"the API key of the staging bucket was {R}."),
        (f"the access token is now {PW}", f"the access token is now {R}"),
        (f"Its secret key was set to '{PW}'", f"Its secret key was set to '{R}'"),
        (f"- the db password is {PW}\n- the host is db", f"- the db password is {R}\n- the host is db"),
    ],
)
def test_a_secret_a_sentence_gives_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the token is valid for an hour", "the password is required", "the key is stored in Vault",
        "The secret is sha256 hashed", "the token is $TOKEN", "the password is <your-password>",
        "pass the token to the API", "the key to success is practice", "the secret is in .env",
        "Token is ERC721", "Token is ERC20Votes", "API key is missing", "tokens to restore",
        "the password is changeme", "the key is RSA4096", "a BEP20 token is TRC20 too",
    ],
)
def test_a_sentence_about_a_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_install_notes_the_line() -> None:
    (found,) = secret_lines(f"intro\nThe admin password is {PW}.\n")
    assert found.line == 2 and "sentence" in found.kind
