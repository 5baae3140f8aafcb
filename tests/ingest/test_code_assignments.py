"""A secret set in code, as a skill's examples write it, is redacted as ``NAME=value``
is: ``os.environ["OPENAI_API_KEY"] = "..."``, a typed ``token: str = "..."``, a PHP or
Ruby hash's ``"token" => "..."``, ``os.environ.setdefault("API_KEY", "...")`` and
Maven's ``<password>...</password>`` each reached ``items.sqlite`` verbatim (seen
indexing a SKILL.md with such examples), while ``API_KEY = "..."`` beside them went.
Code that reads a secret, references and placeholders stay as written.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f'os.environ["OPENAI_API_KEY"] = "{V}"', f'os.environ["OPENAI_API_KEY"] = "{R}"'),
        (f"os.environ['DB_PASSWORD']='{V}'", f"os.environ['DB_PASSWORD']='{R}'"),
        (f'ENV["API_TOKEN"] = "{V}"', f'ENV["API_TOKEN"] = "{R}"'),
        (f'config["api_key"] = "{V}"', f'config["api_key"] = "{R}"'),
        (f'token: str = "{V}"', f'token: str = "{R}"'),
        (f'let token: string = "{V}";', f'let token: string = "{R}";'),
        (f'password: Optional[str] = "{V}"', f'password: Optional[str] = "{R}"'),
        (f'"token" => "{V}",', f'"token" => "{R}",'),
        (f':api_key => "{V}"', f':api_key => "{R}"'),
        (f'os.environ.setdefault("OPENAI_API_KEY", "{V}")', f'os.environ.setdefault("OPENAI_API_KEY", "{R}")'),
        (f"os.putenv('API_KEY', '{V}')", f"os.putenv('API_KEY', '{R}')"),
        (f"<password>{V}</password>", f"<password>{R}</password>"),
        (f"  <server><id>repo</id><password>{V}</password></server>", f"  <server><id>repo</id><password>{R}</password></server>"),
    ],
)
def test_a_secret_set_in_code_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(
    "text",
    [
        "token = os.environ['API_TOKEN']",
        'api_key: str = os.environ["API_KEY"]',
        "token: str = None",
        "password: str = Field(default=None)",
        "tokens => tokens.map(t2)",
        "apiKey => apiKey.trim()",
        'os.getenv("API_KEY", None)',
        'os.environ.setdefault("API_KEY", "your-api-key")',
        'config["key"] = "value12345abc"',
        'cache["sort_key"] = "abc123def456"',
        "<password>${env.REPO_PASSWORD}</password>",
        "<password>your-password</password>",
        "<passwordPolicy>strong12345</passwordPolicy>",
        "<token>{{ secrets.TOKEN }}</token>",
        '"key" => "value12345abc"',
    ],
)
def test_code_that_reads_a_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    [
        '("api_key", ' * 20_000,
        "<password>" + "a" * 200_000,
        "<" + "a" * 200_000 + ">",
        'x["token"]' * 20_000 + " = ",
        "token: " + "str" * 60_000,
    ],
)
def test_crafted_long_lines_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
