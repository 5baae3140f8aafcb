"""A file inside a skill's folder is the skill's own: an ``agents/``, ``commands/`` or
``hooks/`` folder there holds prompts the skill reads by path, not components Claude Code
registers. anthropics/skills' ``skill-creator`` keeps ``agents/analyzer.md`` and
``agents/comparator.md`` (plain Markdown, no frontmatter) for subagents it starts itself:
they were indexed as agents "analyzer" and "comparator" with no description, each with a
note telling the author to add one because Claude Code loads no agent without it, and
``install analyzer`` would write ``.claude/agents/analyzer.md``. JSON files inside a skill
were already no components."""

from __future__ import annotations

from pathlib import Path

from files import write_file

from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind


def _md(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\nBody.\n"


def test_kind_folders_inside_a_skill_make_no_components(tmp_path: Path) -> None:
    root = tmp_path / "skills-repo"
    write_file(root, "skills/skill-creator/SKILL.md", _md("skill-creator", "Create skills."))
    write_file(root, "skills/skill-creator/agents/analyzer.md", "# Post-hoc Analyzer Agent\n\nAnalyze results.\n")
    write_file(root, "skills/skill-creator/agents/grader.md", _md("grader", "Grades an eval run."))
    write_file(root, "skills/skill-creator/commands/run.md", "---\ndescription: Run the evals.\n---\nRun.\n")
    write_file(root, "skills/skill-creator/hooks/notes.md", "Notes on hooks the skill suggests.\n")
    write_file(root, "agents/reviewer.md", _md("reviewer", "Reviews code."))
    result = ingest_skill_repo(root)
    kinds = {n.attrs["path"]: n.kind for n in result.nodes}
    assert kinds == {
        "skills/skill-creator/SKILL.md": NodeKind.SKILL,
        # named and described, as a template or a reference file there: the skill's part
        "skills/skill-creator/agents/grader.md": NodeKind.OTHER,
        "agents/reviewer.md": NodeKind.AGENT,
    }
    assert result.problems == []  # no "add a description" advice for a file Claude Code never loads
    parts = {(e.source, e.target) for e in result.edges if e.kind is EdgeKind.PART_OF}
    assert parts == {("skills-repo/skills/skill-creator/agents/grader.md", "skills-repo/skills/skill-creator/SKILL.md")}
    skill = next(n for n in result.nodes if n.kind is NodeKind.SKILL)
    assert "agents/analyzer.md" in skill.attrs["files"]  # installed with its skill


def test_a_plugins_own_kind_folders_still_make_components(tmp_path: Path) -> None:
    root = tmp_path / "market"
    write_file(root, "plugins/kit/skills/lint/SKILL.md", _md("lint", "Lints."))
    write_file(root, "plugins/kit/agents/fixer.md", _md("fixer", "Fixes lint."))
    write_file(root, "plugins/kit/commands/check.md", "---\ndescription: Check.\n---\nCheck.\n")
    kinds = {n.attrs["path"]: n.kind for n in ingest_skill_repo(root).nodes}
    assert kinds["plugins/kit/agents/fixer.md"] is NodeKind.AGENT
    assert kinds["plugins/kit/commands/check.md"] is NodeKind.COMMAND
