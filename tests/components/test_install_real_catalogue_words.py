"""Words of the install plan, from a walk over real catalogues (davila7's, wshobson's):

- a hook file holding two command hooks in one ``Bash`` group, told apart by their ``if``
  rules alone (a force-push blocker: ``Bash(git push *--force*)`` and ``Bash(git push
  *-f*)``), was planned as the same line twice ("would add hook PreToolUse (tools
  matching Bash)"); each line now names its rule;
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
