"""A requirement that is a plugin (``requires: [kit]`` where only a plugin has that name)
installs the plugin's components, as ``install kit`` does: each is "required by user via
kit", the plugin is never planned as skipped, and the requirer gets no "not being
installed" note for it; uninstalling the requirer takes them back. A member requiring its
own plugin is a cycle, reported and walked once. A member that is skipped keeps its own
reason (and the requirer's note says so, via the plugin); a plugin with nothing install
can place gets a note of its own. The dependency check and search answers show the same
members. On a small catalogue indexed by the real code path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.missing import NO_MEMBERS
from skill_retriever.components.service import ComponentService
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

KIT = "cat/plugins/kit"
A = f"{KIT}/skills/a/SKILL.md"
B = f"{KIT}/agents/b.md"
USER = "cat/skills/user/SKILL.md"
SRV = "cat/plugins/srv"
LOOKUP = f"{SRV}/.mcp.json#lookup"
REMOTE = "cat/skills/remote/SKILL.md"
HOLLOW = "cat/plugins/hollow"
LONELY = "cat/skills/lonely/SKILL.md"


def _skill(name: str, requires: str = "") -> str:
    needs = f"requires: [{requires}]\n" if requires else ""
    return f"---\nname: {name}\ndescription: The {name} skill.\n{needs}---\n\nBody of {name}.\n"


def _catalogue(root: Path, *, cycle: bool) -> Path:
    cat = root / "cat"
    write_file(cat, "plugins/kit/.claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    write_file(cat, "plugins/kit/skills/a/SKILL.md", _skill("a", "kit" if cycle else ""))
    write_file(cat, "plugins/kit/agents/b.md", "---\nname: b\ndescription: Agent b.\n---\n\nDo b.\n")
    write_file(cat, "skills/user/SKILL.md", _skill("user", "kit"))
    # a plugin whose only member is an MCP server (skipped by a user install)
    write_file(cat, "plugins/srv/.claude-plugin/plugin.json", json.dumps({"name": "srv"}))
    servers = {"mcpServers": {"lookup": {"command": "node", "args": ["lookup.js"]}}}
    write_file(cat, "plugins/srv/.mcp.json", json.dumps(servers))
    write_file(cat, "skills/remote/SKILL.md", _skill("remote", "srv"))
    # a plugin with no member at all
    write_file(cat, "plugins/hollow/.claude-plugin/plugin.json", json.dumps({"name": "hollow"}))
    write_file(cat, "skills/lonely/SKILL.md", _skill("lonely", "hollow"))
    return cat


def _index(tmp_path: Path, *, cycle: bool = False) -> Index:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [_catalogue(tmp_path, cycle=cycle)], "skills")
    assert not [p for s in run.sources for p in s.problems]
    return index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    idx = _index(tmp_path)
    yield idx
    idx.close()


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_a_required_plugin_installs_its_components_and_uninstall_takes_them_back(
    index: Index, tmp_path: Path
) -> None:
    proj = tmp_path / "proj"
    plan = install(index, ["user"], proj)
    assert plan.ok and plan.applied
    assert [c.id for c in plan.components] == [USER, B, A]  # the plugin itself: not planned
    assert {c.status for c in plan.components} == {"install"}
    assert {".claude/skills/a/SKILL.md", ".claude/agents/b.md", ".claude/skills/user/SKILL.md"} <= _files(proj)
    text = "\n".join(plan.lines())
    assert f"[skill] a  {A} (required by user via kit): install" in text
    assert f"[agent] b  {B} (required by user via kit): install" in text
    assert "not being installed" not in text and "[plugin]" not in text and "note:" not in text
    assert plan.requires[USER] == (B, A) and not plan.plugins  # kit was not asked for
    member = next(c for c in plan.to_dict()["components"] if c["id"] == A)
    assert member["required_by"] == [USER] and member["via"] == [KIT]
    report = uninstall(["user"], proj)
    assert report.ok and sorted(report.along) == ["a", "b"]
    assert not any(p.startswith(".claude/") for p in _files(proj))


def test_without_dependencies_the_members_are_noted_via_the_plugin(index: Index, tmp_path: Path) -> None:
    plan = install(index, ["user"], tmp_path / "proj", with_dependencies=False, dry_run=True)
    (user,) = plan.components
    assert [(m.id, m.via) for m in user.missing] == [(B, (KIT,)), (A, (KIT,))]
    assert f"requires a ({A}, via kit), which this install leaves out" in "\n".join(plan.lines())


def test_a_member_requiring_its_own_plugin_is_a_cycle_walked_once(tmp_path: Path) -> None:
    with _index(tmp_path, cycle=True) as index:
        plan = install(index, ["user"], tmp_path / "proj")
        by_name = install(index, ["kit"], tmp_path / "named", dry_run=True)
    assert plan.ok and [c.id for c in plan.components] == [USER, B, A]
    assert plan.cycles == ((KIT, A, KIT),)
    assert f"dependency cycle: {KIT} -> {A} -> {KIT}" in plan.lines()
    assert plan.requires[A] == (B,)  # its sibling, never itself
    assert all(not c.missing for c in plan.components)
    # asked for by name, the plugin still installs its members, and the one requiring
    # it needs no plugin planned as skipped
    assert [c.id for c in by_name.components] == [B, A] and by_name.plugins == {KIT: (B, A)}
    assert {c.status for c in by_name.components} == {"install"}
    assert "not being installed" not in "\n".join(by_name.lines())


def test_a_skipped_member_keeps_its_reason_and_the_requirer_says_so(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    home = tmp_path / "home"
    home.mkdir()
    plan = install(index, ["remote"], user=True, home=home)
    remote, server = plan.components
    assert (remote.id, remote.status, server.id, server.status) == (REMOTE, "install", LOOKUP, "skipped")
    assert server.reason and server.via == (SRV,)  # the server's own reason, not the plugin's
    (missing,) = remote.missing
    assert (missing.id, missing.status, missing.via) == (LOOKUP, "skipped", (SRV,))
    assert f"requires lookup ({LOOKUP}, via srv), which is not being installed (skipped: {server.reason})" in missing.note
    assert plan.ok and (home / ".claude/skills/remote/SKILL.md").is_file()


def test_a_plugin_with_nothing_to_install_gets_a_note(index: Index, tmp_path: Path) -> None:
    plan = install(index, ["lonely"], tmp_path / "proj", dry_run=True)
    (lonely,) = plan.components
    assert lonely.id == LONELY and lonely.status == "install"
    (missing,) = lonely.missing
    assert (missing.id, missing.name, missing.status) == (HOLLOW, "hollow", NO_MEMBERS)
    text = "\n".join(plan.lines())
    assert f"note: requires plugin hollow ({HOLLOW}), which has no component install can place" in text


def test_the_dependency_check_and_search_show_the_members(index: Index) -> None:
    service = ComponentService(index, principals=["*"])
    checked = service.check_dependencies([USER])
    assert checked["selected"] == [USER] and not checked["plugins"]
    assert [(d["id"], d["chain"]) for d in checked["added"]] == [(B, [USER, KIT, B]), (A, [USER, KIT, A])]
    assert checked["requires"][USER] == [B, A]
    response = service.search("the user skill", kinds=["skill"], k=1)
    top = response.results[0]
    assert top.id == USER and top.brings == (B, A) and top.requires == (B, A)
    dep = next(r for r in response.results if r.id == A)
    assert dep.role == "dependency" and "Required by user (via user -> kit -> a)." in dep.rationale.text
    assert KIT not in {r.id for r in response.results}
