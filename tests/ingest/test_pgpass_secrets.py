"""A ``.pgpass`` line's password (``db:5432:shop:bob:X``) and ``useradd -p HASH``: no name
says the value is a password, so each stayed, in prose and in hook commands (seen: a probe
of config-file shapes this session). A ``.pgpass`` line is read only in a text that names
the file. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"```\n# ~/.pgpass\ndb.example.com:5432:shop:bob:{PW}\n```", f"```\n# ~/.pgpass\ndb.example.com:5432:shop:bob:{R}\n```"),
        (f"Add to ~/.pgpass:\n\n    localhost:5432:*:postgres:{PW}\n", f"Add to ~/.pgpass:\n\n    localhost:5432:*:postgres:{R}\n"),
        (f'echo "db:5432:shop:bob:{PW}" >> ~/.pgpass', f'echo "db:5432:shop:bob:{R}" >> ~/.pgpass'),
        (f"echo '*:*:*:bob:{PW}' > ~/.pgpass && chmod 600 ~/.pgpass", f"echo '*:*:*:bob:{R}' > ~/.pgpass && chmod 600 ~/.pgpass"),
        (f"# .pgpass\n10.0.0.5:5432:shop:bob:{PW}", f"# .pgpass\n10.0.0.5:5432:shop:bob:{R}"),
        (f"useradd -m -p '$6$salt${PW}' bob", f"useradd -m -p '{R}' bob"),
        (f"usermod -p {PW} bob", f"usermod -p {R} bob"),
    ],
)
def test_the_password_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Use ~/.pgpass with host:port:database:username:password lines",
        "pgpass\n12:30:00:xx:yy",
        "See .pgpass.\nhttp://example.com:8080:a:b:c",
        f"no such file named here\ndb:5432:shop:bob:{PW}",
        'echo "db:5432:shop:bob:$PGPASSWORD" >> ~/.pgpass',
        "useradd -m bob",
        'useradd -p "$(openssl passwd -6 $PW)" bob',
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text
