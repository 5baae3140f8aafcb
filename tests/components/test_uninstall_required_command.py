"""A command a staying plugin only requires does not move into that plugin's folder.

``alpha`` loads ``commands/deploy.md``; ``beta``'s skill ``ship`` requires ``deploy``.
``install beta`` brings deploy along as a dependency, written where a dependency goes
(the folder the index files it under, ``.claude/commands/alpha/``); ``install alpha``
then finds it there. ``uninstall alpha`` moved it to ``.claude/commands/beta/deploy.md``,
since beta's record listed it: a folder whose plugin does not load it (Claude Code's /help
labels it "(project:beta)"), and not where installing beta puts it, so a reinstall of
beta and the record disagreed. The record keeps which components a plugin only required;
such a command stays where a dependency is installed. A record written before that
distinction reads as it did: every listed component a member.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.inventory import InstallRecord, PluginRecord
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

DEPLOY = "cat/plugins/alpha/commands/deploy.md"
SHIP = "cat/plugins/beta/skills/ship/SKILL.md"
AT_ALPHA = ".claude/commands/alpha/deploy.md"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    cat = tmp_path / "cat"
    write_file(cat, "plugins/alpha/.claude-plugin/plugin.json", json.dumps({"name": "alpha"}))
    write_file(cat, "plugins/alpha/commands/deploy.md", "---\ndescription: Deploy the app\n---\n\nDeploy.\n")
    write_file(cat, "plugins/beta/.claude-plugin/plugin.json", json.dumps({"name": "beta"}))
    write_file(cat, "plugins/beta/skills/ship/SKILL.md",
               "---\nname: ship\ndescription: Ship it.\nrequires: [deploy]\n---\n\nShip.\n")
    idx = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [cat], "skills")
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in (root / ".claude").rglob("*")
            if p.is_file() and ".skill-retriever" not in p.parts}


def test_a_command_the_staying_plugin_only_requires_stays_where_a_dependency_goes(
    index: Index, tmp_path: Path
) -> None:
    proj = tmp_path / "proj"
    assert install(index, ["beta"], proj).ok
    assert install(index, ["alpha"], proj).ok
    held = InstallRecord.load(proj).plugins
    assert held["cat/plugins/beta"].required == [DEPLOY] and not held["cat/plugins/alpha"].required
    report = uninstall(["alpha"], proj)
    assert report.ok and not report.moved, report.lines()
    assert report.stayed == {"deploy": "plugin 'beta', still installed, requires it; uninstalling 'beta' removes it"}
    assert _files(proj) == {AT_ALPHA, ".claude/skills/ship/SKILL.md"}
    recorded = InstallRecord.load(proj)
    assert list(recorded.components[DEPLOY].files) == [AT_ALPHA]
    # installing beta again finds deploy where the record says: one copy, unchanged
    again = install(index, ["beta"], proj)
    assert again.ok and f"unchanged {AT_ALPHA}" in "\n".join(again.lines()), again.lines()
    assert _files(proj) == {AT_ALPHA, ".claude/skills/ship/SKILL.md"}
    assert uninstall(["beta"], proj).ok
    assert not (proj / ".claude").exists()


def test_a_record_without_the_distinction_reads_every_listed_component_as_a_member() -> None:
    old = PluginRecord.from_json({"name": "beta", "components": [DEPLOY, SHIP]})
    assert old.components == [DEPLOY, SHIP] and old.required == []
    assert "required" not in old.to_json()
    new = PluginRecord("beta", [DEPLOY, SHIP], required=[DEPLOY])
    assert PluginRecord.from_json(new.to_json()) == new
    with pytest.raises(TypeError, match="required"):
        PluginRecord.from_json({"name": "beta", "components": [SHIP], "required": "x"})
