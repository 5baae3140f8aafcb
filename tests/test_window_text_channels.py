"""A time window's items are ranked by the query's words too, however many items outside
the window match them better or as well (`phases.window_hits`).

Seen on 10,000 generated incidents: "checkout incidents yesterday" led with yesterday's
payments and search incidents, because the keyword channel's first 50 (the depth fusion
reads) held only checkout incidents of other days, so the window's own were ordered by
recency alone. Here 300 checkout incidents lie before the window, with the same words as
the two inside it, and the newest items inside it are payments'.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.filters import Filters
from skill_retriever.phases.window_hits import in_window_past, window_filters, with_window_hits
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "checkout incidents since 2026-11-20"


def _incident(ident: str, service: str, day: str) -> dict[str, str]:
    return {"id": ident, "kind": "incident", "name": f"{service} outage",
            "text": f"The {service} service returned errors to its callers.", "created": f"{day}T10:00:00Z"}


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("window")
    nodes = [_incident(f"inc:{i:04d}", "checkout", f"2026-10-{1 + i % 28:02d}") for i in range(300)]
    nodes += [_incident("inc:w-checkout-1", "checkout", "2026-11-21"), _incident("inc:w-checkout-2", "checkout", "2026-11-22")]
    nodes += [_incident(f"inc:w-payments-{i}", "payments", f"2026-11-{25 + i}") for i in range(3)]
    (root / "incidents.json").write_text(json.dumps({"nodes": nodes, "edges": []}), encoding="utf-8")
    from skill_retriever.cli import main

    assert main(["index", str(root / "incidents.json"), "--index-dir", str(root / "ix"), "--embedder", "hashing-64"]) == 0
    return root / "ix"


def test_the_windows_items_that_match_the_words_come_first(ix: Path) -> None:
    with Retriever(Index.open(ix)) as retriever:
        response = retriever.search(QUERY, k=5)
    assert response.stats["search_temporal"]["hits"] == 5
    assert set(response.ids[:2]) == {"inc:w-checkout-1", "inc:w-checkout-2"}, response.ids
    assert set(response.ids[2:5]) == {f"inc:w-payments-{i}" for i in range(3)}  # the window's others next
    first = response.results[0]
    assert "keyword" in first.channels and "temporal" in first.channels


def test_without_a_window_nothing_is_added(ix: Path) -> None:
    with Retriever(Index.open(ix)) as retriever:
        response = retriever.search("checkout incidents", k=5)
    assert response.stats["fuse_rrf"]["channels"]["keyword"] == 50  # the depth, no more


def test_the_window_narrows_the_callers_filters_and_never_widens_them() -> None:
    plan = {"time_window": {"start": "2026-11-20T00:00:00+00:00", "end": "2026-12-01T00:00:00+00:00", "phrase": "x"}}
    narrowed = window_filters(plan, Filters(kinds=["incident"], since="2026-11-25"))  # type: ignore[arg-type]
    assert narrowed is not None and narrowed.kinds == frozenset({"incident"})
    assert narrowed.since is not None and narrowed.since.isoformat() == "2026-11-25T00:00:00+00:00"
    assert narrowed.until is not None and narrowed.until.isoformat() == "2026-11-30T23:59:59.999999+00:00"
    assert window_filters(plan, Filters(until="2026-11-01")) is None  # no time left: no search  # type: ignore[arg-type]
    assert window_filters({}, Filters()) is None  # type: ignore[arg-type]


def test_window_hits_join_by_score_and_are_kept_past_the_depth() -> None:
    listed = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
    merged = with_window_hits(listed, [("b", 2.0), ("w", 0.5), ("v", 2.0)], lambda h: h[0], lambda h: h[1])
    assert merged == [("a", 3.0), ("b", 2.0), ("v", 2.0), ("c", 1.0), ("w", 0.5)]
    whole = {"keyword": merged, "graph": [("g1", 1.0), ("w", 0.9)]}
    head = in_window_past({ch: hits[:2] for ch, hits in whole.items()}, whole, 2, {"w", "v"}, lambda h: h[0])
    assert head["keyword"] == [("a", 3.0), ("b", 2.0), ("v", 2.0), ("w", 0.5)]
    assert head["graph"] == [("g1", 1.0), ("w", 0.9)]  # only the text channels searched the window
