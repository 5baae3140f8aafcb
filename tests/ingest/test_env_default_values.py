"""A literal default of code that reads the environment goes, the read stays: every rule
kept ``password = os.getenv('PW', 'Tr0ub4dor3Xq')``, ``process.env.TOKEN || 'postgres'``
and ``export PASSWORD=${PW:-hunter2}`` as written, in a skill's, agent's and document's
prose, a hook's command and an MCP server's arguments, for the read before the default is
code, no literal. The default now goes (inside its quotes) where the variable's name is a
secret's or the default reads as a literal secret, and a default that names none stays
(``os.getenv('PORT', '8080')``, ``${HOME:-/tmp}``). Under a secret-named flag, argument or
frontmatter key the read stays too and only the default goes; before, the flag rule cut
the read at its ``(`` (``--password=[redacted]('PW','postgres')``) and the argument and
frontmatter rules redacted it whole. Through a real ingest and through the rule functions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from code_reads_repo import ingest_code_repo

from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command, redact_invocation

R = REDACTED
#: Lines whose default leaked, each as the index keeps it now.
LEAKS = [
    ("password = os.getenv('PW', 'Tr0ub4dor3Xq')", f"password = os.getenv('PW', '{R}')"),
    ('db_pass = os.environ.get("DB_PASSWORD", "postgres")', f'db_pass = os.environ.get("DB_PASSWORD", "{R}")'),
    ("const token = process.env.TOKEN || 'postgres';", f"const token = process.env.TOKEN || '{R}';"),
    ('const key = process.env["API_KEY"] ?? "letmein";', f'const key = process.env["API_KEY"] ?? "{R}";'),
    ("export PASSWORD=${PW:-hunter2}", f"export PASSWORD=${{PW:-{R}}}"),
    ("export PASSWORD=${PW-hunter2}", f"export PASSWORD=${{PW-{R}}}"),
    ("export PASSWORD=${PW:=hunter2}", f"export PASSWORD=${{PW:={R}}}"),
    ("export DB_PASSWORD=${DB_PASSWORD:-postgres}", f"export DB_PASSWORD=${{DB_PASSWORD:-{R}}}"),
    ('api_key = os.getenv("OPENAI_API_KEY", default="q9W8e7R6t5")', f'api_key = os.getenv("OPENAI_API_KEY", default="{R}")'),
    ("token = os.environ.get('GITHUB_TOKEN') or 'postgres'", f"token = os.environ.get('GITHUB_TOKEN') or '{R}'"),
    ('token = ENV.fetch("TOKEN", "Tr0ub4dor3Xq")', f'token = ENV.fetch("TOKEN", "{R}")'),
    ('token = ENV["API_TOKEN"] || "postgres"', f'token = ENV["API_TOKEN"] || "{R}"'),
    ('token = ENV.fetch("TOKEN") { "Tr0ub4dor3Xq" }', f'token = ENV.fetch("TOKEN") {{ "{R}" }}'),
    # An escaped quote of the default's own kind: the default was cut there, the rest kept.
    ("pw = os.getenv('PW', 'it\\'s-s3cr3t-Xq9')", f"pw = os.getenv('PW', '{R}')"),
    ('const token = process.env.TOKEN || "a\\"b-long-secret-9f";', f'const token = process.env.TOKEN || "{R}";'),
]
#: Defaults that name no secret, and reads without one: kept as written.
KEPT = [
    "port = os.getenv('PORT', '8080')",
    "level = os.environ.get('LOG_LEVEL', 'info')",
    "cd ${HOME:-/tmp}",
    "key = os.getenv('OPENAI_API_KEY', '')",
    "key = os.getenv('OPENAI_API_KEY', 'sk-...')",
    "key = process.env.API_KEY || 'your-api-key'",
    "creds = os.getenv('GOOGLE_APPLICATION_CREDENTIALS', '/etc/app/creds.json')",
    "limit = process.env.MAX_TOKENS || '1024'",
    "export AUTH_ENABLED=${AUTH_ENABLED:-false}",
    "export PASSWORD=${PW:-$(cat /run/secrets/pw)}",
    "token = ENV['TOKEN']",
    "token = ENV.fetch('TOKEN')",
]


def _hook(line: str) -> str:
    """A hook command running ``line`` as code (or as shell, a line that is shell)."""
    if line.startswith(("export ", "cd ")):
        return f"{line} && ./run"
    if '"' in line:
        return f"node -e '{line}; go()'"
    return f'python -c "import os; {line}; go()"'


def test_defaults_go_and_reads_stay_through_an_ingest(tmp_path: Path) -> None:
    lines = [line for line, _ in LEAKS] + KEPT
    kept = [line for _, line in LEAKS] + KEPT
    body = "Connect with:\n\n```\n" + "\n".join(lines) + "\n```\n"
    hooks = {f"h{i}": _hook(line) for i, line in enumerate(lines)}
    args = {f"m{i}": ["-e", line] for i, line in enumerate(lines)}
    args["flags"] = ["--password", "os.getenv('PW','postgres')", "--token=process.env.TOKEN||'postgres'"]
    front = "api_key: \"os.getenv('API_KEY', 'postgres')\"\ntoken: process.env.TOKEN || 'Tr0ub4dor3Xq'\n"
    nodes = ingest_code_repo(tmp_path, body, front, hooks, args, agent=True)
    expected_body = "Connect with:\n\n```\n" + "\n".join(kept) + "\n```"
    assert expected_body in nodes["demo"].text
    assert expected_body in nodes["db"].text
    assert nodes["demo"].attrs["frontmatter"]["api_key"] == f"os.getenv('API_KEY', '{R}')"
    assert nodes["demo"].attrs["frontmatter"]["token"] == f"process.env.TOKEN || '{R}'"
    for i, line in enumerate(kept):
        assert nodes[f"h{i}"].attrs["command"] == _hook(line), lines[i]
        assert nodes[f"m{i}"].attrs["args"] == ["-e", line], lines[i]
    assert nodes["flags"].attrs["args"] == ["--password", f"os.getenv('PW','{R}')", f"--token=process.env.TOKEN||'{R}'"]


def test_a_documents_default_goes(tmp_path: Path) -> None:
    (tmp_path / "runbook.md").write_text(
        "# Database\n\nThe service reads `os.getenv('DB_PASSWORD', 'postgres')` and falls back to"
        " `${PW:-Tr0ub4dor3Xq}`; the port is `os.getenv('PORT', '8080')`.\n",
        encoding="utf-8",
    )
    stored = "\n".join(n.text for n in ingest_documents(tmp_path).nodes)
    assert f"`os.getenv('DB_PASSWORD', '{R}')`" in stored
    assert f"`${{PW:-{R}}}`" in stored
    assert "`os.getenv('PORT', '8080')`" in stored
    assert "postgres" not in stored and "Tr0ub4dor3Xq" not in stored


@pytest.mark.parametrize(("line", "expected"), LEAKS)
def test_a_default_goes_by_the_rules(line: str, expected: str) -> None:
    assert redact_prose(line) == expected
    assert redact_command(line) == expected
    assert redact_prose(expected) == expected  # applied twice, nothing more goes
    assert redact_command(expected) == expected


@pytest.mark.parametrize("line", KEPT)
def test_a_default_that_names_no_secret_stays(line: str) -> None:
    assert redact_prose(line) == line
    assert redact_command(line) == line
    assert redact_invocation("node", ["-e", line]) == ("node", ["-e", line])


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A weak default under a secret's name: the shell rules redact it as they redact
        # ``PASSWORD=postgres``; prose keeps such a word, as it keeps ``PASSWORD=postgres``.
        ("PASSWORD=${PW:-postgres} ./run", f"PASSWORD=${{PW:-{R}}} ./run"),
        ("python -c \"password=os.getenv('PW','postgres')\"", f"python -c \"password=os.getenv('PW','{R}')\""),
        ("mytool --password=os.getenv('PW','postgres')", f"mytool --password=os.getenv('PW','{R}')"),
        ("mytool --password os.getenv('PW','postgres') -v", f"mytool --password os.getenv('PW','{R}') -v"),
        # ``auth`` alone names no secret's value: a switch under it stays.
        ("mytool --auth=${AUTH:-off}", "mytool --auth=${AUTH:-off}"),
    ],
)
def test_a_read_under_a_secret_name_loses_its_default_in_a_command(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_prose("PASSWORD=${PW:-postgres}") == "PASSWORD=${PW:-postgres}"


def test_a_read_as_a_secret_flags_argument_keeps_all_but_its_default() -> None:
    args = ["--password=os.getenv('PW','postgres')", "--api-key", "ENV.fetch('K', 'abc')", "--token=hunter2x"]
    assert redact_args(args) == [
        f"--password=os.getenv('PW','{R}')",
        "--api-key",
        f"ENV.fetch('K', '{R}')",
        f"--token={R}",
    ]
