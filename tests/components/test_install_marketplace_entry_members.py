"""The hooks and MCP servers a plugin's marketplace entry holds inline, end to end.

An entry may carry any field of plugin.json, inline ``hooks`` and ``mcpServers`` objects
among them, and with ``"strict": false`` it is the plugin's whole definition
(https://code.claude.com/docs/en/plugin-marketplaces#strict-mode). Such hooks and servers
were only warned about when indexing: no search found them and installing the plugin left
them out. Now they are indexed as a plugin.json's inline ones are, found by a query, and
installed where Claude Code reads them: the hook into ``.claude/settings.json`` with its
``${CLAUDE_PLUGIN_ROOT}`` script copied from the folder the entry's source names (which
has no ``.claude-plugin/`` of its own), the server into ``.mcp.json``; both as the author
wrote them in the entry, secrets too, which the index keeps redacted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_schema import settings_problems
from cli_calls import run
from files import write_file

TOKEN = "sk-ant-api03-" + "c" * 40
MARKET = "repo/.claude-plugin/marketplace.json"
HOOKS = {
    "PostToolUse": [
        {
            "matcher": "Edit",
            "hooks": [
                {"type": "command", "command": '"${CLAUDE_PLUGIN_ROOT}"/scripts/lint-after-edit.sh'},
                {"type": "command", "command": f"notify-editors --api-key {TOKEN}"},
            ],
        }
    ]
}
SERVER = {"command": "npx", "args": ["-y", "@acme/ticket-tracker-mcp", "--api-key", TOKEN]}


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = tmp_path / "repo"
    entry = {
        "name": "edit-guard",
        "source": "./plugins/edit-guard",
        "description": "Lints every edited file and files tickets.",
        "strict": False,
        "hooks": HOOKS,
        "mcpServers": {"ticket-tracker": SERVER},
    }
    write_file(repo, ".claude-plugin/marketplace.json", json.dumps({"name": "acme", "owner": {"name": "Acme"}, "plugins": [entry]}))
    write_file(repo, "plugins/edit-guard/scripts/lint-after-edit.sh", "#!/bin/sh\nruff check .\n")
    write_file(repo, "skills/notes/SKILL.md", "---\nname: notes\ndescription: Keeps meeting notes.\n---\n# Notes\n")
    ix = tmp_path / "ix"
    code, out, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0 and "0 problems" in out, out + err
    return ix


def _top(capsys: pytest.CaptureFixture[str], ix: Path, query: str, kinds: str) -> str:
    code, out, err = run(capsys, "query", query, "--index-dir", ix, "--kinds", kinds, "--json")
    assert code == 0, err
    return str(json.loads(out)["results"][0]["id"])


def test_a_query_finds_the_entry_s_hook_and_server(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _top(capsys, index_dir, "ticket tracker", "mcp_server") == f"{MARKET}#edit-guard#ticket-tracker"
    assert _top(capsys, index_dir, "lint after edit", "hook") == f"{MARKET}#edit-guard#hooks"
    assert all(TOKEN.encode() not in p.read_bytes() for p in index_dir.rglob("*") if p.is_file())


def test_installing_the_plugin_writes_them_where_claude_code_reads_them(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "edit-guard", "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    settings = json.loads((target / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    (group,) = settings["hooks"]["PostToolUse"]
    assert group["matcher"] == "Edit"
    assert [h["command"] for h in group["hooks"]] == [
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/lint-after-edit.sh',
        f"notify-editors --api-key {TOKEN}",  # as written in the entry, not the redacted index
    ]
    assert (target / ".claude/hooks/scripts/lint-after-edit.sh").read_text() == "#!/bin/sh\nruff check .\n"
    assert json.loads((target / ".mcp.json").read_text())["mcpServers"] == {"ticket-tracker": SERVER}
    assert not (target / ".claude/skills/notes").exists()  # not the plugin's
    code, out, err = run(capsys, "uninstall", "edit-guard", "--target", target)
    assert code == 0, out + err
    assert not (target / ".mcp.json").exists() and not (target / ".claude/settings.json").exists()
