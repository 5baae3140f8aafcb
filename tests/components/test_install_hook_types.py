"""Hooks of Claude Code's other types (its hooks reference): ``prompt`` and ``agent`` (a
model judges the event), ``http`` (the event is POSTed to a URL) and ``mcp_tool`` (a tool
of a configured MCP server is called). They were all skipped ("only command hooks are
installed"), claude-code-templates' ``ai-bash-guard`` (an agent hook) among them; they run
no script, so they install as written, twice changes nothing, uninstall takes them back,
and one of an unknown type or with a field its type lacks is still skipped, saying why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hook_repos import hooks_index

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

GUARD = "Deny the Bash command if it deletes files outside /tmp. $ARGUMENTS"
HOOKS: dict[str, tuple[str, dict[str, Any]]] = {
    "agent-guard": ("PreToolUse", {"type": "agent", "prompt": GUARD, "model": "haiku", "timeout": 20}),
    "prompt-stop": ("Stop", {"type": "prompt", "prompt": "Is the task done? $ARGUMENTS"}),
    "http-audit": ("PostToolUse", {"type": "http", "url": "http://localhost:8080/hooks",
                                   "headers": {"Authorization": "Bearer $AUDIT_TOKEN"},
                                   "allowedEnvVars": ["AUDIT_TOKEN"]}),
    "mcp-log": ("PostToolUse", {"type": "mcp_tool", "server": "memory", "tool": "log_event",
                                "input": {"kind": "edit"}}),
    "webhook": ("Stop", {"type": "webhook", "url": "http://localhost:8080"}),
    "prompt-command": ("Stop", {"type": "prompt", "prompt": "done?", "command": "echo"}),
    "prompt-empty": ("Stop", {"type": "prompt", "prompt": ""}),
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    groups = {
        name: (event, {"matcher": "Bash", "hooks": [hook]} if event.endswith("ToolUse") else {"hooks": [hook]})
        for name, (event, hook) in HOOKS.items()
    }
    idx = hooks_index(tmp_path, groups)
    yield idx
    idx.close()


def test_prompt_agent_http_and_mcp_tool_hooks_install_as_written(index: Index, tmp_path: Path) -> None:
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    mine = {"permissions": {"allow": ["Bash(npm test)"]}, "hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo mine"}]}]}}
    (project / ".claude/settings.json").write_text(json.dumps(mine, indent=2) + "\n")
    plan = install(index, [by_name[n] for n in HOOKS], project)
    status = {c.name: c for c in plan.components}
    good = {"agent-guard", "prompt-stop", "http-audit", "mcp-log"}
    assert {n for n, c in status.items() if c.status == "install"} == good
    assert "type 'webhook'" in status["webhook"].reason
    assert "fields Claude Code does not read on a prompt hook: ['command']" in status["prompt-command"].reason
    assert "has no prompt" in status["prompt-empty"].reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings["permissions"] == mine["permissions"]
    written = [h for groups in settings["hooks"].values() for g in groups for h in g["hooks"]]
    assert {"type": "command", "command": "echo mine"} in written
    for name in good:
        assert HOOKS[name][1] in written, name
    assert install(index, [by_name[n] for n in good], project).written() == []
    assert uninstall([by_name[n] for n in good], project).ok
    assert json.loads((project / ".claude/settings.json").read_text()) == mine


def test_two_agent_hooks_of_one_group_are_told_apart(tmp_path: Path) -> None:
    """Two prompts under one event and matcher had one key (their command, None, alike)."""
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    hooks = [{"type": "agent", "prompt": "Check for secrets. $ARGUMENTS"},
             {"type": "agent", "prompt": "Check for deletes. $ARGUMENTS"}]
    doc = {"description": "two guards", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}
    (repo / "hooks/guards.json").write_text(json.dumps(doc))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    (node_id,) = [n.id for n in index.nodes.values() if n.name == "guards"]
    plan = install(index, [node_id], tmp_path / "project")
    (c,) = plan.components
    paths = [f.path for f in c.files]
    assert c.status == "install" and len(set(paths)) == 2, paths
    text = "\n".join(plan.lines())
    assert "agent Check for secrets" in text and "agent Check for deletes" in text
    index.close()


#: name -> (event, hook): a type its event does not run (the hooks reference, "Prompt-based
#: hooks"), and, last, types it does
BY_EVENT: dict[str, tuple[str, dict[str, Any]]] = {
    "start-prompt": ("SessionStart", {"type": "prompt", "prompt": "Greet the user. $ARGUMENTS"}),
    "start-http": ("SessionStart", {"type": "http", "url": "http://localhost:8080/start"}),
    "setup-agent": ("Setup", {"type": "agent", "prompt": "Check the toolchain. $ARGUMENTS"}),
    "notify-prompt": ("Notification", {"type": "prompt", "prompt": "Summarise. $ARGUMENTS"}),
    "compact-agent": ("PreCompact", {"type": "agent", "prompt": "Save notes. $ARGUMENTS"}),
    "start-mcp": ("SessionStart", {"type": "mcp_tool", "server": "memory", "tool": "load"}),
    "notify-http": ("Notification", {"type": "http", "url": "http://localhost:8080/notify"}),
    "idle-prompt": ("TeammateIdle", {"type": "prompt", "prompt": "Anything left? $ARGUMENTS"}),
}


def test_a_hook_of_a_type_its_event_does_not_run_is_skipped_saying_so(tmp_path: Path) -> None:
    """``SessionStart`` and ``Setup`` run only command and mcp_tool hooks, and events such
    as ``Notification`` and ``PreCompact`` no prompt or agent hook
    (https://code.claude.com/docs/en/hooks#prompt-based-hooks). Such a hook was written into
    settings.json as if it would run."""
    index = hooks_index(tmp_path, {name: (event, {"hooks": [hook]}) for name, (event, hook) in BY_EVENT.items()})
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    plan = install(index, [by_name[n] for n in BY_EVENT], project)
    index.close()
    status = {c.name: c for c in plan.components}
    assert {n for n, c in status.items() if c.status == "install"} == {"start-mcp", "notify-http", "idle-prompt"}
    assert "a SessionStart hook of type 'prompt'" in status["start-prompt"].reason
    assert "SessionStart runs only command and mcp_tool hooks" in status["start-prompt"].reason
    assert "SessionStart runs only command and mcp_tool hooks" in status["start-http"].reason
    assert "Setup runs only command and mcp_tool hooks" in status["setup-agent"].reason
    assert "Notification runs only command, http and mcp_tool hooks" in status["notify-prompt"].reason
    assert "PreCompact runs only command, http and mcp_tool hooks" in status["compact-agent"].reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert set(settings["hooks"]) == {"SessionStart", "Notification", "TeammateIdle"}


def test_a_matcher_on_an_event_without_matchers_is_noted(tmp_path: Path) -> None:
    """Stop, UserPromptSubmit and the other events the hooks reference lists "don't support
    matchers and always fire on every occurrence", the matcher "silently ignored"
    (https://code.claude.com/docs/en/hooks#matcher-patterns): a hook written for ``Bash``
    under ``Stop`` runs on every stop, which the plan now says."""
    hook = {"type": "command", "command": "echo stopped"}
    groups = {"stop-bash": ("Stop", {"matcher": "Bash", "hooks": [hook]}),
              "stop-star": ("Stop", {"matcher": "*", "hooks": [hook]}),
              "pre-bash": ("PreToolUse", {"matcher": "Bash", "hooks": [hook]})}
    index = hooks_index(tmp_path, groups)
    by_name = {n.name: n.id for n in index.nodes.values()}
    plan = install(index, [by_name[n] for n in groups], tmp_path / "project")
    index.close()
    status = {c.name: c for c in plan.components}
    assert {c.status for c in status.values()} == {"install"}
    assert "matcher 'Bash' is ignored on Stop" in status["stop-bash"].reason
    assert "runs on every Stop" in status["stop-bash"].reason
    assert "ignored" not in status["stop-star"].reason and "ignored" not in status["pre-bash"].reason
