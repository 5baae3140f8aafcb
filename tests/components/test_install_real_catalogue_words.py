"""Words of the install plan, from a walk over real catalogues (davila7's, wshobson's):

- a hook file holding two command hooks in one ``Bash`` group, told apart by their ``if``
  rules alone (a force-push blocker: ``Bash(git push *--force*)`` and ``Bash(git push
  *-f*)``), was planned as the same line twice ("would add hook PreToolUse (tools
  matching Bash)"); each line now names its rule;
- a plugin's ``hooks/hooks.json`` (the file Claude Code's plugins keep hooks in) was the
  hook "hooks", the same name for every plugin's; it is now ``<plugin>-hooks``, and two
  hooks of one group with no rule to tell them apart are said with what each runs;
- an install whose one miss is a skipped component (a plugin a marketplace only lists, a
  hook that runs a script from the home folder) ended "see 'kept' / 'refused' above",
  words no line above used; the closing line names only the words that are there.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _deny(why: str) -> str:
    return "echo " + json.dumps(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "reason": why}}))


GUARD: dict[str, Any] = {
    "description": "Block force pushes.",
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(git push *--force*)", "command": _deny("force push")},
        {"type": "command", "if": "Bash(git push *-f*)", "command": _deny("force push (-f)")},
    ]}]},
}  # fmt: skip
HOME_GAME: dict[str, Any] = {
    "description": "Play a game while Claude plans.",
    "hooks": {"PreToolUse": [{"matcher": "EnterPlanMode", "hooks": [
        {"type": "command", "command": "bash $HOME/.claude/scripts/game/start.sh"},
    ]}]},
}  # fmt: skip


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[str]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    (repo / "hooks/push-guard.json").write_text(json.dumps(GUARD))
    (repo / "hooks/plan-game.json").write_text(json.dumps(HOME_GAME))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    index.close()
    yield str(tmp_path / "index")


PLUGIN_HOOKS: dict[str, Any] = {
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"},
        {"type": "command", "command": 'python3 "${CLAUDE_PLUGIN_ROOT}/scripts/check.py"'},
    ]}]},
}  # fmt: skip


def _plugin(root: Path, name: str) -> None:
    plugin = root / "plugins" / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text(json.dumps({"name": name, "description": f"{name} guards"}))
    (plugin / "hooks").mkdir()
    (plugin / "hooks/hooks.json").write_text(json.dumps(PLUGIN_HOOKS))
    (plugin / "hooks/guard.sh").write_text("#!/bin/sh\nexit 0\n")
    (plugin / "scripts").mkdir()
    (plugin / "scripts/check.py").write_text("print('checked')\n")


@pytest.fixture
def market_dir(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "market"
    (root / ".claude-plugin").mkdir(parents=True)
    plugins = [{"name": n, "source": f"./plugins/{n}"} for n in ("bash-guard", "git-guard")]
    (root / ".claude-plugin/marketplace.json").write_text(json.dumps({"name": "m", "plugins": plugins}))
    for p in plugins:
        _plugin(root, p["name"])
    index = Index.open(tmp_path / "market-index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [root], "skills")
    index.close()
    yield str(tmp_path / "market-index")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_two_hooks_of_one_group_are_told_apart_by_their_if_rule(
    index_dir: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "push-guard", "--target", str(project), "--index-dir", index_dir, "--dry-run"]) == 0
    lines = [x.strip() for x in capsys.readouterr().out.splitlines() if "add hook" in x]
    assert lines == [
        "would add hook PreToolUse (tools matching Bash, if Bash(git push *--force*)) to .claude/settings.json",
        "would add hook PreToolUse (tools matching Bash, if Bash(git push *-f*)) to .claude/settings.json",
    ]
    assert main(["install", "push-guard", "--target", str(project), "--index-dir", index_dir]) == 0
    written = json.loads((project / ".claude/settings.json").read_text())["hooks"]["PreToolUse"]
    assert [h["if"] for g in written for h in g["hooks"]] == ["Bash(git push *--force*)", "Bash(git push *-f*)"]


def test_a_skip_alone_is_pointed_at_as_skipped(index_dir: str, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = files_under(project)
    assert main(["install", "plan-game", "--target", str(project), "--index-dir", index_dir, "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "skipped - its commands run scripts from the home folder" in out
    assert out.splitlines()[-1] == (
        "some files would not be written: see 'skipped' above (it says why this install cannot place what you asked for)"
    )
    assert "'kept'" not in out and "'refused'" not in out
    assert files_under(project) == before


def test_a_skip_beside_a_refused_hook_names_both(index_dir: str, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text('{"hooks": {"PreToolUse": "not a list"}}')
    code = main(["install", "plan-game", "push-guard", "--target", str(project), "--index-dir", index_dir, "--dry-run"])
    last = capsys.readouterr().out.splitlines()[-1]
    assert code == 1 and last == (
        "some files would not be written: see 'refused' / 'skipped' above (refused: fix what it says and install "
        "again; skipped: it says why this install cannot place what you asked for)"
    ), last


def test_a_plugins_hooks_file_is_named_after_its_plugin(
    market_dir: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files_under(project)
    assert main(["install", "bash-guard", "--target", str(project), "--index-dir", market_dir, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "[hook] bash-guard-hooks  " in out and "[hook] hooks " not in out, out
    assert [x.strip() for x in out.splitlines() if "add hook" in x] == [
        f"would add hook PreToolUse (tools matching Bash, runs {runs}) to .claude/settings.json"
        for runs in ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scripts/check.py"')
    ]
    assert main(["install", "bash-guard", "git-guard", "--target", str(project), "--index-dir", market_dir]) == 0
    out = capsys.readouterr().out
    assert "[hook] bash-guard-hooks  " in out and "[hook] git-guard-hooks  " in out, out
    for name in ("bash-guard-hooks", "git-guard-hooks"):  # each its own name to uninstall by
        assert main(["uninstall", name, "--target", str(project)]) == 0, capsys.readouterr()
    assert files_under(project) == before
