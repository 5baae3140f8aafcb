"""An agent named through its plugin anywhere in a component's text is noted, not only
after ``subagent_type``: wshobson's ``agent-teams`` writes `` `subagent_type`: the selected
role (for example, `agent-teams:team-lead` ...) `` and a skill's table of
``agent-teams:team-*``; installed outside the plugin the agents are plain ``team-lead``, and
those names lead nowhere, unsaid (seen: a QA run this session).
"""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PLUGIN = "mkt/plugins/team-kit"


def _index(tmp_path: Path) -> Index:
    root = tmp_path / "mkt"
    plugin = root / "plugins/team-kit"
    write_file(root, ".claude-plugin/marketplace.json",
               json.dumps({"name": "m", "plugins": [{"name": "team-kit", "source": "./plugins/team-kit"}]}))
    write_file(plugin, ".claude-plugin/plugin.json", json.dumps({"name": "team-kit"}))
    write_file(plugin, "agents/team-lead.md", "---\nname: team-lead\ndescription: Leads a team.\n---\n\nLead.\n")
    write_file(plugin, "agents/team-reviewer.md", "---\nname: team-reviewer\ndescription: Reviews.\n---\n\nReview.\n")
    write_file(plugin, "commands/team-spawn.md",
               "---\ndescription: Spawn a team.\n---\n\n`subagent_type`: the selected role (for example, "
               "`team-kit:team-lead` or team-kit:team-reviewer). Then run /team-kit:team-status.\n")
    write_file(plugin, "skills/team-patterns/SKILL.md",
               "---\nname: team-patterns\ndescription: Team patterns.\n---\n\n| Role | Agent |\n|---|---|\n"
               "| lead | `team-kit:team-lead` |\n")
    write_file(plugin, "commands/team-status.md", "---\ndescription: Say the team's status.\n---\n\nStatus of team-kit.\n")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [root], "skills")
    return index


def test_an_agent_named_through_its_plugin_anywhere_is_noted(tmp_path: Path) -> None:
    index = _index(tmp_path)
    plan = install(index, [f"{PLUGIN}/commands/team-spawn.md", f"{PLUGIN}/skills/team-patterns/SKILL.md",
                           f"{PLUGIN}/commands/team-status.md"], tmp_path / "proj", dry_run=True)
    reasons = {c.name: c.reason for c in plan.components}
    assert "names agents by their plugin's namespace (team-kit:team-lead, team-kit:team-reviewer)" in reasons["team-spawn"], reasons
    assert "names agents by their plugin's namespace (team-kit:team-lead)" in reasons["team-patterns"], reasons
    assert "namespace" not in reasons["team-status"], reasons  # the plugin's name alone, no agent
    assert "team-status" not in reasons["team-spawn"].partition("namespace")[2], reasons  # a command's /plugin:name is no agent
