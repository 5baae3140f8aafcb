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

A command several plugins load (`shared_root_requiring`: alpha and gamma load ``deploy``,
beta only requires it) moved to gamma's folder on ``uninstall alpha``, and stayed there on
``uninstall gamma``, though no plugin that loads it was left: installing beta alone puts
it in alpha's folder, where the index files it. The record keeps that place for such a
command, and it moves there once no plugin that loads it stays.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, claude_tree
from files import write_file
from shared_root_market import shared_root_requiring

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.inventory import InstallRecord, PluginRecord
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
    idx = build_index(tmp_path / "ix", [cat])
    yield idx
    idx.close()


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
    assert set(claude_tree(proj)) == {AT_ALPHA, ".claude/skills/ship/SKILL.md"}
    recorded = InstallRecord.load(proj)
    assert list(recorded.components[DEPLOY].files) == [AT_ALPHA]
    # installing beta again finds deploy where the record says: one copy, unchanged
    again = install(index, ["beta"], proj)
    assert again.ok and f"unchanged {AT_ALPHA}" in "\n".join(again.lines()), again.lines()
    assert set(claude_tree(proj)) == {AT_ALPHA, ".claude/skills/ship/SKILL.md"}
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


SHARED_DEPLOY = "market/commands/deploy.md"
AT_GAMMA = ".claude/commands/gamma/deploy.md"


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Index]:
    idx = build_index(tmp_path / "shared-ix", [shared_root_requiring(tmp_path / "market")])
    yield idx
    idx.close()


@pytest.mark.parametrize("holder", ["beta", "deploy"])
def test_a_shared_command_no_loading_plugin_holds_goes_back_where_installing_its_holder_puts_it(
    shared: Index, tmp_path: Path, holder: str
) -> None:
    """``holder``, beta (which requires deploy) or deploy by its own name, then alpha and
    gamma; uninstalling alpha moves deploy to gamma's folder, uninstalling gamma moves it
    to alpha's, where installing the holder alone puts it: the tree is a fresh install's,
    and installing the holder again changes nothing."""
    alone = tmp_path / "alone"
    assert install(shared, [holder], alone).ok
    fresh = claude_tree(alone)
    assert AT_ALPHA in fresh
    proj = tmp_path / "proj"
    for plugin in (holder, "alpha", "gamma"):
        assert install(shared, [plugin], proj).ok
    # (ship, which alpha and beta load, goes back to beta's folder, where installing beta put it)
    ship = {".claude/commands/alpha/ship.md": ".claude/commands/beta/ship.md"} if holder == "beta" else {}
    assert uninstall(["alpha"], proj).moved == {AT_ALPHA: AT_GAMMA, **ship}
    dry = uninstall(["gamma"], proj, dry_run=True)
    assert dry.moved == {AT_GAMMA: AT_ALPHA} and f"would move {AT_GAMMA} to {AT_ALPHA}, " in str(dry), str(dry)
    report = uninstall(["gamma"], proj)
    assert report.ok and report.moved == {AT_GAMMA: AT_ALPHA}, report.lines()
    # (not "the folder of a plugin still installed": alpha is not)
    assert (f"moved {AT_GAMMA} to {AT_ALPHA}, where installing what holds it puts it: no plugin still "
            "installed loads it") in str(report), str(report)
    assert claude_tree(proj) == fresh
    assert list(InstallRecord.load(proj).components[SHARED_DEPLOY].files) == [AT_ALPHA]
    again = install(shared, [holder], proj)
    assert again.ok and not [c for c in again.components if c.status != "unchanged"], again.lines()
    assert claude_tree(proj) == fresh
    assert uninstall([holder], proj).ok
    assert not (proj / ".claude").exists()


def test_a_record_without_the_place_a_dependency_goes_leaves_the_command_where_it_is(
    shared: Index, tmp_path: Path
) -> None:
    """A record written before it kept that place: the command stays in gamma's folder,
    as it did, where installing beta again finds it."""
    proj = tmp_path / "proj"
    for plugin in ("beta", "alpha", "gamma"):
        assert install(shared, [plugin], proj).ok
    assert uninstall(["alpha"], proj).moved[AT_ALPHA] == AT_GAMMA
    path = proj / ".claude/.skill-retriever/installed.json"
    data = json.loads(path.read_text())
    assert data["components"][SHARED_DEPLOY].pop("dependency_path") == AT_ALPHA
    path.write_text(json.dumps(data))
    report = uninstall(["gamma"], proj)
    assert report.ok and not report.moved, report.lines()
    assert AT_GAMMA in claude_tree(proj)
    assert f"unchanged {AT_GAMMA}" in "\n".join(install(shared, ["beta"], proj).lines())
