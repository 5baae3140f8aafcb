"""Several marketplace entries whose source is the marketplace root (`plugin_manifests`,
`plugin_paths`): the layout of anthropics/skills, one repository whose marketplace.json
lists plugins (document-skills, example-skills, claude-api) that each name their own
skills below the one ``skills/`` folder, ``"source": "./"`` and ``"strict": false``.

An entry whose source is the marketplace root loads only the skills its ``skills`` paths
name (Claude Code's plugins reference, "Path behavior rules":
https://code.claude.com/docs/en/plugins-reference#path-behavior-rules), and each entry is
a plugin of its own, installed by ``/plugin install <name>@<marketplace>``
(https://code.claude.com/docs/en/plugin-marketplaces). Only the first entry was indexed;
the others were skipped ("points at folder '', as 'document-skills' does").
"""

from __future__ import annotations

import json
from pathlib import Path

from shared_root_market import GROUPS, MARKET, shared_root, shared_root_components

from skill_retriever.ingest.result import IngestResult, Unread
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind


def _members(result: IngestResult) -> dict[str, set[str]]:
    """Plugin node id (without the source name) -> the ids PART_OF it."""
    plugins = {n.id for n in result.nodes if n.kind is NodeKind.PLUGIN}
    out: dict[str, set[str]] = {p.removeprefix("repo/"): set() for p in plugins}
    for e in result.edges:
        if e.kind is EdgeKind.PART_OF and e.target in plugins:
            out[e.target.removeprefix("repo/")].add(e.source.removeprefix("repo/"))
    return out


def test_each_entry_at_the_marketplace_root_is_a_plugin_owning_the_skills_it_lists(tmp_path: Path) -> None:
    result = ingest_skill_repo(shared_root(tmp_path / "repo", GROUPS))
    assert _members(result) == {
        f"{MARKET}#{name}": {f"skills/{s}/SKILL.md" for s in skills} for name, skills in GROUPS.items()
    }
    assert result.problems == []
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["skills/pdf/SKILL.md"].attrs["plugin"] == "document-skills"
    assert nodes["skills/claude-api/SKILL.md"].attrs["plugin"] == "claude-api"
    api = nodes[f"{MARKET}#claude-api"]
    assert api.name == "claude-api" and api.attrs["marketplace"] == "anthropic-agent-skills"
    assert "claude-api (skill)" in api.text and "pdf" not in api.text


def test_a_skill_no_entry_lists_is_said_once_and_belongs_to_no_plugin(tmp_path: Path) -> None:
    result = ingest_skill_repo(shared_root(tmp_path / "repo", GROUPS, extra=("canvas-design",)))
    assert all("skills/canvas-design/SKILL.md" not in m for m in _members(result).values())
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["skills/canvas-design/SKILL.md"].kind is NodeKind.SKILL
    assert "plugin" not in nodes["skills/canvas-design/SKILL.md"].attrs
    (problem,) = result.problems  # once, not once per entry, and not the skills other entries list
    assert problem.path == str(tmp_path / "repo" / MARKET) and problem.keeps is Unread.NOTHING
    assert "1 skill no skills path names (skills/canvas-design)" in problem.message


def test_a_skill_two_entries_list_belongs_to_both(tmp_path: Path) -> None:
    """Claude Code loads a plugin's listed skills under that plugin, whichever other entry
    lists them too: installing either plugin brings the skill, so it is PART_OF both."""
    groups = {"document-skills": ["pdf", "docx"], "pdf-only": ["pdf"]}
    result = ingest_skill_repo(shared_root(tmp_path / "repo", groups))
    assert _members(result) == {
        f"{MARKET}#document-skills": {"skills/pdf/SKILL.md", "skills/docx/SKILL.md"},
        f"{MARKET}#pdf-only": {"skills/pdf/SKILL.md"},
    }
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["skills/pdf/SKILL.md"].attrs["plugin"] == "document-skills"  # the first entry's name
    assert result.problems == []


def test_each_entry_at_the_root_owns_the_commands_and_agents_its_own_paths_name(tmp_path: Path) -> None:
    """A ``commands`` or ``agents`` path replaces the default folder for the entry naming it
    (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules), not for the other
    entries of the folder: each loads its own paths, or the default folders when it names none.
    Every entry had every file of the root, and a file one entry's paths left out was not
    indexed though the others load it."""
    result = ingest_skill_repo(shared_root_components(tmp_path / "repo"))
    shared = {"hooks/hooks.json", "skills/pdf/SKILL.md"}
    assert _members(result) == {
        f"{MARKET}#alpha": shared | {"commands/deploy.md", "extras/ship.md", "agents/reviewer.md", "agents/tester.md"},
        f"{MARKET}#beta": shared | {"commands/deploy.md", "commands/clean.md", "agents/reviewer.md"},
        f"{MARKET}#gamma": shared | {"commands/deploy.md", "commands/clean.md", "agents/reviewer.md", "agents/tester.md"},
    }
    assert result.problems == []
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["commands/clean.md"].attrs["plugin"] == "beta"  # the first entry holding it
    assert nodes["extras/ship.md"].kind is NodeKind.COMMAND
    assert "tester (agent)" not in nodes[f"{MARKET}#beta"].text
    assert "ship (command)" not in nodes[f"{MARKET}#gamma"].text


def test_a_default_folder_every_entry_at_the_root_replaces_is_said_once(tmp_path: Path) -> None:
    repo = shared_root_components(tmp_path / "repo")
    data = json.loads((repo / MARKET).read_text())
    for entry in data["plugins"][1:]:
        entry["commands"] = "./commands/deploy.md"
    (repo / MARKET).write_text(json.dumps(data))
    result = ingest_skill_repo(repo)
    assert "commands/clean.md" not in {n.id.removeprefix("repo/") for n in result.nodes}
    (problem,) = [p for p in result.problems if "commands/clean.md" in p.message]
    assert "'commands' replaces the default commands/ folder" in problem.message


def test_a_root_plugin_json_names_none_of_several_entries_at_the_root(tmp_path: Path) -> None:
    """A plugin.json at the marketplace root is read by each entry whose source is that root,
    but each is the plugin of its own entry, installed by the entry's name
    (``/plugin install alpha@acme-market``): the plugin.json's name was given to all three
    (three plugins 'acme', folded into one query result, ``install alpha`` finding nothing),
    and the first entry's id was the plugin.json's path, not ``<marketplace.json>#alpha``."""
    repo = shared_root_components(tmp_path / "repo")
    (repo / ".claude-plugin/plugin.json").write_text(
        json.dumps({"name": "acme", "description": "The acme toolkit.", "version": "1.2.0"}))
    result = ingest_skill_repo(repo)
    plugins = {n.id.removeprefix("repo/"): n for n in result.nodes if n.kind is NodeKind.PLUGIN}
    assert {i: (n.name, n.description, n.attrs["version"]) for i, n in plugins.items()} == {
        f"{MARKET}#alpha": ("alpha", "Alpha deploy tools.", "1.2.0"),
        f"{MARKET}#beta": ("beta", "Beta reviewers.", "1.2.0"),
        f"{MARKET}#gamma": ("gamma", "Gamma, all by default.", "1.2.0"),
    }
    assert _members(result)[f"{MARKET}#beta"] >= {"commands/clean.md", "agents/reviewer.md"}
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["commands/deploy.md"].attrs["plugin"] == "alpha"
    assert result.problems == []


def test_inline_hooks_of_two_entries_at_the_root_are_two_hooks_each_named_after_its_entry(tmp_path: Path) -> None:
    """Both were named after the root folder ('repo-hooks'): a query showed one, the other
    folded into it as a copy ('also at'), and neither could be installed by name."""
    repo = shared_root_components(tmp_path / "repo")
    data = json.loads((repo / MARKET).read_text())
    for entry in data["plugins"][:2]:
        entry["hooks"] = {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": f"echo {entry['name']}"}]}]}
    (repo / MARKET).write_text(json.dumps(data))
    result = ingest_skill_repo(repo)
    hooks = {n.id.removeprefix("repo/"): n.name for n in result.nodes if n.kind is NodeKind.HOOK}
    assert hooks == {f"{MARKET}#alpha#hooks": "alpha-entry-hooks", f"{MARKET}#beta#hooks": "beta-entry-hooks",
                     "hooks/hooks.json": "hooks"}
    members = _members(result)
    assert f"{MARKET}#alpha#hooks" in members[f"{MARKET}#alpha"] and f"{MARKET}#alpha#hooks" not in members[f"{MARKET}#beta"]
    assert result.problems == []
