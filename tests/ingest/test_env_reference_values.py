"""A secret-named value that is code reading the environment (``password=os.environ['PW']``,
``token=process.env.TOKEN``) names where the secret lives and holds none, as ``$PW``
does: it is kept. The command rule read it as a shell word, cut at its quote, so a hook's
command showed ``password=[redacted]'PW']`` and ``token=[redacted]``; an MCP server's
``["-e", "token=process.env.TOKEN"]`` lost the value, and so did a skill's frontmatter
``api_key: process.env.OPENAI_API_KEY``. The prose rules kept them already (a SKILL.md
body). A literal under the same names still goes, and so does a read with anything after
it (``os.environ['PW']x7Zq9Wr2``) where the value was redacted before; a read with a
default (``os.getenv('PW', 'X')``) loses the default alone. An Actions expression in single quotes (``echo
'TOKEN=${{ secrets.TOKEN }}'``) lost its ``${{``. Through a real ingest (a skill, its frontmatter, hooks, an MCP
server config) and through the rule functions. Ruby's ``ENV["TOKEN"]`` and
``ENV.fetch('TOKEN')`` are such reads too; the command rule cut them at ``[`` or ``(``
(``password=[redacted]"TOKEN"]``, ``--password=[redacted]('TOKEN')``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from code_reads_repo import ingest_code_repo

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_invocation

R = REDACTED
PW = "Tr0ub4dor3Xq"

#: Values that read a secret from where it lives: each kept verbatim after a secret's name.
READS = [
    "os.environ['PW']",
    'os.environ["DB_PASSWORD"]',
    "os.environ.get('PW')",
    'os.getenv("OPENAI_API_KEY")',
    "process.env.TOKEN",
    "process.env['TOKEN']",
    'ENV["TOKEN"]',
    "ENV.fetch('TOKEN')",
    '"$PW"',
    "${PW}",
    "${{ secrets.API_TOKEN }}",
    "${{ github.token }}",
]


def _hook(line: str) -> str:
    """A hook command running ``line`` as code, quoted as its quotes allow."""
    if '"' in line:
        return f"node -e '{line}; go()'"
    return f'python -c "import os; {line}; go()"' + (f" && node -e '{line}'" if "'" not in line else "")


def test_environment_reads_are_kept_through_an_ingest(tmp_path: Path) -> None:
    lines = [f"password={v}" if "{{" not in v else f"API_TOKEN={v}" for v in READS]
    body = "Connect with:\n\n```\n" + "\n".join(lines) + "\n```\n"
    frontmatter = "api_key: process.env.OPENAI_API_KEY\npassword: os.environ['DB_PASSWORD']\n"
    hooks = {f"h{i}": _hook(line) for i, line in enumerate(lines)}
    args = {f"m{i}": ["-e", line] for i, line in enumerate(lines)}
    args["flags"] = ["--password", "os.environ['PW']", "--token=process.env.TOKEN"]
    nodes = ingest_code_repo(tmp_path, body, frontmatter, hooks, args)
    assert all(line in nodes["demo"].text for line in lines)
    assert nodes["demo"].attrs["frontmatter"]["api_key"] == "process.env.OPENAI_API_KEY"
    assert nodes["demo"].attrs["frontmatter"]["password"] == "os.environ['DB_PASSWORD']"
    for name, command in hooks.items():
        assert nodes[name].attrs["command"] == command, name
    for name, a in args.items():
        assert nodes[name].attrs["args"] == a, name


def test_literals_under_the_same_names_still_go_through_an_ingest(tmp_path: Path) -> None:
    body = f"```\npassword='hunter2'\nPASSWORD={PW}\ntoken=process.env.TOKEN\n```\n"
    hooks = {
        "literal": f"python -c \"password='{PW}'\" && PASSWORD=hunter2 ./run",
        "tail": f"python -c \"token=process.env.T{PW}.x\"",
    }
    args = {"lit": ["-e", f"token={PW}"], "default": ["-e", f"password=os.getenv('PW','{PW}')"]}
    nodes = ingest_code_repo(tmp_path, body, f"api_key: {PW}\n", hooks, args)
    assert f"```\npassword='{R}'\nPASSWORD={R}\ntoken=process.env.TOKEN\n```" in nodes["demo"].text
    assert nodes["demo"].attrs["frontmatter"]["api_key"] == R
    assert nodes["literal"].attrs["command"] == f"python -c \"password='{R}'\" && PASSWORD={R} ./run"
    assert nodes["tail"].attrs["command"] == f'python -c "token={R}"'
    assert nodes["lit"].attrs["args"] == ["-e", f"token={R}"]
    # The read stays and its default goes (`env_defaults`, test_env_default_values.py).
    assert nodes["default"].attrs["args"] == ["-e", f"password=os.getenv('PW','{R}')"]


@pytest.mark.parametrize("value", READS)
def test_a_read_after_a_secret_name_is_kept_by_the_rules(value: str) -> None:
    for line in (f"password={value}", f"const token={value}; run(token)", f"mytool --password={value}"):
        assert redact_command(line) == line
        assert redact_prose(line) == line
    assert redact_invocation("node", ["-e", f"token={value}"]) == ("node", ["-e", f"token={value}"])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("password='hunter2'", f"password='{R}'"),
        ("token=ghp_" + "a1B2" * 9, f"token={R}"),
        ("PASSWORD=hunter2", f"PASSWORD={R}"),
        (f"token=process.env.TOKEN.x{PW}", f"token={R}"),
    ],
)
def test_a_literal_or_more_than_a_read_still_goes(line: str, expected: str) -> None:
    assert redact_command(line) == expected


@pytest.mark.parametrize("expression", ["${{ secrets.DEPLOY_TOKEN }}", "${{secrets.DEPLOY_TOKEN}}", "${{ github.token }}"])
def test_an_actions_expression_in_single_quotes_is_kept(expression: str) -> None:
    command = f"echo 'DEPLOY_TOKEN={expression}' >> .env && curl -d 'token={expression}' https://x"
    assert redact_command(command) == command
