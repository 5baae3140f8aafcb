"""A plugin that only a marketplace lists (its files kept in another repository) among
the ids of one install.

It has no member the index could write, and asking for it aborted the whole install
("has no installable components", exit 2), the other ids with it. Now it is planned as
skipped, saying where its files are and what to do (`not_installable.memberless_plugin`),
and the rest installs: exit 1, as for any component asked for by name and skipped, with
nothing of the plugin recorded. ``check_dependencies`` says it under ``not_installable``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_calls import run
from component_catalogue import files_under

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.components import ComponentService
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
AGENT = "---\nname: team-debugger\ndescription: Debugs with a team of agents.\n---\nYou debug.\n"
MARKETPLACE = {
    "name": "team-market",
    "owner": {"name": "Team"},
    "plugins": [
        {"name": "teams", "source": "./plugins/teams", "description": "Team agents."},
        {
            "name": "far-memory",
            "description": "Memory kept in another repository.",
            "source": {"source": "git-subdir", "url": "https://tok:secret@example.com/far.git", "path": "cc"},
        },
    ],
}
FAR = "repo/.claude-plugin/marketplace.json#far-memory"


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = tmp_path / "repo"
    (repo / "plugins/teams/agents").mkdir(parents=True)
    (repo / "plugins/teams/agents/team-debugger.md").write_text(AGENT)
    (repo / ".claude-plugin").mkdir()
    (repo / ".claude-plugin/marketplace.json").write_text(json.dumps(MARKETPLACE))
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


def test_the_other_ids_install_and_the_plugin_is_skipped_with_what_to_do(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "team-debugger", "far-memory", "--target", target, "--index-dir", index_dir)
    assert code == 1, out + err  # asked for by name and not installed: not ok
    assert (target / ".claude/agents/team-debugger.md").read_text() == AGENT
    line = next(x for x in out.splitlines() if x.startswith("[plugin] far-memory"))
    assert ": skipped - plugin 'far-memory' has nothing install can write" in line
    assert "git-subdir https://example.com/far.git, folder cc" in line  # its URL without the token
    assert "secret" not in out + err
    assert "/plugin install far-memory@team-market" in line
    record = json.loads((target / ".claude/.skill-retriever/installed.json").read_text())
    assert list(record["components"]) == ["repo/plugins/teams/agents/team-debugger.md"]
    assert not record.get("plugins")
    code, out, err = run(capsys, "uninstall", "team-debugger", "--target", target)
    assert code == 0, out + err
    assert files_under(target) == {}


def test_the_plugin_alone_writes_nothing(index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "far-memory", "--target", target, "--index-dir", index_dir, "--json")
    assert code == 1, out + err
    answer = json.loads(out)
    assert answer["nothing_written"] is True and answer["ok"] is False
    [plugin] = answer["components"]
    assert plugin["id"] == FAR and plugin["status"] == "skipped" and "/plugin install" in plugin["reason"]
    assert files_under(target) == {}


def test_check_dependencies_and_the_mcp_tool_say_it(index_dir: Path, tmp_path: Path) -> None:
    index = Index.open(index_dir)
    try:
        report = ComponentService(index, None, principals=["*"]).check_dependencies(["repo/plugins/teams", FAR])
        assert report["selected"] == ["repo/plugins/teams/agents/team-debugger.md"]
        assert "/plugin install far-memory@team-market" in report["not_installable"][FAR]
        server = build_server(index, retriever=Retriever(index, reranker=None))
        target = tmp_path / "proj"
        target.mkdir()
        args = {"ids": ["teams", "far-memory"], "target": str(target), "dry_run": False, "detail": "full"}
        answer = asyncio.run(server.call_tool("install_components", args)).structured_content
    finally:
        index.close()
    assert answer["applied"] is True and answer["ok"] is False, answer
    skipped = [c for c in answer["components"] if c["status"] == "skipped"]
    assert [c["id"] for c in skipped] == [FAR]
    assert (target / ".claude/agents/team-debugger.md").is_file()
