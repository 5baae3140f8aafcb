"""Installing into a .claude/ layout: files, skill folders, no silent overwrite, force,
unchanged files, refused escapes, dry runs, and the `install` command."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from component_catalogue import files_under, sid

from skill_retriever.cli import main
from skill_retriever.components.install import (
    RECORD_FILE,
    RECORD_IGNORE,
    UnsafePathError,
    destination_name,
    install,
    installed_components,
    match_installed,
    plan_install,
    safe_destination,
)
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

AGENT = "acme-skills/agents/api-reviewer.md"
HOOK = "acme-skills/hooks/format-on-save.json"
MCP = "acme-skills/.mcp.json#metrics"




def test_layout_with_dependencies_and_skill_folder_files(
    hashed_index: Index, tmp_path: Path, catalogue: tuple[Path, Path]
) -> None:
    acme, _ = catalogue
    target = tmp_path / "project"
    plan = install(hashed_index, [sid("web-scaffold"), AGENT, "ship", HOOK, MCP], target)
    assert plan.applied and plan.ok
    got = files_under(target)
    skill = ".claude/skills/web-scaffold"
    assert got[f"{skill}/SKILL.md"] == (acme / "skills/web-scaffold/SKILL.md").read_bytes()
    assert (
        got[f"{skill}/templates/app.py"]
        == (acme / "skills/web-scaffold/templates/app.py").read_bytes()
    )
    assert os.stat(target / f"{skill}/scripts/run.sh").st_mode & stat.S_IXUSR  # still executable
    # dependencies, transitively: api-style, json-logging -> redact-pii
    for dep in ("api-style", "json-logging", "redact-pii"):
        assert f".claude/skills/{dep}/SKILL.md" in got
    assert got[".claude/agents/api-reviewer.md"] == (acme / "agents/api-reviewer.md").read_bytes()
    assert ".claude/commands/ship.md" in got
    hooks = json.loads(got[".claude/settings.json"])["hooks"]
    assert hooks == {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "ruff format $CLAUDE_FILE_PATHS"}]}]}  # fmt: skip
    servers = json.loads(got[".mcp.json"])["mcpServers"]
    assert servers == {"metrics": {"command": "metrics-mcp", "args": ["--port", "0"],
                                   "env": {"METRICS_TOKEN": "${METRICS_TOKEN}"}}}  # fmt: skip
    dep_plan = next(c for c in plan.components if c.id == sid("redact-pii"))
    assert dep_plan.required_by == (sid("web-scaffold"),)
    # ".mcp.json#metrics" and ".claude/settings.json#hooks...": entries; the record is extra
    assert {p.split("#")[0] for p in plan.written()} | {RECORD_FILE, RECORD_IGNORE} == set(got)
    text = "\n".join(plan.lines())
    assert "create .claude/skills/web-scaffold/SKILL.md" in text and "required by" in text
    # what is installed is recognised again, for conflict checks
    kinds = {(c.kind.value, c.names[0]) for c in installed_components(target)}
    assert ("skill", "redact-pii") in kinds and ("mcp_server", "metrics") in kinds
    assert ("hook", "format-on-save") in kinds  # known from the install record
    assert (
        match_installed(hashed_index, target)[sid("api-style")]
        == ".claude/skills/api-style/SKILL.md"
    )


def test_no_overwrite_without_force_identical_is_unchanged_force_overwrites(
    hashed_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    install(hashed_index, [sid("api-style"), MCP], target)
    mine = target / ".claude/skills/api-style/SKILL.md"
    mine.write_text("my own edits\n")
    mcp_file = target / ".mcp.json"
    config = json.loads(mcp_file.read_text())
    config["mcpServers"]["metrics"]["args"] = ["--port", "9"]
    config["mcpServers"]["mine"] = {"command": "keep-me"}
    mcp_file.write_text(json.dumps(config))
    before = files_under(target)

    again = install(hashed_index, [sid("api-style"), MCP], target)
    assert not again.ok
    assert files_under(target) == before  # untouched
    statuses = {c.id: c.status for c in again.components}
    assert statuses == {sid("api-style"): "unchanged", MCP: "blocked"}  # its source is the version installed
    assert not again.refused_for_conflicts
    # an install wrote it and the user edited it since: said so, not as a file of theirs
    assert "unchanged .claude/skills/api-style/SKILL.md: yours, changed since it was installed" in "\n".join(again.lines())

    forced = install(hashed_index, [sid("api-style"), MCP], target, force=True)
    assert forced.ok and mine.read_text().startswith("---\nname: api-style")
    servers = json.loads(mcp_file.read_text())["mcpServers"]
    assert servers["metrics"]["args"] == ["--port", "0"] and servers["mine"] == {
        "command": "keep-me"
    }

    same = install(hashed_index, [sid("api-style"), MCP], target)
    assert same.ok and {c.status for c in same.components} == {"unchanged"}
    assert same.written() == [] and all(
        f.action == "unchanged" for c in same.components for f in c.files
    )


def test_dry_run_writes_nothing(hashed_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    plan = install(hashed_index, [sid("web-scaffold"), MCP], target, dry_run=True)
    assert not plan.applied and not target.exists()
    assert plan.written() == []
    lines = "\n".join(plan.lines())
    assert "would create .claude/skills/web-scaffold/SKILL.md" in lines and "dry run" in lines
    assert {c.status for c in plan.components} == {"install"}


def test_unsafe_names_and_paths_are_refused(hashed_index: Index, tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    for bad in ("../escape.md", "/etc/passwd", ".claude/../../x", "a//b", "C:/x", "a\\b"):
        with pytest.raises(UnsafePathError):
            safe_destination(root, bad)
    for bad_name in ("../../evil", "a/b", "..", "x..y", "\\evil", "///"):
        with pytest.raises(UnsafePathError):
            destination_name(bad_name)
    assert destination_name("Code Reviewer: v2") == "Code-Reviewer-v2"
    # a symbolic link inside the target that leads outside, and one as the file itself
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".claude").mkdir()
    (root / ".claude/skills").symlink_to(outside, target_is_directory=True)
    plan = install(hashed_index, [sid("api-style")], root, with_dependencies=False)
    assert [c.status for c in plan.components] == ["refused"]
    assert "outside the target" in plan.components[0].files[0].reason
    assert list(outside.iterdir()) == []
    (root / ".claude/agents").mkdir()
    (root / ".claude/agents/api-reviewer.md").symlink_to(root / "elsewhere.md")
    plan = install(hashed_index, [AGENT], root, with_dependencies=False)
    assert (
        plan.components[0].status == "refused"
        and "symbolic link" in plan.components[0].files[0].reason
    )
    assert not (root / "elsewhere.md").exists()


def test_crafted_index_entries_cannot_escape(
    tmp_path: Path, hashed_index: Index, catalogue: tuple[Path, Path]
) -> None:
    acme, _ = catalogue
    secret = tmp_path / "secret.txt"
    secret.write_text("do not copy")
    (acme / "skills/api-style/leak").symlink_to(secret)
    base = hashed_index.get(sid("api-style"))
    bad = [
        Node(id="x/evil-name", kind="agent", name="../../evil", text="t"),
        base.with_changes(
            id="x/files-climb",
            name="climb",
            attrs={**base.attrs, "files": ["../web-scaffold/SKILL.md"]},
        ),
        base.with_changes(
            id="x/files-abs", name="abs", attrs={**base.attrs, "files": ["/etc/hostname"]}
        ),
        base.with_changes(id="x/files-link", name="link", attrs={**base.attrs, "files": ["leak"]}),
    ]
    hashed_index.upsert(bad)
    target = tmp_path / "project"
    plan = install(hashed_index, [n.id for n in bad], target)
    assert [c.status for c in plan.components] == ["refused"] * 4
    assert not target.exists() or files_under(target) == {}


def test_components_without_their_source_are_rebuilt(tmp_path: Path, hashed_index: Index) -> None:
    base = hashed_index.get(sid("redact-pii"))
    gone = str(
        Path(base.attrs["source_root"]) / "skills/was-here/SKILL.md"
    )  # in its root, not on disk
    node = base.with_changes(id="gone/redact", name="redact-gone", source=gone)
    hashed_index.upsert([node])
    plan = install(hashed_index, ["gone/redact"], tmp_path / "p")
    text = (tmp_path / "p/.claude/skills/redact-gone/SKILL.md").read_text()
    assert (
        text.startswith("---\nname: redact-gone\ndescription: Remove personal data")
        and "Mask emails" in text
    )
    assert "rebuilt from the index" in plan.components[0].reason


def test_ids_may_be_unique_names_and_unknown_ones_fail(hashed_index: Index, tmp_path: Path) -> None:
    plan = plan_install(hashed_index, ["ship"], tmp_path / "p")
    assert plan.components[0].id == "acme-skills/commands/ship.md"
    from skill_retriever.components.install import InstallError

    with pytest.raises(InstallError, match="2 components are named 'api-style'"):
        plan_install(hashed_index, ["api-style"], tmp_path / "p")
    with pytest.raises(InstallError, match="no component 'nope'"):
        plan_install(hashed_index, ["nope"], tmp_path / "p")


def test_install_command(
    hashed_index: Index,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    index_dir = str(hashed_index.path)
    hashed_index.close()  # the command opens it itself (the manifest names its embedder)
    target = tmp_path / "project"
    assert (
        main(
            [
                "install",
                sid("web-scaffold"),
                "--target",
                str(target),
                "--dry-run",
                "--index-dir",
                index_dir,
            ]
        )
        == 0
    )
    assert "would create .claude/skills/web-scaffold/SKILL.md" in capsys.readouterr().out
    assert not target.exists()
    assert (
        main(["install", sid("web-scaffold"), "--target", str(target), "--index-dir", index_dir])
        == 0
    )
    assert "create .claude/skills/redact-pii/SKILL.md" in capsys.readouterr().out
    (target / ".claude/skills/web-scaffold/SKILL.md").write_text("changed")
    assert (
        main(
            [
                "install",
                sid("web-scaffold"),
                "--target",
                str(target),
                "--json",
                "--index-dir",
                index_dir,
            ]
        )
        == 0  # its source is the version installed: the edit is the user's, nothing to update
    )
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["written"] == []
    assert (target / ".claude/skills/web-scaffold/SKILL.md").read_text() == "changed"
    assert main(["install", "nope", "--target", str(target), "--index-dir", index_dir]) == 2
    assert "no component 'nope'" in capsys.readouterr().err
