"""A password or token given to a command on its input: echoed or printed into it
(``echo X | docker login -u bob --password-stdin``, ``echo X | gh auth login
--with-token``) or in a here-string (``wrangler secret put NAME <<< X``). Only ``gh
secret set`` was read so; the others kept the value, in hook commands and prose alike
(seen: a probe of common commands this session). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

CASES = [
    (f"echo {PW} | docker login -u bob --password-stdin", f"echo {R} | docker login -u bob --password-stdin"),
    (f'printf "%s" {PW} | docker login --password-stdin', f'printf "%s" {R} | docker login --password-stdin'),
    (f"echo -n {PW} | docker login ghcr.io -u bob --password-stdin", f"echo -n {R} | docker login ghcr.io -u bob --password-stdin"),
    (f"echo {PW} | helm registry login r.io -u bob --password-stdin", f"echo {R} | helm registry login r.io -u bob --password-stdin"),
    (f"echo {PW} | gh auth login --with-token", f"echo {R} | gh auth login --with-token"),
    (f"gh auth login --with-token <<< {PW}", f"gh auth login --with-token <<< {R}"),
    (f"docker login -u bob --password-stdin <<< {PW}", f"docker login -u bob --password-stdin <<< {R}"),
    (f"wrangler secret put API_KEY <<< {PW}", f"wrangler secret put API_KEY <<< {R}"),
    (f"echo {PW} | npx wrangler secret put API_KEY", f"echo {R} | npx wrangler secret put API_KEY"),
    (f"echo -n {PW} | gcloud secrets create n --data-file=-", f"echo -n {R} | gcloud secrets create n --data-file=-"),
    (f"echo -n {PW} | gcloud secrets versions add n --data-file=-", f"echo -n {R} | gcloud secrets versions add n --data-file=-"),
    (f"docker secret create db_pw - <<< {PW}", f"docker secret create db_pw - <<< {R}"),
    (f"echo {PW} | docker secret create db_pw -", f"echo {R} | docker secret create db_pw -"),
    (f'echo "bob:{PW}" | chpasswd', f'echo "bob:{R}" | chpasswd'),
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_a_secret_given_on_input_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_prose_takes_it_too(command: str, expected: str) -> None:
    assert redact_prose(command) == expected


def test_a_runbook_line_continued() -> None:
    text = f"echo {PW} | docker login \\\n  -u bob --password-stdin"
    assert redact_prose(text) == f"echo {R} | docker login \\\n  -u bob --password-stdin"


@pytest.mark.parametrize(
    "command",
    [
        "echo $PW | docker login --password-stdin",
        'echo "$GITHUB_TOKEN" | gh auth login --with-token',
        "aws ecr get-login-password | docker login --password-stdin x",
        "cat pw.txt | docker login --password-stdin",
        "docker login --password-stdin < pw.txt",
        'echo "<your-token>" | gh auth login --with-token',
        'echo "bob:$PW" | chpasswd',
        # Not a reader of secrets: the echoed word is what it is.
        "echo hello | docker login",
        "echo done; docker login --password-stdin",
        "echo Xk9s2mQz7Lp | docker run -i img",
        "echo Xk9s2mQz7Lp | wc -c",
    ],
)
def test_what_stays(command: str) -> None:
    assert redact_command(command) == command
    assert redact_prose(command) == command
