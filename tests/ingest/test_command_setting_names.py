"""A command's setting whose name holds a secret word only as a qualifier keeps its value:
``--max-tokens 4096``, ``MAX_TOKENS=4096``, ``TOKEN_FILE=/run/secrets/token``,
``--api-key-env OPENAI_API_KEY``. The command rules (`redact_command`, `redact_args`)
took any value under a name that held ``key``, ``token``, ``secret``, ``passw`` or
``auth``, so the index, search and an MCP server rebuilt from it held ``[redacted]``
where a number or a path was (seen: ``redact_args(['MAX_TOKENS=4096', '--max-tokens',
'4096'])`` and ``redact_command('app --token-limit 100')``), while prose kept them. Now a
name is a secret's own by its last word, as prose reads it (`setting_names`), and under
any other only a number or a path stays (``TOKEN_FILE=Xk9mQ2pL7vR4`` and ``TOKEN_V2=hunter``
go); under a secret's own name any value still goes, a number too (``--password 1234``).
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_formats import REDACTED as R
from skill_retriever.ingest.secrets import redact_args, redact_command
from skill_retriever.ingest.setting_names import secret_own_name

V = "q9W8e7R6t5Y4u3I2o1P0"

SETTING_ARGS = [
    ["MAX_TOKENS=4096", "--max-tokens", "4096"],
    ["TOKEN_FILE=/run/secrets/token", "--token-file", "/run/x"],
    ["--password-file", "/run/secrets/pw", "PASSWORD_FILE=/run/secrets/pw"],
    ["KEY_PATH=~/.ssh/id_ed25519", "--key-file", "./server.pem"],
    ["--api-key-env", "OPENAI_API_KEY", "api_key_env=OPENAI_API_KEY"],
    ["TOKEN_TTL=3600", "--token-expiry", "86400", "token_count=12", "--tokens", "5"],
    ["SECRET_NAME=prod/db", "--token-limit", "100000"],
    ["--max-tokens=${MAX_TOKENS:-4096}"],
    # an author's name, and keywords, are no secret's (`secret_values.secret_name`): MCP
    # arguments read them with the broad test, which took ``--author John`` too
    ["--author", "Jane Doe", "--authors", "Jane,Bo", "AUTHOR=jdoe", "--keywords", "a,b"],
]
SETTING_COMMANDS = [
    "app --token-limit 100",
    "MAX_TOKENS=4096 TOKEN_TTL=3600 ./run --max-tokens 4096",
    "TOKEN_FILE=/run/secrets/token app --password-file /run/secrets/pw --key-file ~/.k",
    "app --api-key-env OPENAI_API_KEY --tokens 5 token_expiry=3600",
    "SECRET_NAME=prod/db key_id=42 ./deploy",
    "curl --key ./client.pem --cert ./client.crt https://api.example.com",
    "DB_PASSWORD_PROD=/run/secrets/db API_KEY_V2=/etc/app/key ./run",
    """curl -d '{"max_tokens": "4096", "model": "m"}' https://api.example.com""",
]


@pytest.mark.parametrize("args", SETTING_ARGS)
def test_a_settings_value_in_mcp_arguments_stays(args: list[str]) -> None:
    assert redact_args(args) == args
    assert redact_prose(" ".join(args)) == " ".join(args)  # as prose keeps it


@pytest.mark.parametrize("command", SETTING_COMMANDS)
def test_a_settings_value_in_a_command_stays(command: str) -> None:
    assert redact_command(command) == command
    assert redact_prose(command) == command


ARGS_GO = [
    (["--api-key", V, "API_KEY=" + V], ["--api-key", R, "API_KEY=" + R]),
    (["--token", "1234", "GITHUB_TOKEN=abc"], ["--token", R, "GITHUB_TOKEN=" + R]),
    (["--password", "1234", "PGPASSWORD=1234"], ["--password", R, "PGPASSWORD=" + R]),
    (["SECRET_KEY=x", "--client-secret", "ab"], ["SECRET_KEY=" + R, "--client-secret", R]),
    (["--auth", "user:pass", "--password=${PW:-hunter22}"], ["--auth", R, "--password=${PW:-" + R + "}"]),
    # Under a setting's name a value that reads as a secret written out still goes.
    (["TOKEN_FILE=Xk9mQ2pL7vR4", "--max-tokens", V], ["TOKEN_FILE=" + R, "--max-tokens", R]),
]


@pytest.mark.parametrize(("args", "expected"), ARGS_GO)
def test_a_secrets_value_in_mcp_arguments_goes(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


COMMANDS_GO = [
    (f"app --api-key {V}", f"app --api-key {R}"),
    ("PASSWORD=1234 app --password 1234", f"PASSWORD={R} app --password {R}"),
    ("PGPASSWORD=1234 psql -h db", f"PGPASSWORD={R} psql -h db"),
    (f"GITHUB_TOKEN={V} gh pr list --token x", f"GITHUB_TOKEN={R} gh pr list --token {R}"),
    ("SECRET_KEY=x ./run --client-secret ab", f"SECRET_KEY={R} ./run --client-secret {R}"),
    ("mysql -u root -pHunter22 shop", f"mysql -u root -p{R} shop"),
    (f'curl -H "Authorization: Bearer {V}" x', f'curl -H "Authorization: Bearer {R}" x'),
    (f'AUTH_HEADER="Bearer {V}" ./run', f'AUTH_HEADER="Bearer {R}" ./run'),
    ("http --auth user:pass x", f"http --auth {R} x"),
    # Under a setting's name only a number or a path stays: a word, a pair or a PIN goes.
    ("KEY=value app --key pappg", f"KEY={R} app --key {R}"),
    ("TOKEN_V2=hunter API_KEY_PROD=p@ss ./run", f"TOKEN_V2={R} API_KEY_PROD={R} ./run"),
    ("DB_PASSWORD_PROD=4096 ./run --password-v2 1234", f"DB_PASSWORD_PROD={R} ./run --password-v2 {R}"),
    # A vendor's key under a flag reads as its variable would (``STRIPE_KEY``).
    ("app --stripe-key 12345678 --sort-key name", f"app --stripe-key {R} --sort-key name"),
    (f"TOKEN_FILE={V} app --max-tokens {V}", f"TOKEN_FILE={R} app --max-tokens {R}"),
    (f"""curl -d '{{"api_key": "1234", "max_tokens": "{V}"}}' x""", f"""curl -d '{{"api_key": "{R}", "max_tokens": "{R}"}}' x"""),
]


@pytest.mark.parametrize(("command", "expected"), COMMANDS_GO)
def test_a_secrets_value_in_a_command_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(
    ("name", "own"),
    [
        ("--api-key", True), ("GITHUB_TOKEN", True), ("PGPASSWORD", True), ("--client-secret", True),
        ("SECRET_KEY", True), ("--auth", True), ("BASIC_AUTH", True), ("Authorization", True),
        ("--max-tokens", False), ("TOKEN_FILE", False), ("--api-key-env", False), ("key_id", False),
        ("sort_token", True), ("REDIS_CACHE_PASSWORD", True), ("--stripe-key", True), ("openaiKey", True),
        ("SECRET_NAME", False), ("tokens", False), ("--auth-type", False), ("PUBLIC_KEY", False), ("sort_key", False),
        ("--key", False), ("API_KEY_V2", False),
    ],
)
def test_a_name_is_a_secrets_own_by_its_last_word(name: str, own: bool) -> None:
    assert secret_own_name(name) is own
