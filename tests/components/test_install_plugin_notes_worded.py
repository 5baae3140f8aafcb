"""A member's ``${CLAUDE_PLUGIN_ROOT}`` and plugin-namespace notes say what this install
does with its plugin. Found installing trailofbits' ``semgrep-rule-variant-creator``: every
such note said "also when this install writes the plugin's components", whether the
install wrote them (the plugin asked for, or required) or only the one file asked for by
its id, which read as if this install might write the plugin. Now it says "this install
writes the plugin's components, not the plugin" in the one case and "installed on its
own" in the other. On a small catalogue indexed by the real code path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import plan_install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

KIT = "cat/plugins/kit"
SKILL = f"{KIT}/skills/variants/SKILL.md"
COMMAND = f"{KIT}/commands/review.md"
WITH_PLUGIN = "this install writes the plugin's components, not the plugin, so"
ALONE = "installed on its own, outside its plugin,"


@pytest.fixture
def index(tmp_path: Path) -> Index:
    cat = tmp_path / "cat"
    write_file(cat, "plugins/kit/.claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    write_file(cat, "plugins/kit/skills/variants/SKILL.md", (
        "---\nname: variants\ndescription: Make rule variants.\n---\n\n"
        'Read `ls "${CLAUDE_PLUGIN_ROOT}/skills/variants/references"` first.\n'))
    write_file(cat, "plugins/kit/commands/review.md", '# Review\n\nHand it to subagent_type: "kit:reviewer".\n')
    write_file(cat, "plugins/kit/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\n\nReview.\n")
    write_file(cat, "skills/user/SKILL.md", "---\nname: user\ndescription: Uses kit.\nrequires: [kit]\n---\n\nUse kit.\n")
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [cat], "skills")
    return index


def _reasons(index: Index, ids: list[str], target: Path) -> dict[str, str]:
    return {c.id: c.reason for c in plan_install(index, ids, target).components}


@pytest.mark.parametrize("asked", [KIT, "cat/skills/user/SKILL.md"], ids=["plugin asked", "plugin required"])
def test_members_written_with_their_plugin_say_it_is_not_the_plugin(
    index: Index, tmp_path: Path, asked: str
) -> None:
    reasons = _reasons(index, [asked], tmp_path / "proj")
    assert f"which only Claude Code's own plugin install sets: {WITH_PLUGIN} those paths lead nowhere" in reasons[SKILL]
    assert f"{WITH_PLUGIN} they are named without it (reviewer)" in reasons[COMMAND]
    for reason in (reasons[SKILL], reasons[COMMAND]):
        assert "install the plugin in Claude Code with /plugin install" in reason
        assert ALONE not in reason and "also when" not in reason


def test_a_member_asked_for_alone_says_it_is_installed_on_its_own(index: Index, tmp_path: Path) -> None:
    reasons = _reasons(index, [SKILL, COMMAND], tmp_path / "proj")
    assert f"{ALONE} those paths lead nowhere" in reasons[SKILL]
    assert f"{ALONE} they are named without it (reviewer)" in reasons[COMMAND]
    for reason in (reasons[SKILL], reasons[COMMAND]):
        assert "plugin's components" not in reason  # this install writes none of the rest
