"""A tool list links a component to an MCP server only where an entry names a server.

davila7's agents list the VS Code Copilot tools they were written for (``codebase, fetch,
findTestFiles, githubRepo, search``); the catalogue also ships MCP servers called
``fetch``, ``github`` and ``filesystem``, and every bare ``fetch`` became a USES edge to
that server: 73 such edges on the catalogue (47 to ``fetch``), shown as dependencies in the
graph and its explanations, against 3 that an entry really names (``context7/*``,
``github/*``, ``terraform/*``, VS Code's form for all tools of a server).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.ingest.skills import ingest_skill_repo, ingest_skill_repos
from skill_retriever.ingest.tool_servers import server_named
from skill_retriever.model import EdgeKind

DAVILA7 = Path(__file__).resolve().parents[3] / "shared/data/skills/davila7__claude-code-templates"
SERVERS = {"mcpServers": {name: {"command": "npx", "args": [f"{name}-mcp"]} for name in ("fetch", "github")}}


def _agent(name: str, tools: str, key: str = "tools") -> str:
    return f"---\nname: {name}\ndescription: The {name} agent.\n{key}: {tools}\n---\n\nBody.\n"


def test_only_a_form_that_names_a_server_links_to_it(tmp_path: Path) -> None:
    (tmp_path / "mcps").mkdir()
    (tmp_path / "mcps/servers.json").write_text(json.dumps(SERVERS))
    (tmp_path / "agents").mkdir()
    agents = {
        "copilot": "codebase, fetch, githubRepo, search, github",  # tool names: no server
        "toolset": "web/fetch, edit/editFiles",  # VS Code tool sets: no server
        "claude": "Read, mcp__fetch__fetch",
        "whole-server": "[Read, mcp__github]",
        "vscode-server": "read, github/*",
    }
    for name, tools in agents.items():
        (tmp_path / f"agents/{name}.md").write_text(_agent(name, tools))
    (tmp_path / "agents/listed.md").write_text(_agent("listed", "[fetch]", key="mcp_servers"))
    result = ingest_skill_repo(tmp_path)
    names = {n.id: n.name for n in result.nodes}
    uses = {(names[e.source], names[e.target]) for e in result.edges if e.kind is EdgeKind.USES}
    assert uses == {("claude", "fetch"), ("whole-server", "github"), ("vscode-server", "github"), ("listed", "fetch")}


@pytest.mark.parametrize(
    ("entry", "server"),
    [("mcp__github__get_issue", "github"), ("mcp__github", "github"), ("github/*", "github"),
     ("fetch", None), ("Read", None), ("edit/editFiles", None), ("a/b/*", None), ("mcp__", None)],
)
def test_server_named(entry: str, server: str | None) -> None:
    assert server_named(entry) == server


@pytest.mark.skipif(not DAVILA7.is_dir(), reason="shared skills data not present")
def test_davila7_agents_use_only_the_servers_they_name() -> None:
    result = ingest_skill_repos([DAVILA7])
    names = {n.id: n.name for n in result.nodes}
    uses = sorted((names[e.source], names[e.target]) for e in result.edges if e.kind is EdgeKind.USES)
    assert uses == [("context7", "context7"), ("custom-agent-foundry", "github"), ("terraform", "terraform")]
