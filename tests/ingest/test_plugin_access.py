"""Who may see a plugin that gives no ``access`` of its own: whoever may see a member.

A folder of private skills (each ``access: [bob]``) was indexed as a public plugin named
after the folder, most often the private skill's own name, which every caller found in
search, status counts, ``get_component`` and install plans (found in a privacy walk over
trailofbits/skills). Every plugin node (a bare ``plugins/<x>`` folder, a ``plugin.json``, a
marketplace entry, one at a marketplace root beside others) now takes its members' labels
when it gives none: public when a member is; else their union. One that gives ``access``
keeps it. The end to end check over real data is ``tests/adapters/test_mcp_walk_private_plugins.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import deny_reading, write_file
from indexed_access import indexed_access
from shared_root_market import shared_root

from skill_retriever.ingest.result import Unread
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind


def _md(name: str, access: str = "") -> str:
    line = f"access: [{access}]\n" if access else ""
    return f"---\nname: {name}\ndescription: The {name} part audits code.\n{line}---\n\nBody of {name}.\n"


def _plugins(repo: Path) -> dict[str, tuple[str, ...]]:
    result = ingest_skill_repo(repo)
    return {n.id.removeprefix(f"{repo.name}/"): n.access for n in result.nodes if n.kind is NodeKind.PLUGIN}


def test_a_bare_plugin_folder_of_private_members_is_private_to_them(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/audit/skills/audit/SKILL.md", _md("audit", "bob"))
    write_file(repo, "plugins/audit/skills/audit/templates/FORM.md", _md("audit-form"))  # the skill's: bob's
    write_file(repo, "plugins/mixed/skills/a/SKILL.md", _md("a", "bob"))
    write_file(repo, "plugins/mixed/agents/b.md", _md("b", "alice, carol"))
    write_file(repo, "plugins/open/skills/c/SKILL.md", _md("c", "bob"))
    write_file(repo, "plugins/open/commands/d.md", _md("d"))  # public: the plugin is
    result = ingest_skill_repo(repo)
    nodes = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert nodes["plugins/audit"].access == ("bob",)
    assert nodes["plugins/mixed"].access == ("alice", "bob", "carol")  # whoever sees a member
    assert nodes["plugins/open"].access == ()
    # the text names the members every caller who sees the plugin may see, as before
    assert "audit (skill)" in nodes["plugins/audit"].text
    assert " a (skill)" not in nodes["plugins/mixed"].text and "b (agent)" not in nodes["plugins/mixed"].text
    assert "d (command)" in nodes["plugins/open"].text and "c (skill)" not in nodes["plugins/open"].text
    # the members keep their own labels; the edges are made, hidden with their ends
    assert nodes["plugins/audit/skills/audit/templates/FORM.md"].access == ("bob",)
    part_of = {(e.source.removeprefix("repo/"), e.target.removeprefix("repo/"))
               for e in result.edges if e.kind is EdgeKind.PART_OF}
    assert ("plugins/audit/skills/audit/SKILL.md", "plugins/audit") in part_of


def test_a_manifest_that_gives_access_keeps_it_and_one_that_gives_none_takes_its_members(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/given/.claude-plugin/plugin.json", {"name": "given", "access": ["team"]})
    write_file(repo, "plugins/given/skills/x/SKILL.md", _md("x", "bob"))
    write_file(repo, "plugins/given/agents/y.md", _md("y"))  # takes the plugin's: team
    write_file(repo, "plugins/silent/.claude-plugin/plugin.json", {"name": "silent", "description": "Audits."})
    write_file(repo, "plugins/silent/skills/z/SKILL.md", _md("z", "bob"))
    write_file(repo, "plugins/empty/.claude-plugin/plugin.json", {"name": "empty", "description": "Nothing yet."})
    result = ingest_skill_repo(repo)
    access = {n.name: n.access for n in result.nodes}
    assert access["given"] == ("team",) and access["y"] == ("team",) and access["x"] == ("bob",)
    assert access["silent"] == ("bob",)
    assert access["empty"] == ()  # no member: nothing private to hide


def test_marketplace_entries_take_their_members_labels_unless_they_give_access(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, ".claude-plugin/marketplace.json", {"name": "m", "plugins": [
        {"name": "quiet", "source": "./plugins/quiet", "description": "Quiet."},
        {"name": "loud", "source": "./plugins/loud", "access": ["ops"]},
        {"name": "away", "source": {"source": "github", "repo": "acme/away"}},
        {"name": "away-private", "source": {"source": "github", "repo": "acme/p"}, "access": ["ops"]},
    ]})
    write_file(repo, "plugins/quiet/skills/q/SKILL.md", _md("q", "bob"))
    write_file(repo, "plugins/loud/skills/l/SKILL.md", _md("l", "bob"))
    access = {n.name: n.access for n in ingest_skill_repo(repo).nodes}
    assert access["quiet"] == ("bob",) and access["loud"] == ("ops",)
    assert access["away"] == () and access["away-private"] == ("ops",)


def test_entries_sharing_a_marketplace_root_each_take_their_own_members(tmp_path: Path) -> None:
    repo = shared_root(tmp_path / "repo", {"docs": ["xlsx", "pdf"], "art": ["canvas"]})
    skill = repo / "skills/xlsx/SKILL.md"
    skill.write_text(skill.read_text().replace("---\n", "---\naccess: [bob]\n", 1))
    for name in ("pdf", "canvas"):
        path = repo / f"skills/{name}/SKILL.md"
        path.write_text(path.read_text().replace("---\n", "---\naccess: [alice]\n", 1))
    access = {n.name: n.access for n in ingest_skill_repo(repo).nodes if n.kind is NodeKind.PLUGIN}
    assert access == {"docs": ("alice", "bob"), "art": ("alice",)}


def test_a_plugin_around_plugins_takes_them_as_members(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, ".claude-plugin/plugin.json", {"name": "outer", "description": "Everything."})
    write_file(repo, "plugins/inner/skills/i/SKILL.md", _md("i", "bob"))
    assert _plugins(repo) == {".claude-plugin/plugin.json": ("bob",), "plugins/inner": ("bob",)}
    write_file(repo, "agents/open.md", _md("open"))  # a public member of the outer one
    assert _plugins(repo) == {".claude-plugin/plugin.json": (), "plugins/inner": ("bob",)}
    # an outer plugin that gives access: the inner one takes it, as before
    write_file(repo, ".claude-plugin/plugin.json", {"name": "outer", "access": ["ops"]})
    write_file(repo, "plugins/inner/agents/j.md", _md("j"))
    result = ingest_skill_repo(repo)
    access = {n.name: n.access for n in result.nodes}
    assert access["outer"] == ("ops",) and access["inner"] == ("ops",) and access["j"] == ("ops",)


def test_a_manifest_plugin_whose_members_cannot_be_read_stays_as_indexed_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/p/.claude-plugin/plugin.json", json.dumps({"name": "p"}))
    locked = write_file(repo, "plugins/p/skills/s/SKILL.md", _md("s", "bob"))
    deny_reading(monkeypatch, locked)
    result = ingest_skill_repo(repo)
    # made of nothing read today it would be public, where the skill kept from before is bob's
    assert [n.id for n in result.nodes if n.kind is NodeKind.PLUGIN] == []
    (kept,) = [p for p in result.problems if p.keeps is Unread.ITEM]
    assert kept.item == "repo/plugins/p" and "stays as indexed before" in kept.message


def test_a_manifest_that_cannot_be_read_makes_neither_the_plugin_nor_its_members_public(tmp_path: Path) -> None:
    """A plugin.json giving ``access: [ops]`` broken by one edit (a trailing comma) was read
    as ``{}``: the plugin and each member without labels of its own were written public
    over their private versions. Who may see them is the manifest's to say: neither is
    indexed this run, and what was indexed before stays (the files' problems keep it)."""
    repo, ix = tmp_path / "repo", tmp_path / "index"
    manifest = write_file(repo, "plugins/ops/.claude-plugin/plugin.json", {"name": "ops", "access": ["ops"]})
    write_file(repo, "plugins/ops/skills/vault/SKILL.md", _md("vault"))
    write_file(repo, "skills/open/SKILL.md", _md("open"))


    assert indexed_access(repo, ix) == {"ops": ("ops",), "vault": ("ops",), "open": ()}
    manifest.write_text('{"name": "ops", "access": ["ops"],}', encoding="utf-8")
    result = ingest_skill_repo(repo)
    assert {n.name for n in result.nodes} == {"open"}
    said = {p.path: p.message for p in result.problems}
    assert said[str(manifest)].startswith("plugin not indexed, nor are its members")
    assert "cannot be read" in said[str(repo / "plugins/ops/skills/vault/SKILL.md")]
    assert indexed_access(repo, ix) == {"ops": ("ops",), "vault": ("ops",), "open": ()}  # as indexed before
