"""In shell an unquoted ``NAME=value word`` is an assignment and then the command it runs:
``AUTH_TYPE=basic ./run`` sets ``AUTH_TYPE`` and runs ``./run``. The command rule read an
auth scheme there as the scheme of a credential and redacted the command
(``AUTH_TYPE=basic [redacted]``, seen running ``redact_command`` over it), which broke
the hook command the installer writes back. Only in quotes is the pair a scheme and its
credential (``-d "token=Bearer X"``, ``-e 'AUTH=Bearer X'``, ``AUTH="Bearer X"``), or
unquoted where the word after the scheme is shaped as a credential and no command (letters
and digits, 8 or more, no path): a heredoc or ``.env`` line written by a hook,
``AUTH_HEADER=Bearer q9W8...``, is the file's text, not a command, and it leaked once the
unquoted pair was kept.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
W = "q9W8e7R6t5Y4u3I2o1P0"

STAYS = [
    "AUTH_TYPE=basic ./run",
    "AUTH_SCHEME=bearer npm start",
    "AUTH_MODE=token uvicorn app:app --reload",
    "AUTH=Bearer ./deploy.sh --prod",
    "cd api && AUTH_TYPE=digest python3 serve.py",
    "AUTH_TYPE=basic make build-linux",
    "AUTH_MODE=bearer $HOME/bin/serve9000",
    "AUTH_MODE=bearer /usr/local/bin/serve9000",
    "AUTH_MODE=bearer ~/bin/serve9000",
]
GOES = [
    (f'curl -d "token=Bearer {W}" https://x', f'curl -d "token=Bearer {R}" https://x'),
    (f'helm install x --set "scope=read,auth.token=Bearer {W}"', f'helm install x --set "scope=read,auth.token=Bearer {R}"'),
    (f'docker run -e "AUTH_TOKEN=Bearer {W}" img', f'docker run -e "AUTH_TOKEN=Bearer {R}" img'),
    (f'AUTH="Bearer {W}" ./run', f'AUTH="Bearer {R}" ./run'),
    (f"AUTH_TYPE=basic PASSWORD={W} ./run", f"AUTH_TYPE=basic PASSWORD={R} ./run"),
    (f"cat > .env <<EOF\nAUTH_HEADER=Bearer {W}\nEOF", f"cat > .env <<EOF\nAUTH_HEADER=Bearer {R}\nEOF"),
    (f"echo AUTH_TOKEN=Token {W}== >> .env", f"echo AUTH_TOKEN=Token {R} >> .env"),
    ("AUTH=Basic dXNlcjpw/YXNz+d29yZA1 ./x", f"AUTH=Basic {R} ./x"),
]


@pytest.mark.parametrize("text", STAYS)
def test_an_unquoted_scheme_is_the_variable_s_value_and_the_command_stays(text: str) -> None:
    assert redact_command(text) == text


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_a_quoted_scheme_and_credential_lose_the_credential(text: str, expected: str) -> None:
    assert redact_command(text) == expected
