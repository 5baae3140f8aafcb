"""What ``install --force`` replaces of the user's own is never lost, however often.

Forcing an install over the user's file keeps a copy for uninstall to put back; editing
the installed copy and forcing again keeps that edit too: uninstall puts back the
latest version of the user's, and the earlier copies stay on disk (``<backup>.~N~``),
listed in the record (``earlier_copies``). The same for an ``.mcp.json`` server entry:
the earlier entries go to ``backups/mcp-servers/<server>.~N~.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.components.install import apply, install, uninstall
from skill_retriever.components.install.plan import InstallError
from skill_retriever.stores.index import Index

AGENT = ".claude/agents/api-reviewer.md"
BACKUPS = ".claude/.skill-retriever/backups"
RECORD = ".claude/.skill-retriever/installed.json"


def _entry(target: Path, name: str) -> dict:  # type: ignore[type-arg]
    record = json.loads((target / RECORD).read_text())
    return next(e for e in record["components"].values() if e["name"] == name)


def test_a_second_force_keeps_the_users_edit_and_uninstall_puts_it_back(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    (target / ".claude/agents").mkdir(parents=True)
    agent = target / AGENT
    agent.write_text("USER ORIGINAL\n")
    index_dir = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    argv = ["install", "api-reviewer", "--no-deps", "--force", "--target", str(target), "--index-dir", index_dir]
    assert main(argv) == 0
    installed = agent.read_text()
    agent.write_text(installed + "USER EDIT AFTER INSTALL\n")
    assert main(argv) == 0 and agent.read_text() == installed
    backup = target / BACKUPS / AGENT
    earlier = target / BACKUPS / f"{AGENT}.~1~"
    assert backup.read_text() == installed + "USER EDIT AFTER INSTALL\n"
    assert earlier.read_text() == "USER ORIGINAL\n"
    assert _entry(target, "api-reviewer")["earlier_copies"] == {f"{BACKUPS}/{AGENT}.~1~": AGENT}
    # forcing again over the install's own copy keeps nothing more
    assert main(argv) == 0
    assert sorted(p.name for p in backup.parent.iterdir()) == ["api-reviewer.md", "api-reviewer.md.~1~"]
    capsys.readouterr()
    assert main(["uninstall", "api-reviewer", "--target", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"restored {AGENT}" in out
    assert f"left {BACKUPS}/{AGENT}.~1~: an earlier version of your {AGENT} that install --force replaced" in out
    assert agent.read_text() == installed + "USER EDIT AFTER INSTALL\n"  # the latest of theirs
    assert earlier.read_text() == "USER ORIGINAL\n" and not backup.exists()  # the earlier stays


def test_each_distinct_version_forced_over_is_kept(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    (target / ".claude/agents").mkdir(parents=True)
    agent = target / AGENT
    versions = ["one\n", "two\n", "three\n"]
    for text in versions:
        agent.write_text(text)
        assert install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True).ok
    folder = target / BACKUPS / ".claude/agents"
    assert (folder / "api-reviewer.md").read_text() == "three\n"
    assert (folder / "api-reviewer.md.~1~").read_text() == "one\n"
    assert (folder / "api-reviewer.md.~2~").read_text() == "two\n"
    assert sorted(_entry(target, "api-reviewer")["earlier_copies"]) == [
        f"{BACKUPS}/{AGENT}.~1~",
        f"{BACKUPS}/{AGENT}.~2~",
    ]
    report = uninstall(["api-reviewer"], target)
    assert report.ok and report.restored == [AGENT] and agent.read_text() == "three\n"
    # the user's version came back: a later force keeps it again, numbered after the others
    assert install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True).ok
    agent.write_text("four\n")
    assert install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True).ok
    assert (folder / "api-reviewer.md").read_text() == "four\n"
    assert (folder / "api-reviewer.md.~3~").read_text() == "three\n"
    assert uninstall(["api-reviewer"], target).ok and agent.read_text() == "four\n"


def test_a_backup_not_recorded_is_moved_aside_never_overwritten(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    (target / ".claude/agents").mkdir(parents=True)
    stray = target / BACKUPS / AGENT  # left by an uninstall that could not put it back
    stray.parent.mkdir(parents=True)
    stray.write_text("an older copy of mine\n")
    (target / AGENT).write_text("mine now\n")
    assert install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True).ok
    assert stray.read_text() == "mine now\n"
    assert (target / BACKUPS / f"{AGENT}.~1~").read_text() == "an older copy of mine\n"
    assert uninstall(["api-reviewer"], target).ok and (target / AGENT).read_text() == "mine now\n"


def test_a_second_force_keeps_the_users_edited_server_entry(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    mcp = target / ".mcp.json"
    first = {"command": "my-deployctl", "args": ["--mine"]}
    mcp.write_text(json.dumps({"mcpServers": {"deploy-control": first}}))
    assert install(sample_index, ["deploy-control"], target, with_dependencies=False, force=True).ok
    data = json.loads(mcp.read_text())
    edited = {**data["mcpServers"]["deploy-control"], "args": ["--edited"]}
    data["mcpServers"]["deploy-control"] = edited
    mcp.write_text(json.dumps(data))
    assert install(sample_index, ["deploy-control"], target, with_dependencies=False, force=True).ok
    copy = f"{BACKUPS}/mcp-servers/deploy-control.~1~.json"
    assert json.loads((target / copy).read_text()) == {"mcpServers": {"deploy-control": first}}
    assert (target / copy).stat().st_mode & 0o777 == 0o600  # it may hold a server's keys
    entry = _entry(target, "deploy-control")
    assert entry["earlier_copies"] == {copy: ".mcp.json#deploy-control"}
    assert entry["replaced_servers"] == {"deploy-control": edited}
    report = uninstall(["deploy-control"], target)
    assert report.ok and report.restored == [".mcp.json#deploy-control"]
    assert json.loads(mcp.read_text())["mcpServers"]["deploy-control"] == edited
    assert (target / copy).is_file()


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) below ``root``."""
    return {p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


def _disk_full(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device", "x")


def test_a_forced_install_that_writes_nothing_takes_back_the_copies_it_kept(
    sample_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keeping the user's latest version moves the copy kept before aside; should the
    install then fail before its first file, the record goes back as it was and so must
    the copies, or that record would name a copy whose bytes are no longer there."""
    target = tmp_path / "project"
    (target / ".claude/agents").mkdir(parents=True)
    agent = target / AGENT
    agent.write_text("USER ORIGINAL\n")
    assert install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True).ok
    agent.write_text("USER EDIT\n")
    before = _tree(target)
    monkeypatch.setattr(apply, "write_atomic", _disk_full)
    with pytest.raises(InstallError, match="No space left on device.*nothing written"):
        install(sample_index, ["api-reviewer"], target, with_dependencies=False, force=True)
    assert _tree(target) == before
    monkeypatch.undo()
    report = uninstall(["api-reviewer"], target, force=True)  # the user's edit is theirs: force
    assert report.ok and report.restored == [AGENT]
    assert agent.read_text() == "USER ORIGINAL\n"


def test_a_forced_server_install_that_writes_nothing_takes_back_the_earlier_entry_file(
    sample_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    mcp = target / ".mcp.json"
    mcp.write_text(json.dumps({"mcpServers": {"deploy-control": {"command": "mine"}}}))
    assert install(sample_index, ["deploy-control"], target, with_dependencies=False, force=True).ok
    mcp.write_text(json.dumps({"mcpServers": {"deploy-control": {"command": "mine, edited"}}}))
    before = _tree(target)
    monkeypatch.setattr(apply, "write_json", _disk_full)
    with pytest.raises(InstallError, match="No space left on device.*nothing written"):
        install(sample_index, ["deploy-control"], target, with_dependencies=False, force=True)
    assert _tree(target) == before
