"""`stores.name_views`: the two name matchers of a snapshot, built in one pass, find what
a matcher built from their names alone finds (the planner's, and the accent-folded one
of ``passage_views.proper_name_ids``), and `fold_accents` keeps its answers on ASCII."""

from __future__ import annotations

import unicodedata

import pytest

from skill_retriever.algorithms.query_terms import NameMatcher
from skill_retriever.algorithms.tokenize import fold_accents
from skill_retriever.model import Node
from skill_retriever.stores.name_views import name_views

NAMES = [
    ("passage:1", "passage", "Aschenbrödel"),
    ("entity:1", "entity", "Aschenbrödel"),
    ("entity:2", "entity", "aschenbrodel"),
    ("passage:2", "passage", "Lothair II"),
    ("entity:3", "entity", "Lothair II"),
    ("entity:4", "entity", "LOTHAIR ii"),
    ("passage:3", "passage", "Akinoshū"),
    ("entity:5", "entity", "Straße"),
    ("entity:6", "entity", "Johnnycake, West Virginia"),
    ("entity:7", "entity", "West Virginia"),
    ("entity:8", "entity", "checkout-api"),
    ("entity:9", "entity", "ﬁsh Ⅱ"),  # NFKC and NFKD both change these
    ("fact:1", "fact", "Lothair II"),
    ("fact:2", "fact", "Only A Fact"),
]
QUERIES = [
    "When did Lothair II's mother die?", "lothair ii and LOTHAIR II", "Aschenbrodel or Aschenbrödel?",
    "Akinoshu, Akinoshū", "STRASSE and Straße", "Johnnycake, West Virginia", "the checkout-api of West Virginia",
    "fish II, ﬁsh Ⅱ", "only a fact", "",
]


@pytest.fixture
def nodes() -> list[Node]:
    return [Node(id=i, kind=k, name=name, text=f"text of {name}") for i, k, name in NAMES]


def _old_folded(nodes: list[Node]) -> tuple[NameMatcher, dict[str, list[str]]]:
    """The folded matcher as ``passage_views`` built it on its own."""
    by_name: dict[str, list[str]] = {}
    for n in nodes:
        if n.kind.value != "fact":
            by_name.setdefault(fold_accents(n.name).casefold(), []).append(n.id)
    return NameMatcher(by_name), by_name


@pytest.mark.parametrize("query", QUERIES)
def test_the_planners_matcher_finds_what_one_of_the_names_finds(nodes: list[Node], query: str) -> None:
    alone = NameMatcher(n.name for n in nodes if n.kind.value != "fact")
    assert name_views(nodes).matcher.find(query) == alone.find(query)


@pytest.mark.parametrize("query", QUERIES)
def test_the_folded_matcher_finds_what_one_of_the_folded_names_finds(nodes: list[Node], query: str) -> None:
    alone, _ = _old_folded(nodes)
    text = fold_accents(query)
    assert name_views(nodes).folded_matcher.find(text) == alone.find(text)


def test_the_name_maps_are_the_ones_built_apart(nodes: list[Node]) -> None:
    views = name_views(nodes)
    _, folded = _old_folded(nodes)
    assert views.by_folded == folded
    assert views.by_folded["aschenbrodel"] == ["passage:1", "entity:1", "entity:2"]
    assert [n.id for n in views.by_name["lothair ii"]] == ["passage:2", "entity:3", "entity:4"]
    assert "only a fact" not in views.by_name and len(views.matcher) == 10  # 12 non-facts, two names twice
    assert views.matcher.find("Aschenbrodel") == ["aschenbrodel"]  # as written: accents kept
    assert views.folded_matcher.find(fold_accents("Aschenbrödel")) == ["aschenbrodel"]


@pytest.mark.parametrize("text", ["", "Lothair II", "a-b_c.d/e \t\n~!", "".join(map(chr, range(128)))])
def test_fold_accents_leaves_ascii_as_the_general_rule_does(text: str) -> None:
    general = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    assert fold_accents(text) == general == text
    assert fold_accents("Akinoshū Straße") == "Akinoshu Straße"
