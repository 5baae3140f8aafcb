"""An agent, command or skill whose tools name an MCP server the target will not hold is
installed with a note that says so, and what to install (`server_refs`).

Installing ``sql-reviewer`` (``tools: Read, mcp__postgres__query``) wrote the agent and said
nothing of ``postgres``, though the index links them by USES: Claude Code then offers the
agent no postgres tool (seen: a QA run this session).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

NOTE = "its tools name the MCP server(s) postgres, which the target's .mcp.json will not hold"


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    write_file(
        src, "agents/reviewer.md",
        "---\nname: sql-reviewer\ndescription: Reviews SQL migrations for locking issues\n"
        "tools: Read, mcp__postgres__query\n---\nUse the postgres tools.\n",
    )
    write_file(
        src, "skills/issues/SKILL.md",
        "---\nname: issue-triage\ndescription: Triage GitHub issues\nallowed-tools: mcp__github__list_issues, Bash\n---\nTriage.\n",
    )
    write_file(src, "agents/plain.md", "---\nname: plain\ndescription: Reads files\ntools: Read, Grep\n---\nRead.\n")
    server = {"description": "Postgres MCP server", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres"]}
    write_file(src, "mcps/pg.json", {"mcpServers": {"postgres": server}})
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    yield tmp_path / "index"


def _plan(capsys: pytest.CaptureFixture[str], index_dir: Path, project: Path, *ids: str) -> str:
    code, out, err = run(capsys, "install", *ids, "--target", project, "--index-dir", index_dir, "--dry-run")
    assert code == 0, out + err
    return out


def test_a_server_its_tools_name_and_the_target_lacks_is_noted_with_what_to_install(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _plan(capsys, index_dir, tmp_path / "proj", "sql-reviewer")
    assert NOTE in out and "install them too (postgres)" in out, out
    out = _plan(capsys, index_dir, tmp_path / "proj", "issue-triage")  # a skill's allowed-tools; no such server indexed
    assert "MCP server(s) github" in out and "add them to .mcp.json" in out, out


def test_no_note_when_the_install_brings_it_the_target_holds_it_or_no_server_is_named(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    assert "MCP server" not in _plan(capsys, index_dir, project, "sql-reviewer", "postgres")
    assert "MCP server" not in _plan(capsys, index_dir, project, "plain")
    (project / ".mcp.json").parent.mkdir(parents=True, exist_ok=True)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"postgres": {"command": "pg-mcp"}}}))
    assert "MCP server" not in _plan(capsys, index_dir, project, "sql-reviewer")
