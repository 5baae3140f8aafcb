"""Uninstalling by its own name a plugin's member installed by its own name too, while the
plugin stays, takes back the by-name install only: the member stays, for the plugin.

``install beta`` (an agent ``reviewer`` and a command ``ship``), then ``install reviewer``:
``uninstall reviewer`` removed ``.claude/agents/reviewer.md`` though plugin beta, still
installed, loads it, where a fresh install of beta writes it and the README says a file goes
only when no component still installed loads it (seen: wshobson/agents, ``install
code-refactoring``, then its agent ``code-reviewer`` by id, then ``uninstall`` that id).
Uninstalling a plugin already leaves a member asked for by name; this is the other side.
A member no install asked for by name is still removed when named, as before: the user
asked for that one file to go.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, claude_tree
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.stores.index import Index

REVIEWER = "cat/plugins/beta/agents/reviewer.md"
AT = ".claude/agents/reviewer.md"
KEPT = "plugin 'beta', still installed, holds it too; uninstalling 'beta' removes it"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    cat = tmp_path / "cat"
    write_file(cat, "plugins/beta/.claude-plugin/plugin.json", json.dumps({"name": "beta"}))
    write_file(cat, "plugins/beta/agents/reviewer.md",
               "---\nname: reviewer\ndescription: Reviews code.\n---\n\nReview.\n")
    write_file(cat, "plugins/beta/commands/ship.md", "---\ndescription: Ship it\n---\n\nShip.\n")
    idx = build_index(tmp_path / "ix", [cat])
    yield idx
    idx.close()


@pytest.mark.parametrize("order", [["beta", "reviewer"], ["reviewer", "beta"]])
def test_a_member_named_again_stays_for_its_plugin(index: Index, tmp_path: Path, order: list[str]) -> None:
    alone = tmp_path / "alone"
    assert install(index, ["beta"], alone).ok
    proj = tmp_path / "proj"
    for ref in order:
        assert install(index, [ref], proj).ok
    dry = uninstall(["reviewer"], proj, dry_run=True)
    assert dry.ok and not dry.removed and dry.stayed == {"reviewer": KEPT}, dry.lines()
    report = uninstall(["reviewer"], proj)
    assert report.ok and not report.removed and report.stayed == {"reviewer": KEPT}, report.lines()
    assert f"kept reviewer: {KEPT}" in str(report)
    assert claude_tree(proj) == claude_tree(alone)
    assert not InstallRecord.load(proj).components[REVIEWER].named
    again = install(index, ["beta"], proj)
    assert again.ok and not [c for c in again.components if c.status != "unchanged"], again.lines()
    # uninstalling beta now takes the member along: nobody asked for it on its own any more
    assert uninstall(["beta"], proj).ok
    assert not (proj / ".claude").exists()


def test_a_member_only_the_plugin_installed_goes_when_named(index: Index, tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    assert install(index, ["beta"], proj).ok
    report = uninstall(["reviewer"], proj)
    assert report.ok and report.removed == [AT], report.lines()
