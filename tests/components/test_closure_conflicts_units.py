"""Dependency closure (provenance, cycles), conflicts (both sides, reason, drop-lower) and
the whole-unit budget, on bare graphs and on the indexed fixture catalogue."""

from __future__ import annotations

from component_catalogue import graph_of, sid

from skill_retriever.algorithms.budget import pack_to_budget
from skill_retriever.components.closure import dependency_closure, find_cycles
from skill_retriever.components.conflicts import find_conflicts, settle_conflicts
from skill_retriever.components.service import ComponentService
from skill_retriever.components.units import pack_closure_to_budget
from skill_retriever.components.view import CallerView
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_closure_adds_transitive_requirements_with_provenance() -> None:
    g = graph_of([
        ("app", "api", "DEPENDS_ON"), ("app", "log", "DEPENDS_ON"), ("log", "pii", "DEPENDS_ON"),
        ("agent", "api", "DEPENDS_ON"), ("app", "other", "RELATED_TO"),
    ])  # fmt: skip
    c = dependency_closure(g, ["app", "agent", "app"])
    assert c.selected == ("app", "agent")
    assert c.added == ("api", "log", "pii")  # breadth first; RELATED_TO is not a requirement
    assert c.required_by == {"api": ("app", "agent"), "log": ("app",), "pii": ("app",)}
    assert c.chains["pii"] == ("app", "log", "pii")
    assert c.units == {"app": ("app", "api", "log", "pii"), "agent": ("agent", "api")}
    assert c.requires["log"] == ("pii",) and c.requires["pii"] == ()
    assert c.cycles == () and c.ids == ("app", "agent", "api", "log", "pii")
    assert dependency_closure(g, []).ids == ()


def test_a_cycle_is_reported_once_and_the_walk_ends() -> None:
    g = graph_of([("a", "b", "DEPENDS_ON"), ("b", "c", "DEPENDS_ON"), ("c", "a", "DEPENDS_ON"),
                  ("c", "d", "DEPENDS_ON"), ("d", "d2", "DEPENDS_ON")])  # fmt: skip
    c = dependency_closure(g, ["b"])
    assert c.added == ("c", "a", "d", "d2")
    assert c.cycles == (("a", "b", "c", "a"),)
    assert c.required_by["a"] == ("b",) and c.chains["a"] == ("b", "c", "a")
    assert c.units["b"] == ("b", "c", "a", "d", "d2")
    # several cycles, a self-loop-free diamond, and a long chain all terminate
    requires = {"x": ["y"], "y": ["x", "z"], "z": ["z2"], "z2": ["y"], "w": ["x"]}
    assert set(find_cycles(requires)) == {("x", "y", "x"), ("y", "z", "z2", "y")}
    chain = {str(i): [str(i + 1)] for i in range(5000)} | {"5000": ["0"]}
    assert len(find_cycles(chain)) == 1  # iterative: no recursion limit


def test_hidden_requirements_are_not_added() -> None:
    g = graph_of([("a", "secret", "DEPENDS_ON"), ("a", "b", "DEPENDS_ON")])
    c = dependency_closure(g, ["a"], allowed=lambda i: i != "secret")
    assert c.added == ("b",) and c.hidden == ("secret",)


def test_closure_on_the_indexed_catalogue(hashed_index: Index) -> None:
    c = dependency_closure(
        CallerView.of(hashed_index, ["*"]), [sid("web-scaffold"), sid("cycle-a")]
    )
    assert set(c.added) == {
        sid("api-style"),
        sid("json-logging"),
        sid("redact-pii"),
        sid("cycle-b"),
    }
    assert c.required_by[sid("redact-pii")] == (sid("web-scaffold"),)
    assert c.chains[sid("redact-pii")] == (
        sid("web-scaffold"),
        sid("json-logging"),
        sid("redact-pii"),
    )
    assert c.cycles == ((sid("cycle-a"), sid("cycle-b"), sid("cycle-a")),)


def test_conflicts_name_both_sides_and_the_reason_once_per_pair() -> None:
    g = graph_of([
        ("ruff", "black", "CONFLICTS_WITH", "both rewrite files"),
        ("black", "ruff", "CONFLICTS_WITH", "two formatters"),
        ("ruff", "yapf", "CONFLICTS_WITH", "same"), ("app", "ruff", "DEPENDS_ON"),
    ])  # fmt: skip
    found = find_conflicts(g, ["ruff", "app", "black"])
    assert len(found) == 1
    (c,) = found
    assert c.sides == ("ruff", "black")
    assert c.reason == "both rewrite files; two formatters"
    assert c.installed_id is None and c.dropped is None
    # against what the target already holds
    (inst,) = find_conflicts(g, ["ruff"], installed={"yapf": ".claude/skills/yapf/SKILL.md"})
    assert inst.sides == ("ruff", "yapf") and inst.installed_id == "yapf"
    assert inst.installed == ".claude/skills/yapf/SKILL.md" and inst.reason == "same"


def test_the_lower_ranked_side_goes_and_an_installed_one_wins() -> None:
    g = graph_of(
        [("a", "b", "CONFLICTS_WITH"), ("b", "c", "CONFLICTS_WITH"), ("d", "x", "CONFLICTS_WITH")]
    )
    conflicts = find_conflicts(g, ["b", "a", "c", "d"], installed={"x": "x.md"})
    out = settle_conflicts(conflicts, [["b"], ["a"], ["c"], ["d"]], {"x": "x.md"})
    # b (1) beats a (2) and c (3); the installed x beats d whatever d's rank
    assert set(out.excluded) == {"a", "c", "d"}
    assert {(c.sides, c.dropped) for c in out.conflicts} == {
        (("a", "b"), "a"),
        (("b", "c"), "c"),
        (("d", "x"), "d"),
    }
    # once a side is gone, its other conflicts are already settled
    conflicts = find_conflicts(g, ["a", "b", "c"])
    out = settle_conflicts(conflicts, [["a"], ["b"], ["c"]])
    assert set(out.excluded) == {"b"} and [c.dropped for c in out.conflicts] == ["b", None]


def test_conflict_on_the_indexed_catalogue(hashed_index: Index) -> None:
    (c,) = find_conflicts(
        CallerView.of(hashed_index, ["*"]), [sid("black-style"), sid("ruff-lint")]
    )
    assert c.source == sid("ruff-lint") and c.target == sid("black-style")
    assert c.reason == "both rewrite Python files in different styles"


def test_plain_budget_breaks_a_dependency_and_the_unit_budget_does_not() -> None:
    g = graph_of([("app", "big-dep", "DEPENDS_ON"), ("tool", "small-dep", "DEPENDS_ON")])
    closure = dependency_closure(g, ["app", "tool", "note"])
    tokens = {"app": 100, "big-dep": 400, "tool": 100, "small-dep": 50, "note": 80}
    # the plain budget on the same items, requirements after what they were added for
    plain = pack_to_budget(["app", "tool", "note", "big-dep", "small-dep"], tokens, 300)
    assert "app" in plain.kept and "big-dep" not in plain.kept  # app kept without what it needs
    # the unit budget: app with big-dep (500) does not fit, and ends the answer there ...
    honest = pack_closure_to_budget(closure, tokens, 300)
    assert honest.kept_components == () and honest.dropped_components == ("app", "tool", "note")
    # ... unless asked to fill: lower-ranked units that fit take its place
    cut = pack_closure_to_budget(closure, tokens, 300, fill=True)
    assert cut.kept_components == ("tool", "note")
    assert cut.dropped_components == ("app",)
    assert set(cut.kept) == {"tool", "small-dep", "note"} and cut.total_tokens == 230
    for component in cut.kept_components:  # never a component without its requirements
        assert set(closure.units[component]) <= set(cut.kept)
    # a shared requirement is counted once; no budget keeps everything
    shared = dependency_closure(
        graph_of([("a", "s", "DEPENDS_ON"), ("b", "s", "DEPENDS_ON")]), ["a", "b"]
    )
    both = pack_closure_to_budget(shared, {"a": 10, "b": 10, "s": 100}.__getitem__, 120)
    assert both.kept_components == ("a", "b") and both.total_tokens == 120
    assert pack_closure_to_budget(closure, tokens, None).dropped_components == ()


def test_a_conflict_whose_side_the_budget_dropped_is_not_reported(hashed_index: Index) -> None:
    """Conflicts describe the answer: with both sides kept the pair is reported; once the
    budget drops one side, neither the response nor the kept side mentions it."""
    service = ComponentService(hashed_index, Retriever(hashed_index, reranker=None), principals=["*"])
    query = "format python files with ruff or black"
    whole = service.search(query, k=3)
    assert {sid("ruff-lint"), sid("black-style")} <= {r.id for r in whole.results}
    assert [c.sides for c in whole.conflicts] == [(sid("ruff-lint"), sid("black-style"))]
    tight = service.search(query, k=3, budget=whole.total_tokens - 1)
    kept = {r.id for r in tight.results}
    assert sid("black-style") not in kept and sid("ruff-lint") in kept
    assert any(d.id == sid("black-style") and d.why == "budget" for d in tight.dropped)
    assert tight.conflicts == []
    ruff = next(r for r in tight.results if r.id == sid("ruff-lint"))
    assert ruff.conflicts == () and ruff.rationale.conflicts == ()
    assert "conflict" not in ruff.rationale.text
