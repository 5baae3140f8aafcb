"""Whether a day of a month in a query is a time window ("since Nov 3") is judged over the
items the caller may see (found in a privacy walk: judged over every item, a few dated
private incidents made a public caller's day phrases windows, and its answer said "no item
carries a date" where an index of its items alone read the day as words). A real index
(the hashing embedder), searched through the Python ``Retriever``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "deploys that broke since Nov 3"
NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _answer(ix: Path, principals: list[str]) -> tuple[Any, list[str], list[str]]:
    with Index.open(ix) as index, Retriever(index, reranker=None) as retriever:
        response = retriever.search(QUERY, principals=principals, now=NOW)
        (many,) = retriever.search_many([QUERY], principals=principals, now=NOW)
    assert many.to_dict()["results"] == response.to_dict()["results"]
    return response.stats["plan_query"]["time_window"], response.warnings, [r.id for r in response.results]


def _index(ix: Path, private: bool) -> Path:
    skills = [Node(id=f"s{i}", kind=NodeKind.SKILL, name=f"s{i}", text=f"roll back deploys that broke, way {i}")
              for i in range(4)]
    incident = Node(id="inc-1", kind=NodeKind.INCIDENT, name="inc-1", text="the deploy broke on Nov 5",
                    created=datetime(2026, 11, 5, tzinfo=UTC), access=("bob",))
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index.upsert([*skills, *([incident] if private else [])])
    return ix


def test_dated_private_items_make_no_window_of_a_public_callers_day(tmp_path: Path) -> None:
    public_only = _answer(_index(tmp_path / "a", private=False), [])
    assert public_only[0] is None
    assert _answer(_index(tmp_path / "b", private=True), []) == public_only
    window, _, ids = _answer(tmp_path / "b", ["bob"])
    assert window is not None and "inc-1" in ids
