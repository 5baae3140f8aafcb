"""The real hooks and MCP configs of claude-code-templates (read at run time from
../shared/data; skipped when absent), indexed and installed into a temporary project and
a temporary home: every written ``settings.json`` and ``.mcp.json`` has the shape Claude
Code documents, every script a command runs from ``.claude/hooks/`` is there, installing
twice changes nothing, and uninstalling leaves nothing behind."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from claude_schema import mcp_problems, settings_problems

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.model import NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

COMPONENTS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/skills/davila7__claude-code-templates/cli-tool/components"
)
pytestmark = pytest.mark.skipif(not COMPONENTS.is_dir(), reason="shared skills data not present")
SCRIPT_RE = re.compile(r"\.claude/hooks/[\w.+-]+(?:/[\w.+-]+)*")


@pytest.fixture(scope="module")
def real_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    root = tmp_path_factory.mktemp("cct") / "claude-code-templates"
    for part in ("hooks", "mcps"):  # a copy at run time: the data stays out of the repository
        shutil.copytree(COMPONENTS / part, root / part)
    index = Index.open(root.parent / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [root], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield index
    index.close()


def of_kind(index: Index, kind: NodeKind) -> list[str]:
    return sorted(n.id for n in index.nodes.values() if n.kind is kind)


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_real_hooks_install_into_a_project_and_a_home(real_index: Index, tmp_path: Path) -> None:
    hooks = of_kind(real_index, NodeKind.HOOK)
    assert len(hooks) >= 50
    project = tmp_path / "project"
    plan = install(real_index, hooks, project, allow_conflicts=True)
    statuses = Counter(c.status for c in plan.components)
    print(f"\nproject: {dict(statuses)}")
    assert plan.applied and statuses["install"] >= 40 and set(statuses) <= {"install", "skipped"}
    assert not plan.ok  # some asked for were skipped: the plan says so (and the CLI exits 1)
    for c in plan.components:  # skipped only for a reason an agent can act on
        if c.status == "skipped":
            assert "--user" in c.reason, c.reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    # ai-bash-guard, an agent hook, goes in as written (it was skipped: "only command hooks")
    assert any(h.get("type") == "agent" for g in settings["hooks"]["PreToolUse"] for h in g["hooks"])
    commands = [h["command"] for gs in settings["hooks"].values() for g in gs for h in g["hooks"] if "command" in h]
    named = {m.group(0) for c in commands for m in SCRIPT_RE.finditer(c)}
    shipped = {p for p in named if (project / p).is_file()}
    missing = named - shipped
    noted = " ".join(c.reason for c in plan.components)
    assert all(p in noted for p in missing)  # what is not there, the plan says
    assert len(shipped) >= 10
    before = files(project)
    again = install(real_index, hooks, project, allow_conflicts=True)
    assert again.written() == [] and files(project) == before  # installing twice: no change
    # the hooks that run scripts from ~/.claude/ install for the user
    home = tmp_path / "home"
    mine = [c.id for c in plan.components if c.status == "skipped" and "--user" in c.reason]
    user = install(real_index, mine, user=True, home=home, allow_conflicts=True)
    assert user.ok and all(c.status == "install" for c in user.components)
    assert settings_problems(json.loads((home / ".claude/settings.json").read_text())) == []
    game = home / ".claude/scripts/plan-mode-game/start.sh"
    assert game.is_file() and game.stat().st_mode & 0o100  # where its commands run it
    # and everything goes again: the project and the home are left empty of installs
    assert uninstall([c.id for c in plan.components if c.status == "install"], project).ok
    assert uninstall(mine, user=True, home=home).ok
    assert files(project) == {} and files(home) == {}


def test_real_mcp_configs_merge_with_only_the_documented_keys(
    real_index: Index, tmp_path: Path
) -> None:
    servers = of_kind(real_index, NodeKind.MCP_SERVER)
    by_name: dict[str, str] = {}
    for node_id in servers:  # one per name: two files define a "sentry" server
        by_name.setdefault(real_index.get(node_id).name, node_id)
    project = tmp_path / "project"
    plan = install(real_index, sorted(by_name.values()), project)
    assert plan.ok and {c.status for c in plan.components} == {"install"}
    data = json.loads((project / ".mcp.json").read_text())
    assert mcp_problems(data) == [] and len(data["mcpServers"]) == len(by_name)
    assert "microsoft-clarity-mcp-server" in data["mcpServers"]  # "@microsoft/..." as a usable key
    # a URL server carries its transport, as .mcp.json needs: the source's, else http / sse
    remote = {k: v for k, v in data["mcpServers"].items() if "url" in v}
    assert len(remote) >= 10 and all(v.get("type") in ("http", "sse") for v in remote.values())
    assert data["mcpServers"]["brightdata"]["type"] == "http"  # the source gave none
    assert data["mcpServers"]["devplan"]["type"] == "sse"  # the source said so
    assert install(real_index, sorted(by_name.values()), project).written() == []
    clash = [i for i in servers if i not in by_name.values() and real_index.get(i).name == "sentry"]
    blocked = install(real_index, clash, project, force=True)  # the other sentry's entry: force keeps it too
    (action,) = blocked.components[0].files
    assert not blocked.ok and action.action == "refused"
    assert action.reason.startswith(f"holds what the installed sentry ({by_name['sentry']}) configured; uninstall it first")
    assert uninstall(sorted(by_name.values()), project).ok and files(project) == {}


def test_real_hooks_for_the_user_run_scripts_from_the_home_only(
    real_index: Index, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    plan = install(real_index, of_kind(real_index, NodeKind.HOOK), user=True, home=home,
                   allow_conflicts=True)  # fmt: skip
    assert plan.applied and plan.ok == all(c.status != "skipped" for c in plan.components)
    assert next(c for c in plan.components if c.name == "change-logger").status == "install"
    settings = json.loads((home / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    commands = [h["command"] for gs in settings["hooks"].values() for g in gs for h in g["hooks"] if "command" in h]
    assert 'python3 "$HOME"/.claude/hooks/change-logger.py' in commands
    for command in commands:  # no script is looked for in whatever project is open
        for m in SCRIPT_RE.finditer(command):
            assert re.search(r'(?:\$HOME|~)"?/$', command[: m.start()]), command
            assert (home / m.group(0)).is_file(), command


def test_a_script_a_real_hook_command_runs_directly_is_executable(
    real_index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    hooks = of_kind(real_index, NodeKind.HOOK)
    debug = [i for i in hooks if real_index.get(i).name == "debug-window"]
    assert install(real_index, debug, project).ok
    assert os.access(project / ".claude/hooks/debug-window.sh", os.X_OK)  # its command runs it
    assert install(real_index, hooks, project, allow_conflicts=True).applied
    settings = json.loads((project / ".claude/settings.json").read_text())
    commands = [h["command"] for gs in settings["hooks"].values() for g in gs for h in g["hooks"] if "command" in h]
    direct = 0
    for command in commands:
        try:
            words = [w for w in shlex.split(command) if not re.match(r"[A-Za-z_]\w*=", w)]
        except ValueError:  # shell text shlex cannot read: not a plain program path
            continue
        program = re.sub(r"^\$\{?CLAUDE_PROJECT_DIR\}?/|^\./", "", words[0] if words else "")
        if (project / program).is_file():
            direct += 1
            assert os.access(project / program, os.X_OK), command
    assert direct >= 2
