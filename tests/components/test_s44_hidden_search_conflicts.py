"""``secops`` installed private components into a project; ``alice`` may not see them.

Her install plan of a component that conflicts with one of them is refused
(`unseen_conflicts`), but a component search with that project as ``target`` showed the
same component with no conflict at all. The search now carries the plan's conflict, its
other side ``UNSEEN`` and called ``UNSEEN_NAME``, never by the hidden name, id or path;
``drop_conflicts`` counts that side as installed (it wins). The MCP tool says the same:
`test_s44_hidden_mcp.py`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_skill

from skill_retriever.algorithms.budget import OFFLINE_ENCODING, token_counter
from skill_retriever.components import ComponentService
from skill_retriever.components.conflicts import UNSEEN, UNSEEN_NAME
from skill_retriever.components.install import install, plan_install
from skill_retriever.components.results import ComponentResponse
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "QUOKKA-MARKER"
HIDDEN = ("private-linter", "private-fmt")
LINT = "lint python code with semgrep rules"
FORMAT = "format python source files"


def _id(name: str) -> str:
    return f"src/skills/{name}/SKILL.md"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src"
    # the hidden side declares the conflict
    write_skill(src, "private-linter", f"{SECRET} lint.", access=["secops"], conflicts=["public-linter"])
    write_skill(src, "public-linter", "Lint python code with semgrep rules.")
    write_skill(src, "other-linter", "Lint python code with pylint.")
    # the public side declares it
    write_skill(src, "private-fmt", f"{SECRET} format.", access=["secops"])
    write_skill(src, "public-fmt", "Format python source files.", conflicts=[{"name": "private-fmt", "reason": "same files"}])
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [src], "skills", calibrate=False)
    yield idx
    idx.close()


@pytest.fixture
def project(index: Index, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    done = install(index, list(HIDDEN), root, principals=["secops"])
    assert done.ok and done.applied
    return root


def _said(resp: ComponentResponse) -> str:
    count = token_counter(OFFLINE_ENCODING)
    lines = [r.rationale.text for r in resp.results] + [d.detail for d in resp.dropped]
    return json.dumps(resp.to_dict()) + json.dumps(resp.brief(count)) + "\n".join(lines) + repr(resp)


def _hides_everything(text: str) -> None:
    for name in HIDDEN:
        assert name not in text
    assert SECRET not in text and ".claude/skills/private" not in text


def test_a_search_with_the_target_carries_the_plans_conflict(index: Index, project: Path) -> None:
    resp = ComponentService(index, principals=["alice"]).search(LINT, k=2, target=project)
    assert resp.results[0].name == "public-linter"
    (c,) = resp.conflicts
    assert (c.source, c.target) == (UNSEEN, _id("public-linter"))  # the hidden side declared it
    plan = plan_install(index, ["public-linter"], project, principals=["alice"])
    assert not plan.ok and c.reason == plan.conflicts[0].reason  # the plan's words
    assert c.installed is None and c.dropped is None  # its path would name it
    top = resp.results[0]
    assert top.conflicts == (c,)
    assert f"Conflicts with {UNSEEN_NAME}: the installed one's files name public-linter" in top.rationale.text
    assert resp.to_dict()["conflicts"][0]["not_shown"] == UNSEEN_NAME
    assert top.to_dict()["conflicts_with"] == [UNSEEN]
    assert top.brief(len)["conflicts_with"] == [UNSEEN_NAME]
    assert not resp.results[1].conflicts  # other-linter: nothing installed names it
    _hides_everything(_said(resp))


def test_a_conflict_the_public_component_declares_is_carried_too(index: Index, project: Path) -> None:
    resp = ComponentService(index, principals=["alice"]).search(FORMAT, k=1, target=project)
    assert [r.name for r in resp.results] == ["public-fmt"]
    (c,) = resp.conflicts
    assert (c.source, c.target) == (_id("public-fmt"), UNSEEN)
    assert c.reason.startswith("public-fmt's own conflicts names the installed one;")
    _hides_everything(_said(resp))


def test_without_a_target_or_for_one_who_sees_it_nothing_unseen(index: Index, project: Path) -> None:
    assert not ComponentService(index, principals=["alice"]).search(LINT, k=2).conflicts
    resp = ComponentService(index, principals=["secops"]).search(LINT, k=2, target=project)
    (c,) = [c for c in resp.conflicts if _id("public-linter") in c.sides]
    assert c.sides == (_id("private-linter"), _id("public-linter"))  # named once, as the index has it
    assert UNSEEN not in json.dumps(resp.to_dict())


def test_drop_conflicts_drops_the_match_the_hidden_installed_one_beats(index: Index, project: Path) -> None:
    resp = ComponentService(index, principals=["alice"]).search(LINT, k=1, target=project, drop_conflicts=True)
    assert [r.name for r in resp.results] == ["other-linter"]  # the next match moved up
    (lost,) = resp.dropped
    assert (lost.id, lost.why) == (_id("public-linter"), "conflict")
    assert lost.detail.startswith(f"conflicts with {UNSEEN_NAME}: the installed one's files name public-linter")
    (c,) = resp.conflicts
    assert c.dropped == _id("public-linter") and c.installed is None
    _hides_everything(_said(resp))


def test_a_budget_that_cuts_keeps_the_unseen_conflict_of_what_stays(index: Index, project: Path) -> None:
    service = ComponentService(index, principals=["alice"])
    full = service.search(LINT, k=2, target=project)
    budget = full.results[0].token_count  # holds the best alone
    resp = service.search(LINT, k=2, budget=budget, target=project)
    assert [r.name for r in resp.results] == ["public-linter"] and resp.dropped
    (c,) = resp.conflicts
    assert (c.source, c.target) == (UNSEEN, _id("public-linter"))
