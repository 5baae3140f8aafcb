"""An MCP server entry or a hook whose source holds a real key: install writes it as the
source has it (a command must run as written) into ``.mcp.json`` or
``.claude/settings.json``, files a project shares through git.

The plan names each such entry, text and ``--json``, with where the value is (``args[3]``,
``env LEAKY_TOKEN``, ``headers Authorization``, ``command``), never the key, and a
warning to check the file before committing it; an agent (the MCP tool) does not write
it: the server or hook is held back, with the CLI command that installs it, as a copied
file holding a key is (tests/components/test_install_credential_files.py). Before, both
were written with nothing said, by the CLI and by an agent alike, while the index keeps
each of those values redacted (seen: installing a server whose source holds
``--api-key sk-live-...`` and a Stop hook that posts to Slack with a bot token).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run, run_lines
from mcp_in_process import tool_answers

from skill_retriever.cli import main
from skill_retriever.components.install.entry_credentials import SecretSpot, entry_spots

# Made up, of the forms the ingest rules know (a GitHub token, a Slack bot token).
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
API_KEY = "sk-live-" + "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
SERVERS = {
    "leaky": {"command": "npx", "args": ["-y", "leaky-mcp", "--api-key", API_KEY], "env": {"LEAKY_TOKEN": TOKEN}},
    "remote": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": f"Bearer {API_KEY}"}},
    "clean": {"command": "npx", "args": ["-y", "clean-mcp", "--api-key", "${CLEAN_KEY}"],
              "env": {"CLEAN_TOKEN": "<your-token>", "LOG_LEVEL": "info"}},
}
HOOK_COMMAND = f"curl -s -H 'Authorization: Bearer {SLACK}' https://slack.com/api/chat.postMessage -d text=done"
WARNING = (
    "this entry holds what looks like a credential; install writes it as its source has it: check {file} "
    "before you commit it (a value may come from the environment instead: {how})"
)


def test_the_spots_are_named_and_references_and_placeholders_are_none() -> None:
    assert entry_spots(SERVERS["leaky"], None) == (SecretSpot("args[3]"), SecretSpot("env LEAKY_TOKEN"))
    assert entry_spots(SERVERS["remote"], None) == (SecretSpot("headers Authorization"),)
    assert entry_spots(SERVERS["clean"], None) == ()
    assert entry_spots(None, {"type": "command", "command": HOOK_COMMAND}) == (SecretSpot("command"),)
    assert entry_spots(None, {"type": "command", "command": "curl -H \"Authorization: Bearer $SLACK_TOKEN\" x"}) == ()
    exec_form = {"type": "command", "command": "notify", "args": ["--token", SLACK, "done"]}
    assert entry_spots(None, exec_form) == (SecretSpot("args[1]"),)
    assert entry_spots({"command": "server --api-key", "args": ["Xk9q2Lm7Pz4Rt8Vw"]}, None) == (SecretSpot("args[0]"),)


def test_settings_under_a_secret_looking_name_are_no_spots() -> None:
    # what the shell rules of a hook's index text would take, and no file rule does
    settings = {"command": "npx", "args": ["-y", "x", "--max-tokens", "4096", "--token-file", "/run/secrets/t"],
                "env": {"MAX_TOKENS": "4096", "TOKEN_FILE": "/run/secrets/token", "SECRET_NAME": "prod/db",
                        "PASSWORD_MIN_LENGTH": "8", "KEY": "value", "API_KEY": ""}}
    assert entry_spots(settings, None) == ()
    assert entry_spots(None, {"type": "command", "command": "llm --max-tokens 4096 summarize"}) == ()


@pytest.fixture
def ix(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "mcps").mkdir(parents=True)
    (repo / "mcps" / "servers.json").write_text(json.dumps({"mcpServers": SERVERS}), encoding="utf-8")
    (repo / "hooks").mkdir()
    (repo / "hooks" / "slack-done.json").write_text(json.dumps({
        "description": "Post to Slack when Claude stops.",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": HOOK_COMMAND}]}]},
    }), encoding="utf-8")  # fmt: skip
    out = tmp_path / "ix"
    assert main(["index", str(repo), "--index-dir", str(out), "--embedder", "hashing-64"]) == 0
    return out


def test_the_cli_writes_them_and_says_where(ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proj = tmp_path / "proj"
    where = ["--target", proj, "--index-dir", ix]
    code, lines = run_lines(capsys, "install", "leaky", "remote", "clean", "slack-done", *where, "--dry-run")
    assert code == 0, lines
    mcp = WARNING.format(file=".mcp.json", how="${VAR} in .mcp.json").split("; ", 1)
    hook = WARNING.format(file=".claude/settings.json", how="$VAR in the hook's command").split("; ", 1)
    at = lines.index("  would create .mcp.json#leaky")
    assert lines[at + 1] == f"    warning: {mcp[0]} (args[3], env LEAKY_TOKEN); {mcp[1]}"
    at = lines.index("  would create .mcp.json#remote")
    assert lines[at + 1] == f"    warning: {mcp[0]} (headers Authorization); {mcp[1]}"
    at = lines.index("  would add hook Stop to .claude/settings.json")
    assert lines[at + 1] == f"    warning: {hook[0]} (command); {hook[1]}"
    at = lines.index("  would create .mcp.json#clean")
    assert at + 1 == len(lines) or not lines[at + 1].startswith("    warning")
    assert not any(secret in line for line in lines for secret in (TOKEN, API_KEY, SLACK))
    code, out, _ = run(capsys, "install", "leaky", "remote", "clean", "slack-done", *where, "--json")
    assert code == 0 and not any(secret in out for secret in (TOKEN, API_KEY, SLACK))
    files = {f["path"]: f for c in json.loads(out)["components"] for f in c["files"]}
    assert files[".mcp.json#leaky"]["credential_lines"] == [{"where": "args[3]"}, {"where": "env LEAKY_TOKEN"}]
    assert files[".mcp.json#leaky"]["warning"] == WARNING.format(file=".mcp.json", how="${VAR} in .mcp.json")
    assert files[".claude/settings.json#hooks.Stop[]"]["credential_lines"] == [{"where": "command"}]
    assert "credential_lines" not in files[".mcp.json#clean"]
    # written as the source has them: the CLI's user sees the warning and decides
    assert json.loads((proj / ".mcp.json").read_text())["mcpServers"]["leaky"] == SERVERS["leaky"]
    assert SLACK in (proj / ".claude" / "settings.json").read_text()


def test_an_agent_gets_them_held_back(ix: Path, tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    args = {"ids": ["leaky", "clean", "slack-done"], "target": str(proj)}
    answers = tool_answers(ix, ["*"], {
        "plan": ("install_components", args),
        "real": ("install_components", args | {"dry_run": False, "detail": "full"}),
    })  # fmt: skip
    assert not any(secret in json.dumps(answers) for secret in (TOKEN, API_KEY, SLACK))
    got = answers["real"]
    status = {c["name"]: (c["status"], c.get("reason", "")) for c in got["components"]}
    assert status["clean"][0] == "install"
    assert status["leaky"] == ("skipped", "held back: .mcp.json#leaky hold(s) what looks like a credential")
    assert status["slack-done"] == (
        "skipped", "held back: .claude/settings.json#hooks.Stop[] hold(s) what looks like a credential")
    assert got["held_back"]["files"] == [".mcp.json#leaky", ".claude/settings.json#hooks.Stop[]"]
    assert got["held_back"]["command"].startswith("skill-retriever install ")
    assert answers["plan"]["summary"][-1].startswith("held back: 2 file(s) or entries holding what looks like a credential")
    assert list(json.loads((proj / ".mcp.json").read_text())["mcpServers"]) == ["clean"]
    assert not (proj / ".claude" / "settings.json").exists()
