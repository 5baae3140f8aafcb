"""Installing again a server whose placeholders the user filled in, as install asked.

Found after the uninstall fix (`test_uninstall_placeholder_values`): ``install
postgresql`` notes that its env POSTGRES_CONNECTION_STRING holds a placeholder, to set in
``.mcp.json``; once the user set it, installing the same server again said "blocked - ...
still hold(s) a placeholder value" and "configured differently; force replaces it" (exit
1), and ``--force`` would have thrown the user's value away. Now the same server with
values filled in is unchanged, and a new version of it updates the entry an earlier
install wrote, keeping the user's values where it asks for the very same placeholder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run_lines as run
from component_catalogue import files_under

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PG_KEY = "POSTGRES_CONNECTION_STRING"
NIA = {"command": "nia-mcp", "env": {"NIA_API_KEY": "YOUR_API_KEY", "NIA_REGION": "eu"}}


def servers(project: Path) -> dict[str, Any]:
    data = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return dict(data["mcpServers"])


def set_server(project: Path, name: str, entry: dict[str, Any]) -> None:
    """Write ``entry`` as server ``name`` in ``.mcp.json``, as the user would by hand."""
    data = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    data["mcpServers"][name] = entry
    (project / ".mcp.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


class Catalogue:
    """A source folder holding one server file, indexed; `publish` writes a new version."""

    def __init__(self, root: Path) -> None:
        self.repo = root / "repo"
        self.index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)

    def publish(self, entry: dict[str, Any]) -> None:
        path = self.repo / "mcps" / "servers.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"mcpServers": {"nia": entry}}), encoding="utf-8")
        run_ = index_sources(self.index, [self.repo], "skills", calibrate=False)
        assert not [p for s in run_.sources for p in s.problems]


@pytest.fixture
def catalogue(tmp_path: Path) -> Iterator[Catalogue]:
    cat = Catalogue(tmp_path)
    cat.publish(NIA)
    yield cat
    cat.index.close()


def filled(entry: dict[str, Any], key: str = "nia-123") -> dict[str, Any]:
    return {**entry, "env": {**entry["env"], "NIA_API_KEY": key}}


def test_the_same_server_filled_in_is_unchanged(catalogue: Catalogue, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    first = install(catalogue.index, ["nia"], project)
    assert first.ok and "NIA_API_KEY still hold(s) a placeholder" in first.components[0].reason
    set_server(project, "nia", filled(NIA))
    again = install(catalogue.index, ["nia"], project)
    assert again.ok
    (c,) = again.components
    assert c.status == "unchanged"
    assert [(f.action, f.reason) for f in c.files] == [("unchanged", "keeping the value you set for env NIA_API_KEY")]
    assert "placeholder" not in c.reason  # the value the note asked for is set
    assert servers(project)["nia"] == filled(NIA)


def test_a_value_left_to_fill_is_still_noted(catalogue: Catalogue, tmp_path: Path) -> None:
    two = {"command": "nia-mcp", "env": {"NIA_API_KEY": "YOUR_API_KEY", "NIA_SECRET": "YOUR_SECRET"}}
    catalogue.publish(two)
    project = tmp_path / "proj"
    install(catalogue.index, ["nia"], project)
    set_server(project, "nia", filled(two))
    (c,) = install(catalogue.index, ["nia"], project).components
    assert c.status == "unchanged"
    assert "its env NIA_SECRET still hold(s) a placeholder value" in c.reason
    assert "NIA_API_KEY" not in c.reason


def test_a_new_version_keeps_the_values_set_and_uninstall_removes_it(catalogue: Catalogue, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(catalogue.index, ["nia"], project)
    set_server(project, "nia", filled(NIA))
    newer = {**NIA, "args": ["--read-only"]}
    catalogue.publish(newer)
    plan = install(catalogue.index, ["nia"], project)  # no force needed
    assert plan.ok
    (f,) = plan.components[0].files
    assert (f.action, f.reason) == (
        "overwrite", "updates what an earlier install of it wrote (keeping the value you set for env NIA_API_KEY)"
    )
    assert servers(project)["nia"] == filled(newer)
    report = uninstall(["nia"], project)
    assert report.ok and report.filled == {".mcp.json#nia": ["env NIA_API_KEY"]}
    assert not report.restored  # the earlier version was install's, not the user's: nothing to put back
    assert files_under(project) == {}


def test_a_new_version_unfilled_updates_without_force(catalogue: Catalogue, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(catalogue.index, ["nia"], project)
    newer = {**NIA, "args": ["--read-only"]}
    catalogue.publish(newer)
    (c,) = install(catalogue.index, ["nia"], project).components
    assert c.status == "install" and c.files[0].action == "overwrite"
    assert servers(project)["nia"] == newer
    assert uninstall(["nia"], project).ok and files_under(project) == {}


def test_a_placeholder_the_new_version_changed_drops_its_value(catalogue: Catalogue, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(catalogue.index, ["nia"], project)
    set_server(project, "nia", filled(NIA))
    newer = {"command": "nia-mcp", "env": {"NIA_TOKEN": "YOUR_TOKEN", "NIA_REGION": "eu"}}
    catalogue.publish(newer)
    (c,) = install(catalogue.index, ["nia"], project).components
    assert "the new version no longer asks for env NIA_API_KEY: the value you set goes" in c.files[0].reason
    assert servers(project)["nia"] == newer
    assert "its env NIA_TOKEN still hold(s) a placeholder value" in c.reason


def test_any_other_change_of_the_users_still_blocks(catalogue: Catalogue, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(catalogue.index, ["nia"], project)
    mine = {**filled(NIA), "env": {"NIA_API_KEY": "nia-123", "NIA_REGION": "us"}}
    set_server(project, "nia", mine)
    catalogue.publish({**NIA, "args": ["--read-only"]})
    (c,) = install(catalogue.index, ["nia"], project).components
    assert c.status == "blocked" and c.files[0].action == "blocked"
    assert servers(project)["nia"] == mine


# -- the walkthrough, on the real catalogue, through the CLI ---------------------------
def test_install_postgresql_again_after_setting_its_value(
    database_mcps_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    argv = ("install", "postgresql", "--target", str(project), "--index-dir", str(database_mcps_dir))
    assert run(capsys, *argv)[0] == 0
    entry = servers(project)["postgresql"]
    set_server(project, "postgresql", {**entry, "env": {PG_KEY: "${PG_URL}"}})
    code, said = run(capsys, *argv)
    assert code == 0, said
    assert f"  unchanged .mcp.json#postgresql: keeping the value you set for env {PG_KEY}" in said
    assert not any("placeholder" in line or "force" in line for line in said)
    assert servers(project)["postgresql"]["env"] == {PG_KEY: "${PG_URL}"}
