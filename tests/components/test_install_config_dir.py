"""``install --user`` with ``$CLAUDE_CONFIG_DIR`` set: Claude Code reads the user's skills,
agents, commands and ``settings.json`` from that folder instead of ``~/.claude``, so a user
install writes them there (and its record in ``.skill-retriever/`` there), and ``uninstall
--user`` takes them back from there. A hook's commands name the scripts it ships by the
folder's absolute path (quoted), so they run whatever folder Claude Code starts them in;
nothing is written under ``~/.claude``. The folder set to ``~/.claude`` itself (by any
spelling) changes nothing; ``$CLAUDE_CONFIG_DIR`` itself is no project to install into.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from claude_schema import settings_problems

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOKS = {
    # name: (command, {script: supportingFiles destination})
    "guard": ('bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', {"guard.sh": ".claude/hooks/guard.sh"}),
    "logger": ("python3 .claude/hooks/logger.py --quiet", {"logger.py": ".claude/hooks/logger.py"}),
    "homely": ("~/.claude/hooks/homely.sh --fast", {"homely.sh": "~/.claude/hooks/homely.sh"}),
    "quoted": ("sh -c 'sh ~/.claude/hooks/q.sh'", {"q.sh": "~/.claude/hooks/q.sh"}),
}  # fmt: skip
SCRIPTS = {
    "guard.sh": '#!/bin/sh\necho "guard ran"\n',
    "logger.py": 'print("logger ran")\n',
    "homely.sh": '#!/bin/sh\necho "homely ran $1"\n',
    "q.sh": '#!/bin/sh\necho "q ran"\n',
}
#: What the install writes into the config folder (besides its record).
WRITTEN = {
    "skills/tidy/SKILL.md",
    "agents/reviewer.md",
    "commands/ship.md",
    "hooks/guard.sh",
    "hooks/logger.py",
    "hooks/homely.sh",
    "settings.json",
}
NAMES = ["tidy", "reviewer", "ship", "guard", "logger", "homely"]


def _front(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {json.dumps(description)}\n---\n\n{body}"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    """A skill, an agent, a command, hooks that ship scripts, and an MCP server."""
    repo = tmp_path / "repo"
    files = {
        "skills/tidy/SKILL.md": _front("tidy", "Tidy imports in Python files.", "# Tidy\n\nSort imports.\n"),
        "agents/reviewer.md": _front("reviewer", "Reviews diffs.", "You review diffs.\n"),
        "commands/ship.md": _front("ship", "Tag a release and push it.", "Tag, then push.\n"),
        "mcps/servers.json": json.dumps({"mcpServers": {"metrics": {"command": "metrics-mcp"}}}),
        **{f"hooks/{script}": text for script, text in SCRIPTS.items()},
    }
    for name, (command, scripts) in HOOKS.items():
        files[f"hooks/{name}.json"] = json.dumps({
            "description": f"the {name} hook",
            "supportingFiles": [
                {"source": s, "destination": d, "executable": True} for s, d in scripts.items()
            ],
            "hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": command}]}]},
        })  # fmt: skip
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [repo], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


@pytest.fixture
def config(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$CLAUDE_CONFIG_DIR, a folder of its own (its name holds a space: quoting matters),
    yet to be made, as Claude Code's first run would make it."""
    folder = home / ".config" / "claude code"
    folder.parent.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


def ids_named(index: Index, *names: str) -> list[str]:
    by_name = {n.name: n.id for n in index.nodes.values()}
    return [by_name[n] for n in names]


def files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def hook_commands(settings: Path) -> list[str]:
    data = json.loads(settings.read_text())
    assert settings_problems(data) == []
    return [h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"]]


def run_hook(command: str, cwd: Path) -> str:
    """Run ``command`` as Claude Code runs a hook: a shell, in whatever folder it is in."""
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout.strip()


def test_a_user_install_writes_into_the_config_dir_and_its_hooks_run_the_copies(
    index: Index, tmp_path: Path, home: Path, config: Path
) -> None:
    plan = install(index, ids_named(index, *NAMES, "quoted"), user=True)
    status = {c.name: c for c in plan.components}
    assert {n for n, c in status.items() if c.status == "install"} == set(NAMES)
    assert plan.target == config and plan.scope == "user"
    assert plan.lines()[0] == f"target: {config} ($CLAUDE_CONFIG_DIR, Claude Code's user folder: .claude/ below stands for it)"
    assert plan.to_dict()["claude_folder"] == str(config)
    assert files(config) == WRITTEN | {".skill-retriever/installed.json", ".skill-retriever/.gitignore"}
    assert not (home / ".claude").exists()
    # each command names its copy by the folder's absolute path, quoted, and runs it from anywhere
    commands = sorted(hook_commands(config / "settings.json"))
    quoted = shlex.quote(str(config))[1:-1]  # the folder as the shell reads it inside quotes
    assert commands == [
        f'"{quoted}"/hooks/homely.sh --fast',
        f'bash "{quoted}"/hooks/guard.sh',
        f'python3 "{quoted}"/hooks/logger.py --quiet',
    ]
    elsewhere = tmp_path / "some-project"
    elsewhere.mkdir()
    assert [run_hook(c, elsewhere) for c in commands] == ["homely ran --fast", "guard ran", "logger ran"]
    assert os.access(config / "hooks/homely.sh", os.X_OK)  # run as the program
    # a copy named inside single quotes cannot be pointed at the folder: skipped, and why
    assert status["quoted"].status == "skipped"
    assert "inside single quotes" in status["quoted"].reason
    assert str(config / "hooks/q.sh") in status["quoted"].reason
    assert not (config / "hooks/q.sh").exists()
    # installing again finds it all in place
    again = install(index, ids_named(index, *NAMES), user=True)
    assert {c.status for c in again.components} == {"unchanged"}


def test_uninstall_takes_back_from_the_config_dir_and_leaves_the_users_files(
    index: Index,
    home: Path,
    config: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config.mkdir()
    settings = '{"theme": "dark",\n "hooks": {}}\n'
    (config / "settings.json").write_text(settings)
    (config / "CLAUDE.md").write_text("# my notes\n")
    (config / "skills/mine").mkdir(parents=True)
    (config / "skills/mine/SKILL.md").write_text(_front("mine", "Mine.", "Mine.\n"))
    index_dir = str(index.path)
    index.close()  # the CLI opens it itself
    assert main(["install", *NAMES, "--user", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"target: {config} ($CLAUDE_CONFIG_DIR")
    data = json.loads((config / "settings.json").read_text())
    assert data["theme"] == "dark" and len(data["hooks"]["PreToolUse"][0]["hooks"]) == 3
    assert main(["uninstall", *NAMES, "--user"]) == 0
    assert capsys.readouterr().out.startswith(f"target: {config} ($CLAUDE_CONFIG_DIR")
    assert files(config) == {"settings.json", "CLAUDE.md", "skills/mine/SKILL.md"}
    assert (config / "settings.json").read_text() == settings  # byte for byte
    assert not (home / ".claude").exists()


def test_an_mcp_server_for_the_user_is_skipped_as_before(index: Index, home: Path, config: Path) -> None:
    plan = install(index, ids_named(index, "metrics", "tidy"), user=True)
    server = next(c for c in plan.components if c.name == "metrics")
    assert server.status == "skipped" and "user-scope MCP servers live in ~/.claude.json" in server.reason
    assert not plan.ok  # asked for by name, and not installed
    assert (config / "skills/tidy/SKILL.md").is_file() and not (config / ".mcp.json").exists()


def test_a_config_dir_that_is_home_claude_by_another_spelling_changes_nothing(
    index: Index, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = tmp_path / "link-to-home"
    link.symlink_to(home)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{link}/./.claude/")
    plan = install(index, ids_named(index, "guard"), user=True)
    assert plan.ok and plan.target == home
    assert plan.lines()[0] == f"target: {home}"
    assert hook_commands(home / ".claude/settings.json") == ['bash "$HOME"/.claude/hooks/guard.sh']
    assert uninstall(ids_named(index, "guard"), user=True).ok and files(home) == set()


def test_a_config_dir_named_claude_elsewhere_is_written_into_not_below(
    index: Index, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "profiles/work/.claude"
    config.parent.mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert install(index, ids_named(index, "tidy", "guard"), user=True).ok
    assert files(config) >= {"skills/tidy/SKILL.md", "hooks/guard.sh", "settings.json"}
    assert not (config / ".claude").exists() and not (home / ".claude").exists()
    assert hook_commands(config / "settings.json") == [f'bash "{config}"/hooks/guard.sh']
    # its folder is no project to install into either (its .claude is the user's)
    with pytest.raises(InstallError, match=r"folder of \$CLAUDE_CONFIG_DIR.*--user"):
        install(index, ids_named(index, "tidy"), config.parent)


def test_the_config_dir_itself_is_no_project(
    index: Index, home: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.mkdir()
    with pytest.raises(InstallError, match=r"is \$CLAUDE_CONFIG_DIR, the folder Claude Code reads your user settings from.*--user"):
        install(index, ids_named(index, "tidy"), config)
    assert files(config) == set()
    index_dir = str(index.path)
    index.close()
    assert main(["install", "tidy", "--target", str(config), "--index-dir", index_dir]) == 2
    assert "give a project folder; nothing written" in capsys.readouterr().err


def test_a_missing_config_dir_is_named_when_uninstalling_and_a_file_is_refused(
    index: Index, home: Path, config: Path
) -> None:
    with pytest.raises(InstallError, match=r"Claude Code's user folder \(\$CLAUDE_CONFIG_DIR\) .* does not exist"):
        uninstall(["tidy"], user=True)
    config.write_text("not a folder")
    with pytest.raises(InstallError, match=r"\$CLAUDE_CONFIG_DIR is .*, a file; point it at the folder"):
        install(index, ids_named(index, "tidy"), user=True)


def test_a_hook_running_a_home_script_it_does_not_ship_says_where_claude_code_looks_now(
    tmp_path: Path, home: Path, config: Path
) -> None:
    repo = tmp_path / "notify-repo"
    (repo / "hooks").mkdir(parents=True)
    command = 'bash "$HOME"/.claude/scripts/notify.sh done'
    (repo / "hooks/notify.json").write_text(json.dumps({
        "description": "notify when done",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]},
    }))  # fmt: skip
    idx = Index.open(tmp_path / "notify-index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(idx, [repo], "skills")
        (lacking,) = install(idx, ids_named(idx, "notify"), user=True).components
        assert not (config / "settings.json").exists()  # skipped: nothing written
        script = home / ".claude/scripts/notify.sh"  # where the command looks, not in $CLAUDE_CONFIG_DIR
        script.parent.mkdir(parents=True)
        script.write_text("#!/bin/sh\n")
        plan = install(idx, ids_named(idx, "notify"), user=True)
    finally:
        idx.close()
    assert lacking.status == "skipped"
    assert f"run .claude/scripts/notify.sh, which it does not ship and is not at {script}" in lacking.reason
    (component,) = plan.components
    assert component.status == "install" and f"{script} holds it" in component.reason
    assert hook_commands(config / "settings.json") == [command]  # left as written: not ours to move
    assert "its commands run $HOME/.claude/scripts/notify.sh, which it does not ship" in component.reason
    assert f"Claude Code's folder is {config} ($CLAUDE_CONFIG_DIR)" in component.reason
