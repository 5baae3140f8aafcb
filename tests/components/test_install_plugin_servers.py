"""A plugin's MCP servers install with it, into the project's ``.mcp.json``.

Claude Code reads a plugin's servers from ``.mcp.json`` at the plugin's root (with or
without the ``mcpServers`` key) or inline in its ``plugin.json`` (``"mcpServers": {...}``).
The inline ones were not indexed at all and a root ``.mcp.json`` without the key was a
problem ("nothing to index"), so installing the plugin wrote its agents without the
server they call. Now both are members of the plugin and install as any MCP server does:
the entry from the file, a server of that name the project configured otherwise kept
unless ``--force``, uninstall taking it back; the index keeps no secret of them (the
plugin's own record names its inline servers only). One that runs from the plugin's
folder (``${CLAUDE_PLUGIN_ROOT}``) stays skipped, saying so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever import Retriever
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
KEY = "sk-live-abcdef1234567890XYZ"
MANIFEST = {
    "name": "db-kit",
    "description": "Database helpers.",
    "mcpServers": {
        "db-api": {"command": "npx", "args": ["-y", "@x/db-mcp", "--api-key", KEY], "env": {"DB_URL": "${DB_URL}"}}
    },
}
FLAT = {"net-tools": {"command": "uvx", "args": ["net-mcp"]}, "runner": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/run"}}


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/db-kit/.claude-plugin/plugin.json", json.dumps(MANIFEST))
    write_file(repo, "plugins/db-kit/agents/db-helper.md", "---\nname: db-helper\ndescription: Uses db-api.\n---\nGo.\n")
    write_file(repo, "plugins/net-kit/.mcp.json", json.dumps(FLAT))
    write_file(repo, "plugins/net-kit/skills/net/SKILL.md", "---\nname: net\ndescription: Network checks.\n---\n# Net\n")
    ix = tmp_path / "ix"
    code, out, err = run(capsys, "index", repo, "--index-dir", ix, *HASHING)
    assert code == 0 and "0 problems" in out, out + err
    return ix


def test_a_plugins_inline_and_root_servers_install_with_it_and_go_with_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    (target / ".mcp.json").write_text('{"mcpServers": {"mine": {"command": "x"}}}\n')
    code, out, err = run(capsys, "install", "db-kit", "net-kit", "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    assert "create .mcp.json#db-api" in out and "create .mcp.json#net-tools" in out
    assert "[mcp_server] runner" in out and "skipped - it runs from its plugin's folder" in out
    servers = json.loads((target / ".mcp.json").read_text())["mcpServers"]
    assert servers["db-api"] == MANIFEST["mcpServers"]["db-api"]  # from the file, as written
    assert servers["net-tools"] == FLAT["net-tools"] and "runner" not in servers
    assert servers["mine"] == {"command": "x"}
    assert (target / ".claude/agents/db-helper.md").is_file()
    code, out, err = run(capsys, "uninstall", "db-kit", "net-kit", "--target", target)
    assert code == 0, out + err
    assert (target / ".mcp.json").read_text() == '{"mcpServers": {"mine": {"command": "x"}}}\n'


def test_a_server_of_that_name_configured_otherwise_is_kept(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    mine = '{"mcpServers": {"db-api": {"command": "my-own-db"}}}\n'
    (target / ".mcp.json").write_text(mine)
    code, out, _ = run(capsys, "install", "db-kit", "--target", target, "--index-dir", index_dir)
    assert code == 1 and ".mcp.json#db-api" in out and "force" in out, out
    assert (target / ".mcp.json").read_text() == mine


def test_the_index_keeps_no_secret_of_a_plugins_inline_server(index_dir: Path) -> None:
    index = Index.open(index_dir)
    try:
        snap = index.snapshot()
        plugin = snap.get("repo/plugins/db-kit")
        server = snap.get("repo/plugins/db-kit/.claude-plugin/plugin.json#db-api")
    finally:
        index.close()
    assert plugin.attrs["plugin_json"]["mcpServers"] == ["db-api"]  # its name only
    assert KEY not in json.dumps(server.attrs) and "[redacted]" in server.attrs["args"]
    assert all(KEY.encode() not in p.read_bytes() for p in index_dir.rglob("*") if p.is_file())


def test_an_index_built_before_shows_a_plugins_inline_servers_by_name_only(index_dir: Path) -> None:
    """An index built before the manifest kept names only holds ``plugin_json`` as written;
    the MCP tool's ``detail="full"`` shows its servers and hooks by their names still."""
    index = Index.open(index_dir)
    try:
        plugin = index.snapshot().get("repo/plugins/db-kit")
        old = {**MANIFEST, "hooks": {"PreToolUse": [{"command": f"curl -H 'Authorization: {KEY}'"}]}}
        index.upsert(dataclasses.replace(plugin, attrs={**plugin.attrs, "plugin_json": old}))
        assert index.snapshot().get("repo/plugins/db-kit").attrs["plugin_json"] == old  # as an old index holds it
        server = build_server(index, retriever=Retriever(index, reranker=None))
        args = {"id": "repo/plugins/db-kit", "detail": "full"}
        answer = asyncio.run(server.call_tool("get_component", args)).structured_content
    finally:
        index.close()
    shown = answer["attrs"]["plugin_json"]
    assert shown["mcpServers"] == ["db-api"] and shown["hooks"] == ["PreToolUse"], shown
    assert shown["description"] == MANIFEST["description"]
    assert KEY not in json.dumps(answer)
