"""An install then an uninstall leaves a project as it was, byte for byte: a shared JSON
file that was there comes back with its own bytes once its content is the original's
again (not re-serialised), and its permissions are kept throughout; the folders the
install made go once empty, those that were there stay, and so does anything the user
added or changed."""

from __future__ import annotations

import json
from pathlib import Path

from component_catalogue import files_under

from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

COMPACT_SETTINGS = b'{"model": "opus", "hooks": {}}'
COMPACT_MCP = b'{"mcpServers": {"mine": {"command": "my-mcp"}}}\r\n'
IDS = ["fastapi-service-scaffold", "format-on-save", "deploy-control", "api-reviewer"]


def folders(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}


def test_a_round_trip_gives_back_the_shared_files_byte_for_byte(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    settings, mcp = target / ".claude/settings.json", target / ".mcp.json"
    settings.write_bytes(COMPACT_SETTINGS)
    settings.chmod(0o600)
    mcp.write_bytes(COMPACT_MCP)
    before = files_under(target)
    assert install(sample_index, IDS, target).ok
    assert json.loads(settings.read_text())["hooks"] and settings.stat().st_mode & 0o777 == 0o600
    assert set(json.loads(mcp.read_text())["mcpServers"]) == {"mine", "deploy-control"}
    report = uninstall(IDS, target)
    assert report.ok
    assert files_under(target) == before and settings.stat().st_mode & 0o777 == 0o600
    assert folders(target) == {".claude"}  # what the install made went with it
    # a file the user changed meanwhile keeps their change (and is written as JSON)
    install(sample_index, ["deploy-control"], target)
    data = json.loads(mcp.read_text())
    data["mcpServers"]["theirs"] = {"command": "their-mcp"}
    mcp.write_text(json.dumps(data))
    assert uninstall(["deploy-control"], target).ok
    assert json.loads(mcp.read_text()) == {
        "mcpServers": {"mine": {"command": "my-mcp"}, "theirs": {"command": "their-mcp"}}
    }


def test_the_bytes_come_back_once_the_last_entry_goes(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / ".mcp.json").write_bytes(COMPACT_MCP)
    no_hooks = b'{"env":{"A":"1"}}'  # the "hooks" object the install added goes too
    (target / ".claude/settings.json").write_bytes(no_hooks)
    before = files_under(target)
    install(sample_index, ["deploy-control"], target)
    install(sample_index, ["metrics-gateway", "write-adr", "format-on-save"], target)
    uninstall(["deploy-control"], target)
    assert (target / ".mcp.json").read_bytes() != COMPACT_MCP  # metrics-gateway is still in
    uninstall(["metrics-gateway", "format-on-save"], target)
    assert (target / ".mcp.json").read_bytes() == COMPACT_MCP
    assert (target / ".claude/settings.json").read_bytes() == no_hooks
    assert uninstall(["write-adr"], target).ok and files_under(target) == before


def test_folders_the_install_made_go_once_empty_and_others_stay(
    sample_index: Index, tmp_path: Path
) -> None:
    # a target the install made goes with it
    fresh = tmp_path / "fresh"
    assert install(sample_index, IDS, fresh).ok
    assert uninstall(IDS, fresh).ok and not fresh.exists()
    # folders that were there stay, empty or not; one the user put a file into stays
    target = tmp_path / "project"
    (target / ".claude/skills").mkdir(parents=True)
    install(sample_index, IDS, target)
    (target / ".claude/agents/mine.md").write_text("my agent\n")
    assert uninstall(IDS, target).ok
    assert folders(target) == {".claude", ".claude/skills", ".claude/agents"}
    assert files_under(target) == {".claude/agents/mine.md": b"my agent\n"}
