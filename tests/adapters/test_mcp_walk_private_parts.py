"""Private parts of public items, through the MCP tools (found in a privacy walkthrough of
the MCP server, each asked through the SDK's client as an agent asks):

- a public plugin's text listed its members, a private one's name included ("Components:
  ops-db (mcp_server), oncall-secret (skill), ...") in ``get_component`` and ``search``,
  and the index matched the plugin on that name;
- a public skill's folder file that is a private item of its own (a template with
  ``access: [alice]``) was listed in ``attrs.files`` and written into a public caller's
  project by ``install_components``;
- a public plugin's ``plugin_json`` named its private inline MCP server.

Left out for a caller who may not see them, silently (a count would say they are there);
a caller holding the label gets them. A real index (the hashing embedder) of files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from files import write_file
from mcp_in_process import tool_answers

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PRIVATE = ("oncall-secret", "FALCONPRIV", "secret-form", "HIPPOPRIV", "vault-srv", "CAMELPRIV")


def _skill(name: str, description: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}.\n"


def _catalogue(repo: Path) -> None:
    write_file(repo, "plugins/ops/.claude-plugin/plugin.json", json.dumps({
        "name": "ops", "description": "Ops tooling for deploys.",
        "mcpServers": {"vault-srv": {"command": "vault-srv", "description": "CAMELPRIV vault", "access": ["bob"]},
                       "metrics-srv": {"command": "metrics-srv"}},
    }))
    write_file(repo, "plugins/ops/skills/oncall/SKILL.md", _skill("oncall", "Be on call for deploys."))
    write_file(repo, "plugins/ops/skills/oncall-secret/SKILL.md",
               _skill("oncall-secret", "Escalate deploys FALCONPRIV.", "access: [alice]\n"))
    write_file(repo, "skills/deploy/SKILL.md", _skill("deploy", "Deploy the web app."))
    write_file(repo, "skills/deploy/templates/FORM.md", _skill("secret-form", "HIPPOPRIV form", "access: [alice]\n"))
    write_file(repo, "skills/deploy/templates/open.md", _skill("open-form", "An open form."))


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("private-parts")
    _catalogue(root / "repo")
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [root / "repo"], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    index.close()
    return root / "index"


def _calls(target: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "plugin": ("get_component", {"id": "ops", "detail": "full"}),
        "skill": ("get_component", {"id": "deploy", "detail": "full"}),
        "search": ("search", {"query": "ops tooling for deploys", "k": 10, "detail": "full"}),
        "install": ("install_components", {"ids": ["deploy", "ops"], "target": str(target), "dry_run": False}),
    }


def test_a_caller_without_the_labels_never_reads_a_private_part(index_dir: Path, tmp_path: Path) -> None:
    got = tool_answers(index_dir, [], _calls(tmp_path / "project"))
    text = json.dumps(got)
    assert not [h for h in PRIVATE if h in text], text
    assert got["plugin"]["text"] == "Ops tooling for deploys.\nComponents: metrics-srv (mcp_server), oncall (skill)"
    assert got["plugin"]["attrs"]["plugin_json"]["mcpServers"] == ["metrics-srv"]
    assert got["skill"]["attrs"]["files"] == ["templates/open.md"]
    written = sorted(p.relative_to(tmp_path / "project").as_posix() for p in (tmp_path / "project").rglob("*.md"))
    assert written == [".claude/skills/deploy/SKILL.md", ".claude/skills/deploy/templates/open.md",
                       ".claude/skills/oncall/SKILL.md"]
    mcp = json.loads((tmp_path / "project/.mcp.json").read_text())
    assert list(mcp["mcpServers"]) == ["metrics-srv"]


def test_a_caller_holding_the_labels_gets_them(index_dir: Path, tmp_path: Path) -> None:
    got = tool_answers(index_dir, ["alice", "bob"], _calls(tmp_path / "project"))
    assert got["plugin"]["attrs"]["plugin_json"]["mcpServers"] == ["metrics-srv", "vault-srv"]
    assert got["skill"]["attrs"]["files"] == ["templates/FORM.md", "templates/open.md"]
    assert (tmp_path / "project/.claude/skills/deploy/templates/FORM.md").is_file()
    assert (tmp_path / "project/.claude/skills/oncall-secret/SKILL.md").is_file()
    # the plugin's text is one for all its callers: a member more private than it is not in it
    assert "oncall-secret" not in got["plugin"]["text"] and "vault-srv" not in got["plugin"]["text"]


def test_a_plugin_names_the_members_every_caller_of_it_may_see(tmp_path: Path) -> None:
    write_file(tmp_path, "plugins/ops/.claude-plugin/plugin.json",
               json.dumps({"name": "ops", "description": "Ops.", "access": ["ops"]}))
    write_file(tmp_path, "plugins/ops/skills/own/SKILL.md", _skill("own", "takes the plugin's labels"))
    write_file(tmp_path, "plugins/ops/skills/wider/SKILL.md", _skill("wider", "ops and sre", "access: [ops, sre]\n"))
    write_file(tmp_path, "plugins/ops/skills/narrow/SKILL.md", _skill("narrow", "sre only", "access: [sre]\n"))
    write_file(tmp_path, "plugins/ops/skills/narrow/ref/FORM.md", _skill("narrow-form", "its form"))
    (plugin,) = [n for n in ingest_skill_repo(tmp_path).nodes if n.name == "ops"]
    assert plugin.text == "Ops.\nComponents: own (skill), wider (skill)"
