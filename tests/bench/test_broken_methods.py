"""A method of ours that fails on every query makes the benchmark exit 1.

Found in a walkthrough: a bug that made the default search fail on every long-item
catalogue scored "full" 0.0 in the report and the run still exited 0, so CI's quick
benchmark passed over it.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.bench.evaluate import broken_methods


def _m(family: str, failed: int) -> dict[str, Any]:
    return {"family": family, "failed": failed}


def test_only_our_methods_failing_on_every_query_are_broken() -> None:
    summary = {
        "full": _m("pipeline", 20),           # every query: broken
        "route ppr": _m("route", 3),          # some queries (too long, say): counted, not broken
        "LC Ensemble": _m("peer", 20),        # a peer's failure is the peer's
        "BM25": _m("channel", 0),
    }
    assert broken_methods(summary, 20) == ["full"]
    assert broken_methods(summary, 0) == []   # no query, nothing to judge
    assert broken_methods({"full": _m("pipeline", 0)}, 20) == []
