"""Filling in an MCP server's placeholder, as install asks, does not make uninstall keep it.

Found in a walkthrough: ``install postgresql`` (davila7's claude-code-templates) notes
that its env POSTGRES_CONNECTION_STRING still holds a placeholder value, to set in
``.mcp.json``; the user set it to ``${PG_URL}``, and ``uninstall postgresql`` kept the
server as "changed since it was installed" (exit 1), leaving only ``--force``. A server
whose only changes are values install flagged as placeholders now counts as unchanged:
it goes, and the report names the values the user had set. Any other change still keeps
it. Which values were placeholders is judged from the entry the record holds as written
(`filled_in`), so a record written before this rule is judged alike.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run_lines as run
from component_catalogue import files_under
from mcp_servers_index import servers_index as index_of

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

PG = ".mcp.json#postgresql"
PG_KEY = "POSTGRES_CONNECTION_STRING"
#: The user's own .mcp.json, there before the install.
USERS_OWN = '{\n  "mcpServers": {"mine": {"command": "my-server"}}\n}\n'


def mcp_json(project: Path) -> dict[str, Any]:
    data = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def edit_server(project: Path, name: str, change: Any) -> None:
    """Apply ``change`` to the server's entry in ``.mcp.json``, as the user would by hand."""
    data = mcp_json(project)
    change(data["mcpServers"][name])
    (project / ".mcp.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


# -- the walkthrough, on the real catalogue --------------------------------------------
def test_a_filled_in_placeholder_is_removed_and_said(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p4"
    project.mkdir()
    code, said = run(capsys, "install", "postgresql", "--target", str(project), "--index-dir", str(database_mcps_dir))
    assert code == 0
    assert any(f"its env {PG_KEY} still hold(s) a placeholder value" in line for line in said)
    edit_server(project, "postgresql", lambda s: s["env"].update({PG_KEY: "${PG_URL}"}))

    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project), "--dry-run")
    assert code == 0
    assert f"  would remove {PG} (with the value you set for env {PG_KEY})" in said
    assert mcp_json(project)["mcpServers"]["postgresql"]["env"][PG_KEY] == "${PG_URL}"

    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project))
    assert code == 0, said
    assert f"  removed {PG} (with the value you set for env {PG_KEY})" in said
    assert not any("kept" in line or "still recorded" in line for line in said)
    assert files_under(project) == {}  # the .mcp.json install made goes too, and the record


def test_any_other_change_still_keeps_the_server(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p4"
    project.mkdir()
    assert main(["install", "postgresql", "--target", str(project), "--index-dir", str(database_mcps_dir)]) == 0

    def filled_and_more(server: dict[str, Any]) -> None:
        server["env"][PG_KEY] = "${PG_URL}"
        server["args"].append("--read-only")

    edit_server(project, "postgresql", filled_and_more)
    kept = mcp_json(project)
    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project))
    assert code == 1
    assert f"  kept {PG}: changed since it was installed" in said
    assert mcp_json(project) == kept
    # the placeholder deleted instead of set is a change too
    edit_server(project, "postgresql", lambda s: (s["args"].pop(), s.pop("env")))
    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project))
    assert code == 1 and f"  kept {PG}: changed since it was installed" in said
    # --force still removes it, as a change, not as a filled-in value
    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project), "--force")
    assert code == 0
    assert f"  removed {PG}: changed since it was installed, removed as it was (force)" in said
    assert files_under(project) == {}


def test_unchanged_is_removed_with_nothing_said_of_values(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p4"
    project.mkdir()
    (project / ".mcp.json").write_text(USERS_OWN, encoding="utf-8")
    assert main(["install", "postgresql", "--target", str(project), "--index-dir", str(database_mcps_dir)]) == 0
    code, said = run(capsys, "uninstall", "postgresql", "--target", str(project))
    assert code == 0 and f"  removed {PG}" in said
    assert (project / ".mcp.json").read_text(encoding="utf-8") == USERS_OWN


# -- each kind of placeholder install notes, and the MCP tool ---------------------------
SERVERS = {
    "hf": {"type": "http", "url": "https://hf.co/mcp", "headers": {"Authorization": "Bearer <YOUR_HF_TOKEN>"}},
    "choose": {"type": "http", "url": "https://mcp.example.com/{minimal | full}"},
    "db-arg": {"command": "db-mcp", "args": ["--dsn", "postgresql://user:password@localhost/app"]},
    "nia": {"command": "nia-mcp", "env": {"NIA_API_KEY": "YOUR_API_KEY", "NIA_REGION": "eu"}},
}
#: What the user sets each placeholder to, and what the report names.
FILLED = {
    "hf": (lambda s: s["headers"].update({"Authorization": "Bearer ${HF_TOKEN}"}), "headers Authorization"),
    "choose": (lambda s: s.update({"url": "https://mcp.example.com/full"}), "url"),
    "db-arg": (lambda s: s["args"].__setitem__(1, "${DB_URL}"), "args[1]"),
    "nia": (lambda s: s["env"].update({"NIA_API_KEY": "nia-123"}), "env NIA_API_KEY"),
}


@pytest.fixture
def servers_index(tmp_path: Path) -> Iterator[Index]:
    with index_of(tmp_path, SERVERS) as index:
        yield index


def test_each_kind_of_placeholder_once_set_counts_as_unchanged(servers_index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    plan = install(servers_index, sorted(SERVERS), project)
    assert plan.ok and all("placeholder" in c.reason for c in plan.components)
    for name, (fill, _) in FILLED.items():
        edit_server(project, name, fill)
    report = uninstall(sorted(SERVERS), project)
    assert report.ok and not report.forced
    assert report.filled == {f".mcp.json#{name}": [said] for name, (_, said) in FILLED.items()}
    assert report.to_dict()["removed_with_your_values"] == report.filled
    assert files_under(project) == {}


def test_a_value_install_did_not_flag_is_still_a_change(servers_index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(servers_index, ["nia"], project)
    edit_server(project, "nia", lambda s: s["env"].update({"NIA_API_KEY": "nia-123", "NIA_REGION": "us"}))
    report = uninstall(["nia"], project)
    assert not report.ok and report.kept == {".mcp.json#nia": "changed since it was installed"}
    assert report.filled == {}


def test_the_mcp_tool_says_the_values_set_too(servers_index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(servers_index, ["nia"], project)
    edit_server(project, "nia", FILLED["nia"][0])
    server = build_server(servers_index, retriever=Retriever(servers_index, reranker=None))
    ids = [next(i for i, n in servers_index.snapshot().nodes.items() if n.name == "nia")]
    args: dict[str, Any] = {"ids": ids, "target": str(project)}
    plan = asyncio.run(server.call_tool("uninstall_components", args)).structured_content
    assert plan["ok"] is True
    assert "would remove .mcp.json#nia (with the value you set for env NIA_API_KEY)" in plan["summary"]
    done = asyncio.run(server.call_tool("uninstall_components", {**args, "dry_run": False})).structured_content
    assert done["ok"] is True and "removed .mcp.json#nia (with the value you set for env NIA_API_KEY)" in done["summary"]
    assert files_under(project) == {}
