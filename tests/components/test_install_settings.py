"""Issue 15: hooks merge into ``.claude/settings.json`` (or ``~/.claude/settings.json``)
by event and matcher, idempotently, keeping every existing key and hook; their scripts go
to ``.claude/hooks/``; MCP servers merge into ``.mcp.json`` with only the keys Claude Code
reads; ``uninstall`` takes back exactly what an install added and keeps what changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_schema import mcp_problems, settings_problems

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

S = "sample_catalogue"
FORMAT_HOOK = f"{S}/hooks/format-on-save.json"
GUARD_HOOK = f"{S}/hooks/migration-guard.json"
USER_SETTINGS = {
    "permissions": {"allow": ["Bash(ls:*)"]},
    "env": {"A": "1"},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Edit|Write|MultiEdit",
                "hooks": [{"type": "command", "command": "echo mine"}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "echo bye", "timeout": 5}]}],
    },
}


def read(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text())


def snapshot_files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_hooks_merge_into_settings_keeping_everything_and_twice_changes_nothing(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / ".claude/settings.json").write_text(json.dumps(USER_SETTINGS))
    plan = install(
        sample_index,
        [FORMAT_HOOK, GUARD_HOOK, f"{S}/hooks/test-on-stop.json"],
        target,
        with_dependencies=False,
    )
    assert plan.ok and plan.applied
    settings = read(target / ".claude/settings.json")
    assert settings_problems(settings) == []
    assert settings["permissions"] == USER_SETTINGS["permissions"] and settings["env"] == {"A": "1"}
    post = settings["hooks"]["PostToolUse"]
    assert len(post) == 1 and post[0]["matcher"] == "Edit|Write|MultiEdit"  # merged by matcher
    assert post[0]["hooks"][0] == {"type": "command", "command": "echo mine"}  # theirs first, kept
    assert "ruff format" in post[0]["hooks"][1]["command"]
    assert settings["hooks"]["Stop"][0]["hooks"][0] == {
        "type": "command",
        "command": "echo bye",
        "timeout": 5,
    }
    assert (
        "ruff check" in settings["hooks"]["Stop"][0]["hooks"][1]["command"]
    )  # no matcher: same group
    assert settings["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    guard = next(c for c in plan.components if c.id == GUARD_HOOK)
    assert guard.status == "install"  # the sample ships its script: copied beside the hook
    assert (target / ".claude/hooks/migration_guard.py").is_file()
    before = snapshot_files(target)
    again = install(
        sample_index,
        [FORMAT_HOOK, GUARD_HOOK, f"{S}/hooks/test-on-stop.json"],
        target,
        with_dependencies=False,
    )
    assert (
        again.ok and again.written() == [] and {c.status for c in again.components} == {"unchanged"}
    )
    assert snapshot_files(target) == before  # byte for byte


def test_markdown_hook_without_a_command_is_skipped_with_the_reason(
    sample_index: Index, tmp_path: Path
) -> None:
    plan = install(
        sample_index, [f"{S}/hooks/session-context.md"], tmp_path / "p", with_dependencies=False
    )
    (c,) = plan.components
    assert c.status == "skipped" and "no hook command" in c.reason and not plan.ok


def test_user_install_goes_to_the_home_settings(sample_index: Index, tmp_path: Path) -> None:
    home = tmp_path / "home"
    plan = install(
        sample_index, [FORMAT_HOOK, "deploy-control"], user=True, home=home, with_dependencies=False
    )
    assert plan.scope == "user" and plan.target == home.absolute()
    settings = read(home / ".claude/settings.json")
    assert settings_problems(settings) == [] and "PostToolUse" in settings["hooks"]
    server = next(c for c in plan.components if c.name == "deploy-control")
    assert server.status == "skipped" and "~/.claude.json" in server.reason
    assert not (home / ".mcp.json").exists()
    report = uninstall([FORMAT_HOOK], user=True, home=home)
    assert report.ok and not (home / ".claude/settings.json").exists()  # it made the file: it goes


def test_mcp_entries_hold_only_the_keys_claude_code_reads(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    (target / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"mine": {"command": "keep"}}, "other": 1})
    )
    plan = install(
        sample_index,
        ["deploy-control", "browser-runner", "feature-flags"],
        target,
        with_dependencies=False,
    )
    assert plan.ok
    data = read(target / ".mcp.json")
    assert (
        mcp_problems(data) == []
        and data["other"] == 1
        and data["mcpServers"]["mine"] == {"command": "keep"}
    )
    assert data["mcpServers"]["deploy-control"] == {
        "command": "harbor-deployctl", "args": ["mcp", "--require-ticket"], "env": {"DEPLOYCTL_TOKEN": "${DEPLOYCTL_TOKEN}"},
    }  # fmt: skip
    for entry in data["mcpServers"].values():
        assert not {"description", "tags", "created", "updated"} & set(entry)


def _script_hooks(root: Path) -> Path:
    """A hooks folder whose commands name their scripts in the three ways that matter."""
    hooks = root / "hookrepo" / "hooks"
    hooks.mkdir(parents=True)
    for name, command in {
        "relative": "python3 check.py --strict && ./check.py",
        "placed": 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/placed.py"',
        "quoted": "sh -c 'python3 quoted.py'",
    }.items():
        doc = {
            "description": f"{name} hook",
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
                ]
            },
        }
        (hooks / f"{name}.json").write_text(json.dumps(doc))
    for script in ("check.py", "placed.py", "quoted.py"):
        (hooks / script).write_text("print('ok')\n")
    (hooks / "relative.py").write_text("print('same stem')\n")
    return hooks.parent


def test_scripts_are_copied_and_only_relative_references_are_rewritten(tmp_path: Path) -> None:
    repo = _script_hooks(tmp_path)
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(index, [repo], "skills")
        ids = {n.name: n.id for n in index.nodes.values()}
        index.upsert(
            [
                index.get(ids["relative"]).with_changes(
                    attrs={**index.get(ids["relative"]).attrs, "scripts": ["check.py"]}
                )
            ]
        )
        index.upsert(
            [
                index.get(ids["quoted"]).with_changes(
                    attrs={**index.get(ids["quoted"]).attrs, "scripts": ["quoted.py"]}
                )
            ]
        )
        target = tmp_path / "project"
        plan = install(index, list(ids.values()), target)
    finally:
        index.close()
    # quoted: its command runs quoted.py relative to the project, not the copy: skipped
    quoted = next(c for c in plan.components if c.name == "quoted")
    assert not plan.ok and quoted.status == "skipped"
    assert "its PreToolUse commands run quoted.py, which it does not ship and is not at" in quoted.reason
    assert "inside single quotes" in quoted.reason and "blocks every tool call" in quoted.reason
    assert {c.status for c in plan.components if c.name != "quoted"} == {"install"}
    commands = [
        h["command"]
        for g in read(target / ".claude/settings.json")["hooks"]["PreToolUse"]
        for h in g["hooks"]
    ]
    assert (
        'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py --strict && "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py'
        in commands
    )
    assert (
        'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/placed.py"' in commands
    )  # already points there
    assert "sh -c 'python3 quoted.py'" not in commands
    for script in ("check.py", "placed.py"):
        assert (target / ".claude/hooks" / script).read_text() == "print('ok')\n"
    assert not (target / ".claude/hooks/quoted.py").exists()  # a skipped hook writes nothing


def test_uninstall_removes_exactly_what_was_added_and_keeps_changes(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / ".claude/settings.json").write_text(json.dumps(USER_SETTINGS))
    ids = ["fastapi-service-scaffold", FORMAT_HOOK, "deploy-control", "api-reviewer"]
    plan = install(sample_index, ids, target)
    assert plan.ok and plan.applied
    installed = snapshot_files(target)
    assert ".claude/.skill-retriever/installed.json" in installed
    # the user changes one installed file and the installed server entry
    agent = target / ".claude/agents/api-reviewer.md"
    agent.write_text(agent.read_text() + "\nmy note\n")
    mcp = read(target / ".mcp.json")
    mcp["mcpServers"]["deploy-control"]["args"].append("--verbose")
    (target / ".mcp.json").write_text(json.dumps(mcp))
    report = uninstall(ids, target)
    assert not report.ok
    assert report.kept == {
        ".claude/agents/api-reviewer.md": "changed since it was installed",
        ".mcp.json#deploy-control": "changed since it was installed",
    }
    assert set(report.recorded) == {".claude/agents/api-reviewer.md", ".mcp.json#deploy-control"}
    assert ".claude/skills/fastapi-service-scaffold/SKILL.md" in report.removed
    assert any(p.startswith(".claude/settings.json#hooks.PostToolUse") for p in report.removed)
    left = snapshot_files(target)
    assert (
        read(target / ".claude/settings.json") == USER_SETTINGS
    )  # their hooks and keys, as before
    assert ".claude/agents/api-reviewer.md" in left and ".mcp.json" in left
    required = {c.name for c in plan.components if c.required_by}  # what the four required
    assert required and set(report.along) == required  # went with them: the install added it
    assert not (target / ".claude/skills/fastapi-service-scaffold").exists()
    record = read(target / ".claude/.skill-retriever/installed.json")["components"]
    changed = {c.id for c in plan.components if c.name in ("api-reviewer", "deploy-control")}
    assert set(record) == changed  # what the user changed stays recorded, marked
    assert {p for i in changed for p in record[i]["kept"]} == set(report.recorded)
    # nothing of the install is left but what the user changed
    assert set(snapshot_files(target)) == {
        ".claude/settings.json",
        ".claude/agents/api-reviewer.md",
        ".mcp.json",
        ".claude/.skill-retriever/installed.json",
        ".claude/.skill-retriever/.gitignore",  # the record stays out of git
    }
    assert main(["uninstall", "nothing-like-it", "--target", str(target)]) == 2
    assert "no component 'nothing-like-it' installed" in capsys.readouterr().err
