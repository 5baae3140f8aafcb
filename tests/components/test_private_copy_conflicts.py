"""A public skill whose ``conflicts: [ruff-format]`` resolved, at index time, to a private
copy of ``ruff-format`` in its own source (``access: [secops]``), while a public
``ruff-format`` exists in another source.

A caller without ``secops`` saw no conflict at all: the edge led to the hidden copy, so
``search_components`` flagged none, ``get_component`` listed none and an install plan of
both skills went ahead, although the skill's own frontmatter says it conflicts with the
``ruff-format`` they were installing. Each caller now reads the conflict against the
copy they see (`components.stand_ins`, as for ``requires``): warned and refused as for any
conflict, and nothing hidden is named. One who may see the private copy keeps its edge.

Through a real MCP client connected in-process and the CLI, on an index the CLI built.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from files import write_skill
from mcp_in_process import tool_answers

from skill_retriever.cli import main
from skill_retriever.components.conflicts import find_conflicts
from skill_retriever.components.view import CallerView
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "WOMBAT-PRIVATE-MARKER"
LINT = "alpha/skills/lint-ci/SKILL.md"
PRIVATE = "alpha/skills/ruff-format/SKILL.md"
PUBLIC = "beta/skills/ruff-format/SKILL.md"
WHY = "both rewrite the same files"


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("privconf")
    alpha, beta = root / "alpha", root / "beta"
    write_skill(alpha, "lint-ci", "Lint Python code in CI with ruff.", conflicts=[{"name": "ruff-format", "reason": WHY}])
    write_skill(alpha, "ruff-format", f"{SECRET} internal ruff config.", access=["secops"])
    write_skill(beta, "ruff-format", "Format Python code with ruff format.")
    folder = root / "ix"
    assert main(["index", str(alpha), str(beta), "--index-dir", str(folder), "--embedder", "hashing-64"]) == 0
    with Index.open(folder) as index:  # as the resolver chose: the copy in lint-ci's own source
        assert [e.target for e in index.snapshot().out_edges(LINT, EdgeKind.CONFLICTS_WITH)] == [PRIVATE]
    return folder


def _mcp(ix: Path, principals: list[str], target: Path) -> dict[str, Any]:
    calls: dict[str, tuple[str, dict[str, Any]]] = {
        "lint": ("get_component", {"id": LINT}),
        "public": ("get_component", {"id": PUBLIC}),
        "check": ("check_dependencies", {"ids": [LINT, PUBLIC]}),
        "search": ("search_components", {"query": "lint python code ruff format", "k": 2, "kinds": "skill"}),
        "plan": ("install_components", {"ids": [LINT, PUBLIC], "target": str(target), "dry_run": False}),
    }
    return tool_answers(ix, principals, calls)


@pytest.fixture(scope="module")
def alice(ix: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _mcp(ix, ["alice"], tmp_path_factory.mktemp("proj") / "p")


def test_get_component_lists_the_conflict_with_the_public_copy(alice: dict[str, Any]) -> None:
    assert alice["lint"]["conflicts"] == [{"id": PUBLIC, "name": "ruff-format", "reason": WHY}]
    assert alice["public"]["conflicts"] == [{"id": LINT, "name": "lint-ci", "reason": WHY}]


def test_search_check_and_install_warn_and_refuse(alice: dict[str, Any]) -> None:
    search = alice["search"]
    assert {r["id"] for r in search["results"]} == {LINT, PUBLIC}, search
    flagged = {r["id"]: r.get("conflicts_with") for r in search["results"]}
    assert flagged == {LINT: ["ruff-format"], PUBLIC: ["lint-ci"]}, flagged
    assert [(c["source"], c["target"]) for c in search["conflicts"]] == [(LINT, PUBLIC)]
    assert [(c["source"], c["target"]) for c in alice["check"]["conflicts"]] == [(LINT, PUBLIC)]
    plan = alice["plan"]
    assert plan["ok"] is False and [(c["source"], c["target"]) for c in plan["conflicts"]] == [(LINT, PUBLIC)], plan


def test_nothing_alice_is_told_names_the_private_copy(alice: dict[str, Any]) -> None:
    text = json.dumps(alice)
    for hidden in (SECRET, PRIVATE, "does not show you", "not shown"):
        assert hidden not in text, hidden


def test_one_who_may_see_the_private_copy_keeps_its_edge(ix: Path, tmp_path: Path) -> None:
    said = _mcp(ix, ["secops"], tmp_path / "p")
    assert said["lint"]["conflicts"] == [{"id": PRIVATE, "name": "ruff-format", "reason": WHY}]
    assert said["public"]["conflicts"] == []
    assert said["plan"]["ok"] is True and not said["check"]["conflicts"]
    with Index.open(ix) as index:  # the view: alice's edge led, secops' as resolved
        snap = index.snapshot()
        assert [(c.source, c.target) for c in find_conflicts(CallerView(snap, ["alice"]), [LINT, PUBLIC])] == [
            (LINT, PUBLIC)]
        assert find_conflicts(CallerView(snap, ["secops"]), [LINT, PUBLIC]) == []
        assert [(c.source, c.target) for c in find_conflicts(CallerView(snap, ["secops"]), [LINT, PRIVATE])] == [
            (LINT, PRIVATE)]


def test_the_cli_refuses_to_install_both(ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "install", LINT, PUBLIC, "--target", tmp_path / "proj", "--principals", "alice",
                         "--index-dir", ix)  # fmt: skip
    assert code != 0 and not (tmp_path / "proj/.claude").exists(), (out, err)
    said = out + err
    assert "ruff-format" in said and "conflict" in said.lower(), said
    assert PRIVATE not in said and SECRET not in said
    # One at a time: the public ruff-format installs; lint-ci then conflicts with it there.
    code, out, err = run(capsys, "install", PUBLIC, "--target", tmp_path / "proj", "--principals", "alice",
                         "--index-dir", ix)  # fmt: skip
    assert code == 0, (out, err)
    code, out, err = run(capsys, "install", LINT, "--target", tmp_path / "proj", "--principals", "alice",
                         "--index-dir", ix)  # fmt: skip
    said = out + err
    assert code != 0 and not (tmp_path / "proj/.claude/skills/lint-ci").exists(), said
    assert ".claude/skills/ruff-format" in said and PRIVATE not in said and SECRET not in said, said


def _item(node_id: str, name: str, source: str, *, private: bool = False, **front: list[str]) -> Node:
    attrs: dict[str, Any] = {"source_name": source, "path": node_id.split("/", 1)[1]}
    attrs |= {"frontmatter": dict(front)} if front else {}
    return Node(node_id, NodeKind.SKILL, name, f"The {name} skill.", access=("secops",) if private else (), attrs=attrs)


def test_a_conflict_is_led_only_where_its_own_conflicts_names_it(tmp_path: Path) -> None:
    """The declarer's source's visible copy first, the declared reason kept; an edge its
    ``conflicts`` does not name (a JSON graph's, or a name it only requires) leads nowhere."""
    hidden = "a/skills/fmt-hidden"
    nodes = [
        _item("a/skills/user", "user", "a", conflicts=["fmt"]),
        _item(hidden, "fmt", "a", private=True),
        _item("a/skills/fmt-a", "fmt", "a"),
        _item("b/skills/fmt", "fmt", "b"),
        _item("a/skills/graph-only", "graph-only", "a"),
        _item("a/skills/needs", "needs", "a", requires=["fmt"]),
    ]
    edges = [Edge(u, hidden, EdgeKind.CONFLICTS_WITH, description=WHY)
             for u in ("a/skills/user", "a/skills/graph-only", "a/skills/needs")]
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(64), create=True) as index:
        index.upsert(nodes, edges)
        alice = CallerView(index.snapshot(), ["alice"])
        led = alice.out_edges("a/skills/user", EdgeKind.CONFLICTS_WITH)
        assert [(e.target, e.description) for e in led] == [("a/skills/fmt-a", WHY)]
        assert alice.out_edges("a/skills/user", EdgeKind.DEPENDS_ON) == []  # a conflict is no requirement
        assert [e.source for e in alice.in_edges("a/skills/fmt-a", EdgeKind.CONFLICTS_WITH)] == ["a/skills/user"]
        assert [e.source for e in alice.in_edges("a/skills/fmt-a")] == ["a/skills/user"]
        assert alice.in_edges("a/skills/fmt-a", EdgeKind.DEPENDS_ON) == []
        for unnamed in ("a/skills/graph-only", "a/skills/needs"):
            assert alice.out_edges(unnamed, EdgeKind.CONFLICTS_WITH) == [], unnamed
        secops = CallerView(index.snapshot(), ["secops"])
        assert [e.target for e in secops.out_edges("a/skills/user", EdgeKind.CONFLICTS_WITH)] == [hidden]
