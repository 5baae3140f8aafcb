"""Where an install may write, and what it writes there.

- A user-scope hook never runs a script from whatever project is open: a command naming a
  shipped script by its place in the project (``.claude/hooks/x.py``,
  ``$CLAUDE_PROJECT_DIR/.claude/hooks/x.py``) is pointed at the home copy; one still
  reaching into the project is skipped with the reason.
- A remote MCP server gets the ``type`` Claude Code's ``.mcp.json`` needs (``http``, or
  ``sse`` for an endpoint at ``/sse``); a ``type`` the source gave is kept; a stdio server
  keeps command/args/env.
- A target that is empty, or whose parent folder is missing (a mistyped path), is refused
  and nothing is written (a dry run of the latter only plans, as ever).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from claude_schema import mcp_problems, settings_problems

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, plan_install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOKS = {
    # name: (command, scripts it ships, as supportingFiles destinations)
    "logger": ("python3 .claude/hooks/logger.py", {"logger.py": ".claude/hooks/logger.py"}),
    "gate": ('bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh', {"gate.sh": ".claude/hooks/gate.sh"}),
    "dotted": ('"./.claude/hooks/dot.sh" --fast', {"dot.sh": ".claude/hooks/dot.sh"}),
    "orphan": ("python3 .claude/hooks/not-shipped.py", {}),
    "quoted": ("sh -c 'python3 .claude/hooks/q.py'", {"q.py": ".claude/hooks/q.py"}),
}  # fmt: skip
SERVERS = {
    "plain-url": {"url": "https://mcp.example.com/mcp?token=T", "description": "remote"},
    "events": {"url": "https://mcp.example.com/sse", "headers": {"X-Key": "k"}},
    "typed": {"type": "sse", "url": "https://mcp.example.com/events"},
    "local": {"command": "pg-mcp", "args": ["--ro"], "env": {"PG": "x"}},
}


def files(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, (command, scripts) in HOOKS.items():
        doc = {
            "description": f"the {name} hook",
            "supportingFiles": [
                {"source": s, "destination": d, "executable": True} for s, d in scripts.items()
            ],
            "hooks": {
                "PostToolUse": [
                    {"matcher": "Edit", "hooks": [{"type": "command", "command": command}]}
                ]
            },
        }
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
        for script in scripts:
            (repo / "hooks" / script).write_text(f"# {script}\n")
    (repo / "mcps").mkdir()
    (repo / "mcps/servers.json").write_text(json.dumps({"mcpServers": SERVERS}))
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [repo], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def ids_named(index: Index, *names: str) -> list[str]:
    by_name = {n.name: n.id for n in index.nodes.values()}
    return [by_name[n] for n in names]


def commands(settings_file: Path) -> dict[str, str]:
    """The first word after ``.claude/hooks/`` -> the command naming it."""
    data = json.loads(settings_file.read_text())
    assert settings_problems(data) == []
    return {
        h["command"].split(".claude/hooks/", 1)[1].split()[0].strip("\"'"): h["command"]
        for groups in data["hooks"].values()
        for g in groups
        for h in g["hooks"]
    }


def test_a_user_hook_runs_its_script_from_the_home_folder_never_the_project(
    index: Index, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    plan = install(index, ids_named(index, *HOOKS), user=True, home=home)
    status = {c.name: c for c in plan.components}
    assert {n for n, c in status.items() if c.status == "install"} == {"logger", "gate", "dotted"}
    got = commands(home / ".claude/settings.json")
    assert got == {
        "logger.py": 'python3 "$HOME"/.claude/hooks/logger.py',
        "gate.sh": 'bash "$HOME"/.claude/hooks/gate.sh',
        "dot.sh": '"$HOME/.claude/hooks/dot.sh" --fast',
    }
    for script in ("logger.py", "gate.sh", "dot.sh"):  # each command finds its script
        assert (home / ".claude/hooks" / script).is_file()
    # a script it does not ship, or one named inside single quotes: skipped, and why
    for name in ("orphan", "quoted"):
        c = status[name]
        assert c.status == "skipped" and "from the open project's folder" in c.reason
        assert "--target" in c.reason and "\n" not in c.reason
    assert not (home / ".claude/hooks/q.py").exists()  # a skipped hook writes nothing
    assert uninstall(ids_named(index, "logger", "gate", "dotted"), user=True, home=home).ok
    assert files(home) == {}


def test_in_a_project_the_same_hooks_run_their_scripts_from_the_project_wherever_claude_is(
    index: Index, tmp_path: Path
) -> None:
    """Claude Code runs a hook in its current folder, which a ``cd`` moves off the project:
    a shipped script named relative to the project is named by $CLAUDE_PROJECT_DIR."""
    project = tmp_path / "project"
    plan = install(index, ids_named(index, *HOOKS), project)
    assert {c.status for c in plan.components if c.name != "orphan"} == {"install"}
    got = commands(project / ".claude/settings.json")
    assert got["logger.py"] == 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/logger.py'
    assert got["gate.sh"] == 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh'
    # a script it does not ship and the project lacks: left out (it would block every call)
    orphan = next(c for c in plan.components if c.name == "orphan")
    assert orphan.status == "skipped" and not plan.ok
    assert "run .claude/hooks/not-shipped.py, which it does not ship and is not at" in orphan.reason
    assert "not-shipped.py" not in (project / ".claude/settings.json").read_text()


def test_remote_servers_get_the_type_claude_code_needs(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "project"
    assert install(index, ids_named(index, *SERVERS), project).ok
    data = json.loads((project / ".mcp.json").read_text())
    assert mcp_problems(data) == []
    expected = {
        "plain-url": {"type": "http", "url": "https://mcp.example.com/mcp?token=T"},
        "events": {"type": "sse", "url": "https://mcp.example.com/sse", "headers": {"X-Key": "k"}},
        "typed": {"type": "sse", "url": "https://mcp.example.com/events"},  # as the source says
        "local": {"command": "pg-mcp", "args": ["--ro"], "env": {"PG": "x"}},
    }
    assert data["mcpServers"] == expected
    # rebuilt from the index (the source file gone): the same rule
    (tmp_path / "repo/mcps/servers.json").unlink()
    other = tmp_path / "other"
    plan = install(index, ids_named(index, "plain-url", "events", "typed"), other)
    assert plan.ok and all("rebuilt from the index" in c.reason for c in plan.components)
    rebuilt = json.loads((other / ".mcp.json").read_text())["mcpServers"]
    assert {k: v["type"] for k, v in rebuilt.items()} == {
        "plain-url": "http",
        "events": "sse",
        "typed": "sse",
    }


def test_a_mistyped_or_empty_target_is_refused_and_nothing_is_created(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-dir" / "project"
    logger = ids_named(index, "logger")
    planned = install(index, logger, missing, dry_run=True)  # a plan writes nothing anyway
    assert not planned.applied and not (tmp_path / "no-such-dir").exists()
    with pytest.raises(InstallError, match="does not exist"):
        install(index, logger, missing)
    for empty in ("", "  "):
        with pytest.raises(InstallError, match="empty"):
            plan_install(index, logger, empty)
    with pytest.raises(InstallError, match="does not exist"):
        install(index, logger, user=True, home=tmp_path / "no-such-dir" / "home")
    with pytest.raises(InstallError, match="does not exist"):
        uninstall(logger, missing)
    assert not (tmp_path / "no-such-dir").exists()
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    argv = ["install", *logger, "--target", str(missing), "--index-dir", index_dir]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "does not exist" in err and "\n" not in err
    assert not (tmp_path / "no-such-dir").exists()
    # a new project folder inside an existing one is still made (one level, no more)
    fresh = tmp_path / "fresh"
    assert main(["install", *logger, "--target", str(fresh), "--index-dir", index_dir]) == 0
    assert (fresh / ".claude/settings.json").is_file()


def test_an_empty_target_on_the_command_line_is_refused_not_the_working_folder(
    index: Index,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--target ""`` once became ``.``: install wrote into, and uninstall took from,
    whatever folder the command ran in."""
    project = tmp_path / "project"
    logger = ids_named(index, "logger")
    assert install(index, logger, project).ok
    before = files(project)
    index_dir = str(index.path)
    index.close()
    monkeypatch.chdir(project)  # where an empty target would have pointed
    for argv in (
        ["install", *logger, "--target", "", "--index-dir", index_dir, "--force"],
        ["uninstall", *logger, "--target", ""],
        ["uninstall", *logger, "--target", "  ", "--force"],
    ):
        with pytest.raises(SystemExit) as exited:  # argparse's refusal, before the index opens
            main(argv)
        assert exited.value.code == 2, argv
        err = capsys.readouterr().err.strip()
        what = "install into" if argv[0] == "install" else "uninstall from"
        assert err == (
            f"skill-retriever {argv[0]}: error: argument --target: is empty; give the project folder to {what}, "
            f"or --user for your Claude Code folder (see skill-retriever {argv[0]} --help)"
        )
    assert files(project) == before
    assert main(["uninstall", *logger, "--target", "."]) == 0  # a real path still works
    assert files(project) == {}
