"""A client's own password flag passed to an MCP server (or an exec-form hook) as its
``command`` and ``args`` (``sshpass -p X``, ``docker login -p X``, ``redis-cli -a X``,
``curl -u user:X``, ``openssl ... -passout pass:X``, ``kubectl create secret generic n
--from-literal=password=X``) is redacted as the command rule redacts it in a hook's shell
command: `redact_args` read each argument alone, by its own flag's name, and none of
these flags names a secret, so the password stayed in the index, an install plan and the
``.mcp.json`` written from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.ingest.argv_text import redact_joined
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_invocation
from skill_retriever.ingest.skills import ingest_skill_repo

R = REDACTED
PW = "Tr0ub4dor3Xq"


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        ("sshpass", ["-p", PW, "ssh", "deploy@host"], ["-p", R, "ssh", "deploy@host"]),
        ("docker", ["login", "-u", "deploy", "-p", PW, "registry.example.com"], ["login", "-u", "deploy", "-p", R, "registry.example.com"]),
        ("redis-cli", ["-h", "cache", "-a", PW, "ping"], ["-h", "cache", "-a", R, "ping"]),
        ("curl", ["-u", f"admin:{PW}", "https://api.example.com"], ["-u", f"admin:{R}", "https://api.example.com"]),
        ("curl", ["--user", f"admin:{PW}", "https://api.example.com"], ["--user", f"admin:{R}", "https://api.example.com"]),
        ("openssl", ["pkcs12", "-export", "-passout", f"pass:{PW}"], ["pkcs12", "-export", "-passout", f"pass:{R}"]),
        ("mysql", ["-u", "root", f"-p{PW}", "app"], ["-u", "root", f"-p{R}", "app"]),
        (
            "kubectl",
            ["create", "secret", "generic", "db", f"--from-literal=password={PW}"],
            ["create", "secret", "generic", "db", f"--from-literal=password={R}"],
        ),
        # an argument is one word, whatever it holds: the whole password goes
        ("sshpass", ["-p", "correct horse;battery", "ssh", "host"], ["-p", R, "ssh", "host"]),
        ("openssl", ["enc", "-pass", "pass:a 'b' c"], ["enc", "-pass", f"pass:{R}"]),
    ],
)
def test_a_client_password_argument_goes(command: str, args: list[str], expected: list[str]) -> None:
    assert redact_invocation(command, args) == (command, expected)
    assert redact_args([command, *args]) == [command, *expected]
    assert redact_invocation(command, expected) == (command, expected)


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        # no shell reads an argument: ``$`` before a password's other letters is its own,
        # as `redact_args` reads ``--password $ecretP4ss``
        ("sshpass", ["-p", "$ecretP4ss", "ssh", "host"], ["-p", R, "ssh", "host"]),
        ("curl", ["-u", "admin:$ecretP4ss", "https://x.example"], ["-u", f"admin:{R}", "https://x.example"]),
        ("sshpass", ["-p", "$SSH_PASS", "ssh", "host"], ["-p", "$SSH_PASS", "ssh", "host"]),  # a placeholder
        ("curl", ["-u", "admin:${API_PASS}", "https://x.example"], ["-u", "admin:${API_PASS}", "https://x.example"]),
    ],
)
def test_a_dollar_in_an_argument_is_a_reference_only_as_a_placeholder(
    command: str, args: list[str], expected: list[str]
) -> None:
    assert redact_invocation(command, args) == (command, expected)


def test_a_client_password_in_the_command_line_goes() -> None:
    assert redact_invocation(f"sshpass -p {PW} ssh", ["host"]) == (f"sshpass -p {R} ssh", ["host"])


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("sshpass", ["-p", "${SSH_PASSWORD}", "ssh", "host"]),  # the client fills it in
        ("docker", ["login", "-u", "deploy", "-p", "<password>", "ghcr.io"]),
        ("docker", ["run", "-i", "--rm", "-p", "8080:8080", "mcp/server"]),  # a port
        ("docker", ["login", "--password-stdin", "ghcr.io"]),
        ("curl", ["-u", "admin", "https://api.example.com"]),  # curl asks for it
        ("npx", ["-y", "@benborla29/mcp-server-mysql", "-p", "3306"]),
        ("uvx", ["mcp-server-redis", "-a", "localhost"]),
        ("kubectl", ["create", "secret", "generic", "db", "--from-literal=password=${DB_PASSWORD}"]),
    ],
)
def test_an_invocation_without_a_client_password_stays(command: str, args: list[str]) -> None:
    assert redact_invocation(command, args) == (command, args)


def test_a_rule_that_joins_arguments_redacts_those_it_touched() -> None:
    # a rule that reads past an argument's end (none does now) cannot map back word by
    # word: the arguments it changed go whole, the others stay
    def joining(text: str) -> str:
        return text.replace("-p x y", f"-p {R}")

    assert redact_joined(["a", "-p", "x", "y", "b"], joining) == ["a", "-p", R, R, "b"]


def test_no_field_of_an_mcp_server_keeps_a_client_password(tmp_path: Path) -> None:
    server = {"command": "sshpass", "args": ["-p", PW, "ssh", "deploy@host", "mcp-server"]}
    source = tmp_path / "mcps" / "remote.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"mcpServers": {"remote": server}}), encoding="utf-8")
    result = ingest_skill_repo(tmp_path)
    assert result.problems == []
    (node,) = result.nodes
    assert PW not in json.dumps(node.to_dict())
    assert node.attrs["args"][:2] == ["-p", R]
