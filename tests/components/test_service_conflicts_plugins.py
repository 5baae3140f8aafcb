"""``drop_conflicts`` drops the losing side only, and ``check_dependencies`` answers for a
plugin as an install would. On the bundled sample catalogue, through `ComponentService`.

Both were found by an agent over MCP: with ``ruff-format`` installed, a search for black
dropped ``ruff-format`` (ranked lower) and then ``black-formatting`` (conflicts with the
installed ``ruff-format``), both sides and their dependents; and ``check_dependencies``
gave a plugin an all-clear that ``install_components`` then refused for a conflict
between two of its members.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from component_catalogue import graph_of

from skill_retriever.components.conflicts import find_conflicts, settle_conflicts
from skill_retriever.components.install import install, plan_install
from skill_retriever.components.service import ComponentService
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

S = "sample_catalogue"
RUFF = f"{S}/skills/ruff-format/SKILL.md"
BLACK = f"{S}/skills/black-formatting/SKILL.md"
QUERY = "format python code with black"


def service_of(index: Index) -> ComponentService:
    return ComponentService(index, Retriever(index, reranker=None))


def test_a_component_the_target_holds_wins_and_only_the_other_side_goes(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    assert install(sample_index, ["ruff-format"], target).ok
    service = service_of(sample_index)
    shown = service.search(QUERY, k=3, target=target)
    assert {RUFF, BLACK} <= {r.id for r in shown.results}  # both match, one conflict
    answer = service.search(QUERY, k=3, target=target, drop_conflicts=True)
    (lost,) = answer.dropped  # black-formatting alone: not ruff-format, not its dependents
    assert (lost.id, lost.why) == (BLACK, "conflict")
    assert lost.detail.startswith("conflicts with ruff-format (installed): Both rewrite")
    names = [r.name for r in answer.results]
    assert "ruff-format" in names and "black-formatting" not in names
    kept = next(r for r in answer.results if r.id == RUFF)
    assert kept.installed == ".claude/skills/ruff-format/SKILL.md"
    # what ruff-format's dependents were, they stay (shown as when nothing is dropped)
    before = [r.name for r in shown.results if r.id not in (RUFF, BLACK)]
    assert [n for n in before if n in names] == [n for n in before if n != "black-formatting"]
    (c,) = answer.conflicts  # reported once, saying what went and what is installed
    assert (c.dropped, c.installed_id) == (BLACK, RUFF)
    assert c.installed == ".claude/skills/ruff-format/SKILL.md"
    assert "black-formatting dropped" in kept.rationale.text


def test_among_results_the_lower_ranked_side_goes(sample_index: Index) -> None:
    service = service_of(sample_index)
    ranked = [r.id for r in service.search(QUERY, k=3).results]
    first, second = sorted((RUFF, BLACK), key=ranked.index)
    answer = service.search(QUERY, k=3, drop_conflicts=True)
    assert first in {r.id for r in answer.results}
    assert second not in {r.id for r in answer.results}
    assert [d.id for d in answer.dropped if d.id in (RUFF, BLACK)] == [second]
    assert all("(ranked higher)" in d.detail for d in answer.dropped if d.why == "conflict")


def test_two_installed_sides_drop_nothing(sample_index: Index, tmp_path: Path) -> None:
    """Both are there whatever the answer says: the conflict is reported, not settled."""
    target = tmp_path / "proj"
    target.mkdir()
    assert install(sample_index, ["ruff-format", "black-formatting"], target, allow_conflicts=True).ok
    answer = service_of(sample_index).search(QUERY, k=3, target=target, drop_conflicts=True)
    assert {RUFF, BLACK} <= {r.id for r in answer.results}
    assert not [d for d in answer.dropped if d.why == "conflict"]
    (c,) = answer.conflicts
    assert set(c.sides) == {RUFF, BLACK} and c.dropped is None


def test_settling_is_one_rule_whatever_the_order_of_the_conflicts() -> None:
    """m2 needs d, which loses to m1: m2 goes, so m3 stays though it conflicts with m2;
    the installed i beats m4, which is a result too; m5 needs both sides of a conflict."""
    g = graph_of([
        ("m1", "d", "CONFLICTS_WITH"), ("m2", "m3", "CONFLICTS_WITH"),
        ("m4", "i", "CONFLICTS_WITH", "two formatters"), ("x", "y", "CONFLICTS_WITH"),
        ("i", "j", "CONFLICTS_WITH"),
    ])  # fmt: skip
    units = [("m1",), ("i",), ("m2", "d"), ("m3",), ("m4",), ("m5", "x", "y"), ("j",)]
    installed = {"i": "i.md", "j": "j.md"}
    found = find_conflicts(g, [u for unit in units for u in unit], installed)
    outcomes = set()
    for order in itertools.permutations(found):
        settled = settle_conflicts(order, units, installed)
        outcomes.add(tuple((head, c.sides) for head, c in settled.excluded.items()))
        by_pair = {frozenset(c.sides): c for c in settled.conflicts}
        assert by_pair[frozenset(("m4", "i"))].installed_id == "i"
        assert by_pair[frozenset(("i", "j"))].dropped is None  # both installed
        assert by_pair[frozenset(("m2", "m3"))].dropped is None  # m2 went with d
    assert outcomes == {
        (("m2", ("m1", "d")), ("m4", ("m4", "i")), ("m5", ("x", "y"))),
    }


@pytest.mark.parametrize(
    ("plugin", "sides"),
    [
        ("db-toolkit", {"migrations-alembic", "migrations-sqitch"}),
        ("release-train", {"canary-rollout", "blue-green-deploy"}),
    ],
)
def test_check_dependencies_answers_for_a_plugin_as_install_does(
    sample_index: Index, tmp_path: Path, plugin: str, sides: set[str]
) -> None:
    pid = f"{S}/plugins/{plugin}"
    got = service_of(sample_index).check_dependencies([pid])
    plan = plan_install(sample_index, [pid], tmp_path / "proj")
    (c,) = got["conflicts"]  # the pair that makes install_components refuse it
    assert {plan.names[c["source"]], plan.names[c["target"]]} == sides
    assert got["plugins"] == {pid: list(plan.plugins[pid])}
    assert got["selected"] == list(plan.plugins[pid])
    assert [a["id"] for a in got["added"]] == [
        p.id for p in plan.components if p.id not in plan.plugins[pid]
    ]
    assert got["requires"] == {i: list(r) for i, r in plan.requires.items()}
    assert got["cycles"] == [list(c) for c in plan.cycles]
    assert [(c["source"], c["target"]) for c in got["conflicts"]] == [
        c.sides for c in plan.conflicts
    ]
    assert not got["missing"]
