"""``access`` labels on the components of a skills repository.

Documents and JSON graph nodes read ``access``; a SKILL.md, an agent, a command, a hook
or an MCP server entry kept it in ``attrs["frontmatter"]`` only, so a skill marked
``access: [secretteam]`` was served to every caller, through every entry point (found in
an MCP walkthrough: ``get_component`` returned its whole text to a caller without the
label). Now each reads ``access`` as documents do, a plugin's ``plugin.json`` too, and an
item without labels of its own takes those of what it is part of (a skill's template, a
plugin's members). Labels that cannot be read keep the item out, never public.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file
from indexed_access import indexed_access

from skill_retriever.components.service import ComponentService
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: The {name} skill rotates vault keys.\n{extra}---\n\nBody of {name}.\n"


def _access(repo: Path) -> dict[str, tuple[str, ...]]:
    result = ingest_skill_repo(repo)
    return {n.name: n.access for n in result.nodes}


def test_each_component_kind_reads_its_access(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", "access: [secretteam]\n"))
    write_file(tmp_path, "skills/public/SKILL.md", skill("public"))
    write_file(tmp_path, "agents/auditor.md", "---\nname: auditor\ndescription: audits\naccess: ops, sre\n---\nbody\n")
    write_file(tmp_path, "commands/rotate.md", "---\ndescription: rotate now\naccess: [ops]\n---\nbody\n")
    write_file(tmp_path, "hooks/guard.json", json.dumps({
        "description": "guards", "access": ["ops"],
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]},
    }))
    write_file(tmp_path, ".mcp.json", json.dumps({"mcpServers": {
        "vault-mcp": {"command": "vault-mcp", "description": "vault", "access": ["secretteam"]},
        "open-mcp": {"command": "open-mcp", "description": "open"},
    }}))
    assert _access(tmp_path) == {
        "vault": ("secretteam",), "public": (), "auditor": ("ops", "sre"), "rotate": ("ops",),
        "guard": ("ops",), "vault-mcp": ("secretteam",), "open-mcp": (),
    }


def test_a_template_and_a_plugins_members_take_the_labels_of_what_they_are_part_of(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", "access: [secretteam]\n"))
    write_file(tmp_path, "skills/vault/templates/TEMPLATE.md", "---\nname: vault-template\ndescription: a form\n---\nx\n")
    write_file(tmp_path, "plugins/ops/.claude-plugin/plugin.json", json.dumps(
        {"name": "ops", "description": "Ops tools.", "access": ["ops"]}))
    write_file(tmp_path, "plugins/ops/skills/deploy/SKILL.md", skill("deploy"))
    write_file(tmp_path, "plugins/ops/skills/oncall/SKILL.md", skill("oncall", "access: [sre]\n"))  # its own
    write_file(tmp_path, "plugins/ops/skills/deploy/ref/FORM.md", "---\nname: deploy-form\ndescription: form\n---\nx\n")
    assert _access(tmp_path) == {
        "vault": ("secretteam",), "vault-template": ("secretteam",), "ops": ("ops",),
        "deploy": ("ops",), "deploy-form": ("ops",), "oncall": ("sre",),
    }


@pytest.mark.parametrize("value", ["{team: x}", "[[a, b]]", "[{}]"])
def test_labels_that_cannot_be_read_keep_the_item_out(tmp_path: Path, value: str) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", f"access: {value}\n"))
    write_file(tmp_path, "skills/public/SKILL.md", skill("public"))
    result = ingest_skill_repo(tmp_path)
    assert [n.name for n in result.nodes] == ["public"]
    (problem,) = result.problems
    assert "is not a list of labels: not indexed (it would be shown to every caller)" in problem.message


def test_a_plugin_whose_labels_cannot_be_read_keeps_its_members_out(tmp_path: Path) -> None:
    write_file(tmp_path, "plugins/ops/.claude-plugin/plugin.json", json.dumps(
        {"name": "ops", "description": "Ops tools.", "access": {"team": "ops"}}))
    write_file(tmp_path, "plugins/ops/skills/deploy/SKILL.md", skill("deploy"))
    write_file(tmp_path, "skills/public/SKILL.md", skill("public"))
    result = ingest_skill_repo(tmp_path)
    assert [n.name for n in result.nodes] == ["public"]
    messages = sorted(p.message for p in result.problems)
    assert messages[0].startswith("'access' {'team': 'ops'} is not a list of labels") and "nor are its members" in messages[0]
    assert messages[1].startswith("not indexed: the 'access' of its plugin")


@pytest.mark.parametrize("broken", ["access: [secretteam]\nno colon here\n", "access: {team: x}\n"])
def test_a_skill_that_cannot_be_read_keeps_the_files_that_take_its_labels_out(tmp_path: Path, broken: str) -> None:
    """A named file of a private skill's folder gives no labels of its own: it takes the
    skill's. With the SKILL.md unreadable (one bad line), it was indexed public, its text
    shown to every caller; now it is a problem, and its earlier version stays."""
    repo, ix = tmp_path / "repo", tmp_path / "index"
    path = write_file(repo, "skills/vault/SKILL.md", skill("vault", "access: [secretteam]\n"))
    form = write_file(repo, "skills/vault/ref/FORM.md", "---\nname: vault-form\ndescription: a form\n---\nroot token\n")
    write_file(repo, "skills/vault/own/NOTES.md", "---\nname: vault-notes\ndescription: n\naccess: [ops]\n---\nx\n")
    write_file(repo, "skills/public/SKILL.md", skill("public"))


    before = {"vault": ("secretteam",), "vault-form": ("secretteam",), "vault-notes": ("ops",), "public": ()}
    assert indexed_access(repo, ix) == before
    path.write_text(skill("vault", broken), encoding="utf-8")
    result = ingest_skill_repo(repo)
    assert {n.name: n.access for n in result.nodes} == {"vault-notes": ("ops",), "public": ()}  # its own labels
    said = {p.path: p.message for p in result.problems}
    assert said[str(form)].startswith("not indexed: it gives no 'access' and takes that of its skill")
    assert indexed_access(repo, ix) == before


@pytest.mark.parametrize("rel", [".mcp.json", "plugins/ops/.claude-plugin/plugin.json"])
def test_a_server_entry_whose_labels_cannot_be_read_keeps_its_earlier_version(tmp_path: Path, rel: str) -> None:
    """One server of an MCP config (or a plugin.json's inline servers) whose ``access`` is
    no list of labels is skipped: it was pruned as gone, `index` saying "removed ... the
    source no longer has", from a file that still holds it. Its earlier version stays."""
    repo, ix = tmp_path / "repo", tmp_path / "index"
    servers = {"db": {"command": "psql", "description": "payroll", "access": ["ops"]}, "open": {"command": "x"}}
    path = write_file(repo, rel, {"name": "ops", "mcpServers": servers})
    write_file(repo, "skills/public/SKILL.md", skill("public"))

    def indexed_access(repo, ix) -> dict[str, tuple[str, ...]]:
        index = Index.open(ix, embedder=HashingEmbedder(), create=not ix.exists())
        try:
            run = index_sources(index, [repo], "skills")
            assert not any(run.removed.values())
            return {n.id.rsplit("#", 1)[-1]: n.access for n in index.nodes.values() if "#" in n.id}
        finally:
            index.close()

    assert indexed_access(repo, ix) == {"db": ("ops",), "open": ()}
    servers["db"]["access"] = {"team": "ops"}
    path.write_text(json.dumps({"name": "ops", "mcpServers": servers}), encoding="utf-8")
    result = ingest_skill_repo(repo)
    (problem,) = [p for p in result.problems if "mcpServers['db'] skipped" in p.message]
    assert problem.item == f"repo/{rel}#db"
    assert indexed_access(repo, ix) == {"db": ("ops",), "open": ()}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    write_file(repo, "skills/vault/SKILL.md", skill("vault", "access: [secretteam]\n"))
    write_file(repo, "skills/deployer/SKILL.md", skill("deployer", "requires: [vault]\n"))
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [repo], "skills")
    yield idx
    idx.close()


def test_a_private_skill_is_not_found_nor_added_as_a_dependency(index: Index) -> None:
    retriever = Retriever(index, reranker=None)
    assert "vault" not in {r.name for r in retriever.search("rotate vault keys", principals=["bob"]).results}
    assert "vault" in {r.name for r in retriever.search("rotate vault keys", principals=["secretteam"]).results}
    deployer = next(i for i, n in index.nodes.items() if n.name == "deployer")
    bob = ComponentService(index, retriever, principals=["bob"]).check_dependencies([deployer])
    team = ComponentService(index, retriever, principals=["secretteam"]).check_dependencies([deployer])
    assert [a["name"] for a in bob["added"]] == []
    assert [a["name"] for a in team["added"]] == ["vault"]
