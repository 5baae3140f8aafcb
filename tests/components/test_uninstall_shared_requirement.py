"""What a plugin requires is its own too, whether its install wrote it or found it there.

`shared_root_requiring`: ``gamma`` loads the command ``deploy``; ``beta``'s agent
``auditor`` requires it. Beta's record listed deploy only when beta's own install added
it: after ``install gamma`` then ``install beta``, or both in one run, ``uninstall gamma``
was refused ("deploy is required by auditor ...") where, after ``install beta`` then
``install gamma``, it kept deploy. A plugin's record now lists every dependency its
members require (shared ownership, as a package manager counts it), so ``uninstall
gamma`` keeps deploy in every order, where a fresh install of beta puts it, saying why;
and uninstalling beta afterwards removes it only when nothing else needs it. A record
written before that listing reads as it did.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, claude_tree
from shared_root_market import shared_root_requiring

from skill_retriever.components.install import StillRequiredError, install, uninstall
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.stores.index import Index

DEPLOY = "market/commands/deploy.md"
AUDITOR = "market/extras/auditor.md"
BETA = "market/.claude-plugin/marketplace.json#beta"
AT_ALPHA = ".claude/commands/alpha/deploy.md"
AT_GAMMA = ".claude/commands/gamma/deploy.md"
ORDERS = {"beta, then gamma": [["beta"], ["gamma"]], "gamma, then beta": [["gamma"], ["beta"]],
          "both in one run": [["beta", "gamma"]]}
KEPT = "plugin 'beta', still installed, requires it; uninstalling 'beta' removes it"


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Index]:
    idx = build_index(tmp_path / "ix", [shared_root_requiring(tmp_path / "market")])
    yield idx
    idx.close()


def _installed(index: Index, root: Path, runs: list[list[str]]) -> Path:
    for ids in runs:
        assert install(index, ids, root).ok
    return root


@pytest.mark.parametrize("order", ORDERS)
def test_uninstalling_the_plugin_that_loads_it_keeps_what_another_requires_in_every_order(
    shared: Index, tmp_path: Path, order: str
) -> None:
    fresh = claude_tree(_installed(shared, tmp_path / "alone", [["beta"]]))
    assert AT_ALPHA in fresh
    proj = _installed(shared, tmp_path / "proj", ORDERS[order])
    held = InstallRecord.load(proj).plugins[BETA]
    assert DEPLOY in held.components and held.required == [DEPLOY]
    report = uninstall(["gamma"], proj)
    assert report.ok and report.stayed["deploy"] == KEPT, report.lines()
    assert f"kept deploy: {KEPT}" in str(report)
    assert claude_tree(proj) == fresh  # where installing beta alone puts it
    assert list(InstallRecord.load(proj).components[DEPLOY].files) == [AT_ALPHA]
    again = install(shared, ["beta"], proj)
    assert again.ok and not [c for c in again.components if c.status != "unchanged"], again.lines()
    # nothing else needs it now: uninstalling beta takes it back
    gone = uninstall(["beta"], proj)
    assert gone.ok and AT_ALPHA in gone.removed, gone.lines()
    assert not (proj / ".claude").exists()


@pytest.mark.parametrize("order", ORDERS)
def test_uninstalling_beta_first_leaves_deploy_to_gamma_which_then_takes_it(
    shared: Index, tmp_path: Path, order: str
) -> None:
    """deploy stays, where installing gamma alone puts it: after ``install beta`` then
    ``install gamma`` it lay in alpha's folder (where beta's dependency goes), and stayed
    there, labelled "(project:alpha)" by Claude Code, though gamma was left its only holder."""
    fresh = claude_tree(_installed(shared, tmp_path / "alone", [["gamma"]]))
    assert AT_GAMMA in fresh
    proj = _installed(shared, tmp_path / "proj", ORDERS[order])
    where = list(InstallRecord.load(proj).components[DEPLOY].files)
    report = uninstall(["beta"], proj)
    assert report.ok and "deploy" in report.stayed and not report.removed.count(where[0]), report.lines()
    assert claude_tree(proj) == fresh
    assert report.moved == ({} if where == [AT_GAMMA] else {AT_ALPHA: AT_GAMMA}), report.lines()
    assert list(InstallRecord.load(proj).components[DEPLOY].files) == [AT_GAMMA]
    again = install(shared, ["gamma"], proj)
    assert again.ok and not [c for c in again.components if c.status != "unchanged"], again.lines()
    assert uninstall(["gamma"], proj).ok
    assert not (proj / ".claude").exists()


@pytest.mark.parametrize("order", ORDERS)
def test_a_requirer_installed_by_its_own_name_keeps_deploy_until_it_goes(
    shared: Index, tmp_path: Path, order: str
) -> None:
    """auditor, installed by its own name too, stays when beta goes: so does deploy, which
    it requires, and uninstalling auditor then takes deploy along."""
    proj = _installed(shared, tmp_path / "proj", [["auditor"], *ORDERS[order]])
    assert uninstall(["gamma"], proj).ok
    report = uninstall(["beta"], proj)
    assert report.ok and "auditor" in report.stayed, report.lines()
    assert report.stayed["deploy"] == "agent 'auditor', still installed, requires it; uninstalling 'auditor' removes it"
    assert (proj / AT_ALPHA).is_file()
    last = uninstall(["auditor"], proj)
    assert last.ok and AT_ALPHA in last.removed, last.lines()
    assert not (proj / ".claude").exists()


def test_a_record_without_the_shared_listing_is_refused_as_before(shared: Index, tmp_path: Path) -> None:
    proj = _installed(shared, tmp_path / "proj", [["gamma"], ["beta"]])
    path = proj / ".claude/.skill-retriever/installed.json"
    data = json.loads(path.read_text())
    beta = data["plugins"][BETA]
    beta["components"].remove(DEPLOY)
    assert beta.pop("required") == [DEPLOY]
    path.write_text(json.dumps(data))
    with pytest.raises(StillRequiredError, match="deploy is required by auditor"):
        uninstall(["gamma"], proj)
    assert DEPLOY in InstallRecord.load(proj).components
