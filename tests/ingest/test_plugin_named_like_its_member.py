"""A plugin named after its own member (``plugins/pbt/skills/pbt``, as trailofbits' are)
is one thing of that name: a ``requires: [pbt]`` goes to the skill, without a note that
two components answer to it (the note's advice, "rename one", could not be followed). Two
skills of one name still get the note."""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind


def skill(name: str, requires: str = "") -> str:
    extra = f"requires: [{requires}]\n" if requires else ""
    return f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n\nBody of {name}.\n"


def test_a_requires_naming_a_plugin_and_its_member_goes_to_the_member_without_a_note(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/pbt/.claude-plugin/plugin.json", json.dumps({"name": "pbt", "description": "Property tests."}))
    write_file(repo, "plugins/pbt/skills/pbt/SKILL.md", skill("pbt"))
    write_file(repo, "skills/webapp/SKILL.md", skill("webapp", requires="pbt"))
    result = ingest_skill_repo(repo)
    by_id = {n.id: n for n in result.nodes}
    (target,) = [by_id[e.target] for e in result.edges if e.kind is EdgeKind.DEPENDS_ON]
    assert target.attrs["path"] == "plugins/pbt/skills/pbt/SKILL.md"
    assert not [p for p in (*result.problems, *result.notes) if "components are named" in p.message]


def test_two_skills_of_one_name_are_still_noted(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "skills/a-pbt/SKILL.md", skill("pbt"))
    write_file(repo, "skills/b-pbt/SKILL.md", skill("pbt"))
    write_file(repo, "skills/webapp/SKILL.md", skill("webapp", requires="pbt"))
    result = ingest_skill_repo(repo)
    assert [p for p in (*result.problems, *result.notes) if "2 components are named" in p.message]
