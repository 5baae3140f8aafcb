"""A plugin's hooks and servers installed outside the plugin (`install.plugin_root`), and
the frontmatter notes of `install.claude_names`.

Claude Code sets ``${CLAUDE_PLUGIN_ROOT}`` for a plugin's own hooks and servers only; in a
project's or the user's ``settings.json`` and in ``.mcp.json`` it is unset. A plugin hook
naming its scripts by it gets them copied under ``.claude/hooks/`` and its commands pointed
there; one using it otherwise, and a server run from the plugin's folder, are skipped.
A skill or agent whose frontmatter Claude Code will not read well is installed as written,
with a note saying what Claude Code expects."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from claude_schema import mcp_problems, settings_problems
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PLUGIN = "mkt/plugins/guard-kit"
HOOKS = {
    "description": "Block dangerous bash commands and format python files after edits",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "${CLAUDE_PLUGIN_ROOT}/scripts/check-bash.sh",
                        "timeout": 10,
                    }
                ],
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [
                    {"type": "command", "command": 'python3 "${CLAUDE_PLUGIN_ROOT}/hooks/fmt.py"'},
                    {"type": "command", "command": '"${CLAUDE_PLUGIN_ROOT}"/scripts/log.sh'},
                ],
            }
        ],
    },
}
SERVERS = {
    "mcpServers": {
        "guard-db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/servers/db.js"]},
        "guard-remote": {"url": "https://example.com/mcp/sse"},
    }
}


def _marketplace(root: Path, hooks: dict[str, object]) -> None:
    plugin = root / "plugins/guard-kit"
    write_file(
        root, ".claude-plugin/marketplace.json",
        json.dumps(
            {"name": "m", "plugins": [{"name": "guard-kit", "source": "./plugins/guard-kit"}]}
        ),
    )
    write_file(plugin, ".claude-plugin/plugin.json", json.dumps({"name": "guard-kit"}))
    write_file(plugin, "hooks/hooks.json", json.dumps(hooks))
    write_file(plugin, "hooks/fmt.py", "print('formatted')\n")
    write_file(plugin, "scripts/check-bash.sh", "#!/bin/sh\necho checked\n", mode=0o755)
    write_file(plugin, "scripts/log.sh", "#!/bin/sh\necho logged\n", mode=0o755)
    write_file(plugin, ".mcp.json", json.dumps(SERVERS))
    write_file(plugin, "servers/db.js", "console.log(1)\n")
    write_file(
        plugin, "skills/pdf-help/SKILL.md",
        "---\nname: PDF Help\ndescription: Read PDF files.\n---\n\n"
        "Run ${CLAUDE_PLUGIN_ROOT}/lib/pdf.sh.\n",
    )
    write_file(
        plugin, "agents/reviewer.md",
        "---\nname: Code_Reviewer\ndescription: Reviews diffs.\n---\n\nReview the diff.\n",
    )
    write_file(  # an agent named through the plugin, as wshobson's agent-teams commands do
        plugin, "commands/review.md",
        "---\ndescription: Review the branch.\n---\n\nUse Task with subagent_type: \"guard-kit:reviewer\".\n",
    )


def _index(tmp_path: Path, hooks: dict[str, object]) -> Index:
    _marketplace(tmp_path / "mkt", hooks)
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [tmp_path / "mkt"], "skills")
    assert not [p for s in run.sources for p in s.problems]
    return index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    idx = _index(tmp_path, HOOKS)
    yield idx
    idx.close()


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _commands(settings: Path) -> list[str]:
    data = json.loads(settings.read_text())
    assert settings_problems(data) == []
    return [h["command"] for gs in data["hooks"].values() for g in gs for h in g["hooks"]]


def _run(command: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        ["sh", "-c", command], cwd=cwd, env={**os.environ, **env},
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    return done.stdout.strip()


def test_plugin_hook_scripts_are_copied_and_commands_point_at_them(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(index, [PLUGIN], project)
    assert plan.applied
    hook = next(c for c in plan.components if c.kind == "hook")
    assert hook.status == "install", hook.reason
    commands = _commands(project / ".claude/settings.json")
    assert commands == [
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/check-bash.sh',
        'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/fmt.py"',
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/log.sh',
    ]
    hooks_dir = project / ".claude/hooks"
    assert (hooks_dir / "scripts/check-bash.sh").stat().st_mode & 0o777 == 0o755
    assert (hooks_dir / "scripts/log.sh").stat().st_mode & 0o777 == 0o755
    assert (hooks_dir / "fmt.py").read_text() == "print('formatted')\n"
    outputs = [_run(c, tmp_path, CLAUDE_PROJECT_DIR=str(project)) for c in commands]
    assert outputs == ["checked", "formatted", "logged"]
    again = install(index, [PLUGIN], project)
    assert {c.status for c in again.components if c.status != "skipped"} == {"unchanged"}
    uninstall([PLUGIN], project)
    assert _files(project) == {}


def test_plugin_hook_for_the_user_points_at_the_home_copies(index: Index, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    install(index, [f"{PLUGIN}/hooks/hooks.json"], user=True, home=home)
    commands = _commands(home / ".claude/settings.json")
    assert commands[0] == '"$HOME"/.claude/hooks/scripts/check-bash.sh'
    assert commands[1] == 'python3 "$HOME/.claude/hooks/fmt.py"'
    assert _run(commands[0], tmp_path, HOME=str(home)) == "checked"
    assert not any("CLAUDE_PLUGIN_ROOT" in c or "CLAUDE_PROJECT_DIR" in c for c in commands)


@pytest.mark.parametrize(
    "command",
    [
        "${CLAUDE_PLUGIN_ROOT}/scripts/gone.sh",  # not a file of the plugin
        "cd ${CLAUDE_PLUGIN_ROOT} && ./scripts/log.sh",  # the folder itself
        "sh -c '${CLAUDE_PLUGIN_ROOT}/scripts/log.sh'",  # single quotes: never expanded here
    ],
)
def test_a_plugin_hook_using_its_root_otherwise_is_skipped(tmp_path: Path, command: str) -> None:
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}
    index = _index(tmp_path, hooks)
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(index, [f"{PLUGIN}/hooks/hooks.json"], project)
    index.close()
    (hook,) = plan.components
    assert hook.status == "skipped"
    assert "CLAUDE_PLUGIN_ROOT" in hook.reason
    assert not (project / ".claude/settings.json").exists()


def test_a_server_run_from_the_plugin_folder_is_skipped(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(
        index, [f"{PLUGIN}/.mcp.json#guard-db", f"{PLUGIN}/.mcp.json#guard-remote"], project
    )
    status = {c.name: (c.status, c.reason) for c in plan.components}
    assert status["guard-db"][0] == "skipped"
    assert "CLAUDE_PLUGIN_ROOT" in status["guard-db"][1]
    data = json.loads((project / ".mcp.json").read_text())
    assert mcp_problems(data) == []
    assert data["mcpServers"] == {
        "guard-remote": {"type": "sse", "url": "https://example.com/mcp/sse"}
    }


def test_frontmatter_claude_code_will_not_read_is_noted(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(index, [f"{PLUGIN}/skills/pdf-help/SKILL.md", "Code_Reviewer"], project)
    reasons = {c.kind: c.reason for c in plan.components}
    assert "'PDF Help' is not one Claude Code accepts for a skill" in reasons["skill"]
    assert "'Code_Reviewer' is not one Claude Code accepts for an agent" in reasons["agent"]
    assert "names files by ${CLAUDE_PLUGIN_ROOT}" in reasons["skill"]
    assert "CLAUDE_PLUGIN_ROOT" not in reasons["agent"]
    # installed as written all the same, in its source folder's name (`skill_folder`)
    skill = project / ".claude/skills/pdf-help/SKILL.md"
    assert skill.read_text().startswith("---\nname: PDF Help\n")


def test_agents_named_through_their_plugin_are_noted(index: Index, tmp_path: Path) -> None:
    """Outside the plugin the agent is ``reviewer``, not ``guard-kit:reviewer``: the
    command that asks for it by the plugin's name would ask for an agent there is not."""
    project = tmp_path / "proj"
    plan = install(index, [f"{PLUGIN}/commands/review.md"], project)
    (command,) = [c for c in plan.components if c.kind == "command"]
    assert "names agents by their plugin's namespace (guard-kit:reviewer)" in command.reason
    assert "named without it (reviewer)" in command.reason


def _exec_form_index(tmp_path: Path) -> Index:
    """guard-kit with two exec-form hooks (``args``): one runs ``node`` on a script of the
    plugin, one runs a script of the plugin as its program."""
    hooks = {"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [
        {"type": "command", "command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/fmt.js", "--fast"]},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/log.sh", "args": []},
    ]}]}}  # fmt: skip
    index = _index(tmp_path, hooks)
    write_file(tmp_path, "mkt/plugins/guard-kit/scripts/fmt.js", "console.log('formatted')\n")
    return index


def test_an_exec_form_plugin_hook_gets_its_scripts_and_names_the_copies(tmp_path: Path) -> None:
    """In exec form (``args``) Claude Code spawns ``command`` with no shell and substitutes
    the path placeholders ``${CLAUDE_PROJECT_DIR}`` and ``${CLAUDE_PLUGIN_ROOT}`` into it
    and into each argument (https://code.claude.com/docs/en/hooks, "Exec form and shell
    form"). The hook was written with ``${CLAUDE_PLUGIN_ROOT}/scripts/fmt.js`` kept, which
    names nothing in settings.json, and the script was not copied."""
    index = _exec_form_index(tmp_path)
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(index, [f"{PLUGIN}/hooks/hooks.json"], project)
    index.close()
    (hook,) = plan.components
    assert hook.status == "install", hook.reason
    data = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(data) == []
    written = data["hooks"]["PostToolUse"][0]["hooks"]
    assert written == [
        {"type": "command", "command": "node",
         "args": ["${CLAUDE_PROJECT_DIR}/.claude/hooks/scripts/fmt.js", "--fast"]},
        {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/scripts/log.sh", "args": []},
    ]  # fmt: skip
    # each path, the placeholder substituted as Claude Code does, is the copy
    paths = [written[0]["args"][0], written[1]["command"]]
    copies = [Path(p.replace("${CLAUDE_PROJECT_DIR}", str(project))) for p in paths]
    assert copies[0].read_text() == "console.log('formatted')\n"
    assert subprocess.run([copies[1]], capture_output=True, text=True, check=True).stdout == "logged\n"
    uninstall([f"{PLUGIN}/hooks/hooks.json"], project)
    assert _files(project) == {}


def test_an_exec_form_plugin_hook_for_the_user_is_skipped_saying_why(tmp_path: Path) -> None:
    """For the user the copies lie in the home folder, which exec form has no placeholder
    for (no shell expands ``$HOME`` there): skipped with the reason, not written naming
    ``${CLAUDE_PLUGIN_ROOT}``."""
    index = _exec_form_index(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    plan = install(index, [f"{PLUGIN}/hooks/hooks.json"], user=True, home=home)
    index.close()
    (hook,) = plan.components
    assert hook.status == "skipped"
    assert "exec form" in hook.reason and "${CLAUDE_PLUGIN_ROOT}" in hook.reason
    assert not (home / ".claude/settings.json").exists()
