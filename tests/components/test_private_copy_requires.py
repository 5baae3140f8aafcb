"""A public skill whose ``requires: [ruff-format]`` resolved, at index time, to a private
copy of ``ruff-format`` in its own source (``access: [secops]``), while a public
``ruff-format`` exists too (in another source, or the same one later by path).

A caller without ``secops`` was told the skill "requires 1 component that the index does
not show you" (``requires_not_shown``, the install plan's note), which gave away that a
private copy exists (the frontmatter shows ``requires: [ruff-format]`` and a public
``ruff-format`` is right there), and the public ``ruff-format`` was not brought along.
Each caller now gets the requirement they can see (`components.stand_ins`): the public
one, in the closure, the plan, ``search_components``, ``get_component`` and the CLI,
and nothing hidden is hinted at. Where no visible item has the name, the count stays.

Through a real MCP client connected in-process and the CLI, on an index the CLI built.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_calls import indexed_graph, run
from files import write_file, write_skill
from mcp_in_process import tool_answers

from skill_retriever.cli import main
from skill_retriever.components.stand_ins import NO_STAND_INS
from skill_retriever.components.view import CallerView
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "NUMBAT-PRIVATE-MARKER"
LINT = "alpha/skills/lint-ci/SKILL.md"
PRIVATE = "alpha/skills/ruff-format/SKILL.md"
PUBLIC = "beta/skills/ruff-format/SKILL.md"
#: Same source: the private copy is the first by path, a public one follows it.
BLACK_PRIVATE, BLACK_PUBLIC = "alpha/skills/black-a/SKILL.md", "alpha/skills/black-b/SKILL.md"
BLACK_ELSEWHERE = "beta/skills/black-format/SKILL.md"
NOT_SHOWN = "does not show you"


def _skill_at(root: Path, folder: str, name: str, body: str, **front: object) -> None:
    lines = [f"name: {name}", f"description: {json.dumps(f'The {name} skill.')}"]
    lines += [f"{k}: {json.dumps(v)}" for k, v in front.items()]
    write_file(root, f"skills/{folder}/SKILL.md", "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n")


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("privreq")
    alpha, beta = root / "alpha", root / "beta"
    write_skill(alpha, "lint-ci", "Lint Python code in CI with ruff, then format it.", requires=["ruff-format"])
    write_skill(alpha, "ruff-format", f"{SECRET} internal ruff config.", access=["secops"])
    write_skill(beta, "ruff-format", "Format Python code with ruff format.")
    write_skill(alpha, "style-gate", "Gate merges on black style.", requires=["black-format"])
    _skill_at(alpha, "black-a", "black-format", f"{SECRET} internal black config.", access=["secops"])
    _skill_at(alpha, "black-b", "black-format", "Format Python code with black.")
    write_skill(beta, "black-format", "Another public black formatter.")
    write_skill(alpha, "vault-user", "Rotate the vault keys.", requires=["vault-admin"])
    write_skill(alpha, "vault-admin", f"{SECRET} vault.", access=["secops"])
    folder = root / "ix"
    assert main(["index", str(alpha), str(beta), "--index-dir", str(folder), "--embedder", "hashing-64"]) == 0
    return folder


def _calls(target: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "lint": ("get_component", {"id": LINT}),
        "lint_full": ("get_component", {"id": LINT, "detail": "full"}),
        "public": ("get_component", {"id": PUBLIC}),
        "style": ("get_component", {"id": "style-gate"}),
        "vault": ("get_component", {"id": "vault-user"}),
        "check": ("check_dependencies", {"ids": [LINT, "style-gate"]}),
        "search": ("search_components", {"query": "lint python code in CI with ruff", "k": 1, "kinds": "skill"}),
        "plan": ("install_components", {"ids": [LINT], "target": str(target), "detail": "full"}),
    }


@pytest.fixture(scope="module")
def alice(ix: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return tool_answers(ix, ["alice"], _calls(tmp_path_factory.mktemp("proj")))


def _named(node_id: str, name: str) -> dict[str, str]:
    return {"id": node_id, "name": name}


def test_get_component_gives_the_public_copy_and_hints_at_nothing(alice: dict[str, Any]) -> None:
    for answer in (alice["lint"], alice["lint_full"]):
        assert answer["requires"] == [_named(PUBLIC, "ruff-format")]
        assert "requires_not_shown" not in answer
    assert alice["lint_full"]["attrs"]["frontmatter"]["requires"] == ["ruff-format"]
    assert _named(LINT, "lint-ci") in alice["public"]["required_by"]
    # the same source's public copy before another source's
    assert alice["style"]["requires"] == [_named(BLACK_PUBLIC, "black-format")]
    assert "requires_not_shown" not in alice["style"]


def test_the_closure_plan_and_search_bring_the_public_copy(alice: dict[str, Any]) -> None:
    check = alice["check"]
    assert check["requires"][LINT] == [PUBLIC] and check["requires"]["alpha/skills/style-gate/SKILL.md"] == [BLACK_PUBLIC]
    assert {a["id"] for a in check["added"]} == {PUBLIC, BLACK_PUBLIC} and not check["missing_requirements"]
    ids = [r["id"] for r in alice["search"]["results"]]
    assert ids[0] == LINT and PUBLIC in ids
    plan = alice["plan"]
    assert {c["id"]: c["status"] for c in plan["components"]} == {LINT: "install", PUBLIC: "install"}
    assert not any(c.get("missing_requirements") for c in plan["components"])


def test_nothing_alice_is_told_names_or_hints_at_a_private_copy(alice: dict[str, Any]) -> None:
    text = json.dumps({k: v for k, v in alice.items() if k != "vault"})
    for hidden in (SECRET, PRIVATE, BLACK_PRIVATE, "black-a", NOT_SHOWN, "not in the index you see"):
        assert hidden not in text


def test_with_no_public_copy_the_count_stays(alice: dict[str, Any]) -> None:
    vault = alice["vault"]
    assert vault["requires"] == [] and vault["requires_not_shown"]["count"] == 1
    assert NOT_SHOWN in vault["requires_not_shown"]["note"] and "vault-admin" not in json.dumps(vault)


def test_one_who_may_see_the_private_copy_gets_it(ix: Path, tmp_path: Path) -> None:
    said = tool_answers(ix, ["secops"], _calls(tmp_path))
    assert said["lint"]["requires"] == [_named(PRIVATE, "ruff-format")]
    assert said["style"]["requires"] == [_named(BLACK_PRIVATE, "black-format")]
    assert _named(LINT, "lint-ci") not in said["public"]["required_by"]
    assert {a["id"] for a in said["check"]["added"]} == {PRIVATE, BLACK_PRIVATE}


def test_the_cli_installs_and_explains_with_the_public_copy(
    ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "install", "lint-ci", "--target", tmp_path / "proj", "--principals", "alice",
                         "--index-dir", ix, "--json")  # fmt: skip
    assert code == 0, err
    plan = json.loads(out)
    assert [c["id"] for c in plan["components"]] == [LINT, PUBLIC]
    assert (tmp_path / "proj/.claude/skills/ruff-format/SKILL.md").read_text(encoding="utf-8").count(SECRET) == 0
    code, out, err = run(capsys, "query", "lint python code in CI with ruff", "--principals", "alice",
                         "--kinds", "skill", "--index-dir", ix, "--json")  # fmt: skip
    assert code == 0, err
    (lint,) = [r for r in json.loads(out)["results"] if r["id"] == LINT]
    assert lint["requires"] == [_named(PUBLIC, "ruff-format")]
    assert NOT_SHOWN not in out and SECRET not in out


def test_the_answer_is_kept_per_snapshot_and_principals(ix: Path) -> None:
    index = Index.open(ix)
    try:
        snap = index.snapshot()
        first = CallerView(snap, ["alice"]).stand_ins
        assert CallerView(snap, ["alice"]).stand_ins is first  # built once for alice
        assert dict(first.out[LINT]) == {(PRIVATE, EdgeKind.DEPENDS_ON): PUBLIC}
        assert CallerView(snap, ["secops"]).stand_ins.out == {}  # sees every copy
        assert CallerView(snap, ["*"]).stand_ins is NO_STAND_INS
    finally:
        index.close()


def test_an_edge_no_written_name_gave_leads_nowhere_else(tmp_path: Path) -> None:
    """A JSON graph's edge names its target by id: a visible item that shares the hidden
    target's name is no stand-in for it."""
    ix = indexed_graph(tmp_path, {
        "nodes": [
            {"id": "uses-vault", "kind": "skill", "name": "uses-vault", "text": "Rotate keys."},
            {"id": "vault-private", "kind": "skill", "name": "vault-tool", "text": f"{SECRET}.", "access": ["secops"]},
            {"id": "vault-public", "kind": "skill", "name": "vault-tool", "text": "A public vault tool."},
        ],
        "edges": [{"source": "uses-vault", "target": "vault-private", "kind": "DEPENDS_ON"}],
    })  # fmt: skip
    said = tool_answers(ix, ["alice"], {"uses": ("get_component", {"id": "uses-vault"})})
    assert said["uses"]["requires"] == []


def _item(node_id: str, name: str, source: str, *, plugin: str | None = None, requires: str = "", private: bool = False) -> Node:
    attrs: dict[str, Any] = {"source_name": source, "path": node_id.split("/", 1)[1]}
    attrs |= {"plugin": plugin} if plugin else {}
    attrs |= {"frontmatter": {"requires": [requires]}} if requires else {}
    return Node(node_id, NodeKind.SKILL, name, f"The {name} skill.", access=("secops",) if private else (), attrs=attrs)


def test_the_stand_in_is_the_one_the_resolver_would_have_chosen(tmp_path: Path) -> None:
    """Its own plugin's first, then its own source's (by path, whatever the other sources
    hold), then another source's; never the requirer itself."""
    kit = "a/zz/kit/skills"  # the plugin's folder sorts after its source's other skills
    hidden = f"{kit}/fmt-hidden"
    nodes = [
        _item(f"{kit}/user", "user", "a", plugin="kit", requires="fmt"),
        _item(hidden, "fmt", "a", plugin="kit", private=True),
        _item(f"{kit}/fmt-kit", "fmt", "a", plugin="kit"),
        _item("a/skills/fmt-a", "FMT", "a"),
        _item("b/skills/fmt", "fmt", "b"),
        _item("a/skills/loner", "loner", "a", requires="Fmt"),
        _item("z/skills/other", "other", "z", requires="fmt"),
        _item("a/skills/a-self", "fmt", "a", requires="fmt"),  # first by path: a requirement of its own
    ]
    users = (f"{kit}/user", "a/skills/loner", "z/skills/other", "a/skills/a-self")
    dep = EdgeKind.DEPENDS_ON
    edges = [Edge(u, hidden, EdgeKind.DEPENDS_ON) for u in users]
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(64), create=True)
    try:
        index.upsert(nodes, edges)
        out = CallerView(index.snapshot(), ["alice"]).stand_ins.out
        assert out[f"{kit}/user"] == {(hidden, dep): f"{kit}/fmt-kit"}  # its own plugin's
        assert out["a/skills/loner"] == {(hidden, dep): "a/skills/a-self"}  # its source's, first by path
        assert out["a/skills/a-self"] == {(hidden, dep): "a/skills/fmt-a"}  # never itself
        assert out["z/skills/other"] == {(hidden, dep): "a/skills/a-self"}  # by source name, then path
        index.delete(["a/skills/fmt-a", "a/skills/a-self"])
        out = CallerView(index.snapshot(), ["alice"]).stand_ins.out
        assert out["a/skills/loner"] == {(hidden, dep): f"{kit}/fmt-kit"}
        assert out["z/skills/other"] == {(hidden, dep): f"{kit}/fmt-kit"}  # source 'a' before 'b'
    finally:
        index.close()
