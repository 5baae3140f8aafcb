"""A hook under an event Claude Code does not know is skipped, never written: Claude Code
checks settings.json strictly, and one unknown event key ("Invalid key in record") makes it
skip the whole file, the user's permissions, env and other hooks with it (hooks reference,
https://code.claude.com/docs/en/hooks; anthropics/claude-code#75081). It was written as is."""

from __future__ import annotations

import json
from pathlib import Path

from claude_schema import settings_problems

from skill_retriever.components.install import install
from skill_retriever.hook_events import HOOK_EVENTS, event_problem
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

EVENTS = {"typo": "PreToolCall", "lower": "postToolUse", "good": "PostToolUse", "worktree": "WorktreeCreate"}
MINE = '{\n  "permissions": {"allow": ["Bash(npm run test:*)"]},\n  "env": {"FOO": "1"}\n}\n'


def test_only_hooks_under_known_events_are_written(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, event in EVENTS.items():
        hook = {"type": "command", "command": f"echo {name}"}
        doc = {"description": f"the {name} hook", "hooks": {event: [{"matcher": "Bash", "hooks": [hook]}]}}
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.json").write_text(MINE)

    bad = install(index, [by_name["typo"], by_name["lower"]], project)
    status = {c.name: c for c in bad.components}
    assert {c.status for c in status.values()} == {"skipped"}
    assert "'PreToolCall' is not a hook event Claude Code knows" in status["typo"].reason
    assert "skips a settings.json holding an unknown event whole" in status["typo"].reason
    assert "case-sensitive: PostToolUse" in status["lower"].reason
    assert (project / ".claude/settings.json").read_text() == MINE  # nothing of yours lost

    good = install(index, [by_name["good"], by_name["worktree"]], project)
    assert good.ok, good.lines()
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    assert set(settings["hooks"]) == {"PostToolUse", "WorktreeCreate"}
    assert settings["permissions"] == {"allow": ["Bash(npm run test:*)"]} and settings["env"] == {"FOO": "1"}
    index.close()


def test_every_event_the_catalogues_use_is_known() -> None:
    for event in ("PreToolUse", "PostToolUse", "Stop", "SessionStart", "Notification",
                  "SubagentStop", "WorktreeCreate", "WorktreeRemove", "SessionEnd"):
        assert event_problem(event) is None
    assert event_problem("PreToolCall") is not None and "PreToolCall" not in HOOK_EVENTS


def test_a_hook_with_two_unknown_events_is_refused_naming_each(tmp_path: Path) -> None:
    """Fixing the first only to be refused over the second took a second trip through the
    index; the CLI's plan and the MCP tool's answer name both, and the known one is not."""
    import asyncio

    from skill_retriever.adapters.mcp_server import build_server
    from skill_retriever.retriever import Retriever

    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    group = [{"hooks": [{"type": "command", "command": "echo hi"}]}]
    doc = {"description": "two typos", "hooks": {"PreToolCall": group, "Stop": group, "postToolUse": group}}
    (repo / "hooks" / "typos.json").write_text(json.dumps(doc))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    project = tmp_path / "project"
    (reason,) = [c.reason for c in install(index, ["typos"], project).components]
    assert reason.startswith("its events 'PreToolCall' and 'postToolUse' are not hook events Claude Code knows")
    assert "'postToolUse' -> PostToolUse" in reason and "'Stop'" not in reason
    assert "fix each event name in the hook's file" in reason and "documents those events" in reason
    server = build_server(index, retriever=Retriever(index, reranker=None))
    args = {"ids": ["typos"], "target": str(project)}
    brief = asyncio.run(server.call_tool("install_components", args)).structured_content
    assert brief is not None and any(reason in line for line in brief["summary"])
    assert not any(project.rglob("*"))  # nothing written
    index.close()


def test_an_install_that_skips_everything_makes_no_target_folder(tmp_path: Path) -> None:
    """Every component skipped: the plan writes nothing, and no empty project folder (or
    ``.claude``) is left behind where the user pointed by mistake."""
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    doc = {"description": "a typo", "hooks": {"PreToolCall": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo typo"}]}]}}
    (repo / "hooks" / "typo.json").write_text(json.dumps(doc))
    with Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [repo], "skills")
        (hook,) = [n.id for n in index.nodes.values() if n.name == "typo"]
        plan = install(index, [hook], tmp_path / "new-project")
    assert [c.status for c in plan.components] == ["skipped"] and plan.applied
    assert not (tmp_path / "new-project").exists()
