"""A reference or placeholder in an MCP server's arguments (``-e API_KEY=${API_KEY}``,
``--api-key <your-key>``) names where the secret is or goes and holds none: it stays in
the index as written, so that the server's entry still says what to set. It was
replaced by the marker, as a literal value is, which still goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_invocation
from skill_retriever.ingest.skills import ingest_skill_repo


@pytest.mark.parametrize(
    "args",
    [
        ["-e", "API_KEY=${API_KEY}"],  # docker run's form in .mcp.json
        ["--api-key", "<your-key>"],
        ["--api-key", "${API_KEY}"],
        ["--token=${env:GITHUB_TOKEN}"],  # VS Code's forms
        ["--token", "${input:github-token}"],
        ["--read-token=YOUR-TOKEN"],
        ["--clarity_api_token=your-api-token-here"],
        ["--access-token", "YOUR_META_ACCESS_TOKEN"],
        ["--password", "$DB_PASSWORD"],
        ["--token="],  # nothing to hide
    ],
)
def test_a_reference_or_placeholder_stays(args: list[str]) -> None:
    assert redact_args(args) == args


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-e", "API_KEY=s3cr3tValue99"], ["-e", f"API_KEY={REDACTED}"]),
        (["--api-key", "K3Y"], ["--api-key", REDACTED]),
        (["--password", "hunter2"], ["--password", REDACTED]),
        # no shell expands an argument: a bare ``$`` before lower case is a password's
        (["--password", "$ecretP4ss"], ["--password", REDACTED]),
        # the default is a value: it goes, and the reference stays (ingest/env_defaults.py)
        (["--token=${API_TOKEN:-t0k3nDefault}"], [f"--token=${{API_TOKEN:-{REDACTED}}}"]),
    ],
)
def test_a_literal_value_still_goes(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


def test_a_command_line_keeps_its_reference() -> None:
    assert redact_invocation("docker run -i --rm -e GITHUB_TOKEN=${GITHUB_TOKEN}", ["ghcr.io/github/server"]) == (
        "docker run -i --rm -e GITHUB_TOKEN=${GITHUB_TOKEN}",
        ["ghcr.io/github/server"],
    )


def test_the_indexed_server_says_what_to_set(tmp_path: Path) -> None:
    server = {"command": "docker", "args": ["run", "-e", "API_KEY=${API_KEY}", "img", "--secret", "s3cr3tValue99"]}
    (tmp_path / "mcps").mkdir()
    (tmp_path / "mcps/srv.json").write_text(json.dumps({"mcpServers": {"srv": server}}), encoding="utf-8")
    (node,) = ingest_skill_repo(tmp_path).nodes
    assert node.attrs["args"] == ["run", "-e", "API_KEY=${API_KEY}", "img", "--secret", REDACTED]
    assert "s3cr3tValue99" not in json.dumps(node.to_dict())
