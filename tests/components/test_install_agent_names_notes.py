"""Install notes the user walkthrough asked for:

- an agent that shares its frontmatter ``name`` with another agent in the target's
  ``.claude/agents`` (the user's own ``my-reviewer.md`` saying ``name: review``) was
  installed without a word; Claude Code identifies subagents by that name, not the file
  name, so one of the two goes unused. The install still writes, with a note naming both
  files;
- a refused dry run ended "see 'kept' / 'refused' above (see the reasons above)".
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from component_catalogue import build_index, files_under

from skill_retriever.cli import main
from skill_retriever.components.install import install
from skill_retriever.components.install.claude_names import note_same_named_agents
from skill_retriever.components.install.plan import ComponentPlan, FileAction
from skill_retriever.stores.index import Index

REVIEW = "---\nname: review\ndescription: Reviews the diff before a release.\n---\n\nReview the diff.\n"
AGENT = "ship-mate/agents/review.md"


@pytest.fixture
def index(tmp_path: Path) -> Index:
    repo = tmp_path / "ship-mate"
    (repo / "agents").mkdir(parents=True)
    (repo / "agents/review.md").write_text(REVIEW, encoding="utf-8")
    built = build_index(tmp_path / "index", [repo])
    assert AGENT in built.snapshot().nodes
    return built


def _mine(project: Path, file: str, text: str) -> Path:
    path = project / ".claude/agents" / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _reason(plan: object, node_id: str) -> str:
    (c,) = [c for c in plan.components if c.id == node_id]  # type: ignore[attr-defined]
    return str(c.reason)


def test_an_agent_named_like_one_of_the_users_gets_a_note_and_is_written(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    own = "---\nname: review\ndescription: My own reviewer.\n---\n\nMine.\n"
    _mine(project, "my-reviewer.md", own)
    plan = install(index, ["review"], project)
    index.close()
    assert plan.ok and plan.applied
    reason = _reason(plan, AGENT)
    assert "its frontmatter name 'review' is the name of .claude/agents/my-reviewer.md too" in reason, reason
    assert "Claude Code tells subagents apart by that name" in reason
    assert "set the name: of one (.claude/agents/review.md or .claude/agents/my-reviewer.md)" in reason
    written = files_under(project / ".claude/agents")  # the install still writes; the user's file stays
    assert written == {"my-reviewer.md": own.encode(), "review.md": REVIEW.encode()}
    # Installed again (unchanged), it is still noted, and not against its own file.
    with Index.open(index.path) as reopened:
        again = install(reopened, ["review"], project, dry_run=True)
    reason = _reason(again, AGENT)
    assert ".claude/agents/my-reviewer.md" in reason and "is the name of .claude/agents/review.md" not in reason


def test_the_cli_prints_the_note(index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir = str(index.path)
    index.close()
    project = tmp_path / "proj"
    # Not valid YAML (an unquoted ": "): read leniently, as the index reads it, name and all.
    _mine(project, "my-reviewer.md", "---\nname: review\ndescription: Use this: before a release\n---\n\nMine.\n")
    assert main(["install", "review", "--target", str(project), "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "'review' is the name of .claude/agents/my-reviewer.md too" in out, out
    assert (project / ".claude/agents/review.md").read_text(encoding="utf-8") == REVIEW


def test_agents_of_other_names_and_other_files_get_no_note(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    _mine(project, "my-reviewer.md", "---\nname: my-reviewer\ndescription: Mine.\n---\n\nMine.\n")
    _mine(project, "notes.txt", "name: review\n")  # no agent: Claude Code reads .md files only
    _mine(project, "no-front.md", "name: review\n")  # no frontmatter: no name
    plan = install(index, ["review"], project, dry_run=True)
    index.close()
    assert "frontmatter name" not in _reason(plan, AGENT)


def test_two_agents_of_one_install_sharing_a_name_are_both_noted(tmp_path: Path) -> None:
    """Two agents written at different paths with one frontmatter name (an agent's file is
    named after its node's name, so this takes names spelled differently): each names the other."""
    def agent(node_id: str, path: str) -> ComponentPlan:
        return ComponentPlan(node_id, "agent", "review", "install", (FileAction(path, "create", content=REVIEW.encode()),))

    plans = [agent("a/agents/review.md", ".claude/agents/review.md"),
             agent("b/agents/review.md", ".claude/agents/Review-v2.md"),
             ComponentPlan("c", "command", "review", "install", (FileAction(".claude/commands/review.md", "create", content=REVIEW.encode()),))]
    noted = note_same_named_agents(plans, tmp_path)
    assert "is the name of .claude/agents/Review-v2.md too" in noted[0].reason
    assert "is the name of .claude/agents/review.md too" in noted[1].reason
    assert noted[2].reason == ""  # a command is named by its file (`note_same_named_commands`)


def test_a_refused_dry_run_says_see_above_once(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(index.path)
    index.close()
    agents = tmp_path / "proj" / ".claude/agents"
    agents.mkdir(parents=True)
    real_access = os.access
    if os.geteuid() == 0:  # root writes through chmod 555; os.access says no for it too
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != agents and real_access(p, mode))
    agents.chmod(0o555)
    try:
        code = main(["install", "review", "--target", str(tmp_path / "proj"), "--dry-run", "--index-dir", index_dir])
    finally:
        agents.chmod(0o755)
    out = capsys.readouterr().out
    assert code == 1 and "refused: cannot write into" in out, out
    last = out.strip().splitlines()[-1]
    assert last.startswith("refused: cannot write into") and "some files" not in out, last  # said once
