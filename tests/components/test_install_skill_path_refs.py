"""A command, agent or skill whose text runs a file of another skill by its installed path
(``python3 .claude/skills/task-execution-engine/scripts/task_manager.py``) gets a note when
the target will not hold that skill, naming what to install.

davila7's ``/feature-pipeline`` and ``/doordash-budget``
(../shared/data/skills/davila7__claude-code-templates/cli-tool/components/commands) run
scripts of the skills task-execution-engine and doordash-spend-guard that way; such a path
is no declared requirement, so install wrote the command alone, said nothing, and the
command's first step failed (seen installing them into a fresh project).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.cli import main

COMMAND = """---
description: Run a feature through its tasks
---

1. Run `python3 .claude/skills/task-engine/scripts/task_manager.py status --file <design.md>`
2. Read `$CLAUDE_PROJECT_DIR/.claude/skills/ghost-skill/notes.md` if there.
"""
NOTE = ("its text names .claude/skills/task-engine/, .claude/skills/ghost-skill/, the folders of skills the "
        "target will not hold: install it too (task-engine); add the others to .claude/skills, or edit those paths")


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("skillrefs")
    write_file(root, "repo/commands/pipeline.md", COMMAND)
    write_file(root, "repo/skills/task-engine/SKILL.md",
               "---\nname: task-engine\ndescription: Tracks tasks of a design.\n---\n\nRun scripts/task_manager.py.\n")
    write_file(root, "repo/skills/task-engine/scripts/task_manager.py", "print('ok')\n")
    assert main(["index", str(root / "repo"), "--index-dir", str(root / "ix"), "--embedder", "hashing-64"]) == 0
    return root / "ix"


def test_a_skill_run_by_path_and_not_installed_is_noted_with_what_to_install(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "pipeline", "--target", target, "--index-dir", index_dir, "--dry-run")
    assert code == 0, out + err
    # ghost-skill, a folder no skill of the index has, is said with what to do instead
    assert NOTE in out, out


def test_no_note_when_the_skill_comes_along_or_is_there(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    (target / ".claude/skills/ghost-skill").mkdir(parents=True)  # the user's own
    code, out, err = run(capsys, "install", "pipeline", "task-engine", "--target", target, "--index-dir", index_dir)
    assert code == 0 and ".claude/skills/task-engine/scripts/task_manager.py" in out, out + err
    assert "will not hold" not in out, out
    code, out, err = run(capsys, "install", "pipeline", "--target", target, "--index-dir", index_dir)
    assert code == 0 and "will not hold" not in out, out + err
