"""An hour window over items dated by their day alone (00:00:00): "at 2pm on Nov 3" read the
hour 14:00 to 15:00, and an incident dated 2026-11-03 (its day only, as many exports write
it) fell only in the midnight hour, so the window missed it without a word. Where the
visible items dated inside that day carry no time of day, the window is the whole day, and
a warning says so (`day_dated.widen_to_dated_day`)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cli_calls import indexed_graph

from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 9, 15, 30, tzinfo=UTC)

DAY_ONLY = {"nodes": [
    {"id": "inc:db", "kind": "incident", "name": "database failover", "text": "database failover",
     "created": "2026-11-03"},
    {"id": "inc:cache", "kind": "incident", "name": "cache eviction storm", "text": "cache eviction storm",
     "created": "2026-11-04"},
]}  # fmt: skip
WITH_TIMES = {"nodes": [
    {"id": "inc:db", "kind": "incident", "name": "database failover", "text": "database failover",
     "created": "2026-11-03T14:20:00Z"},
    {"id": "inc:dns", "kind": "incident", "name": "dns outage", "text": "dns outage",
     "created": "2026-11-03T09:00:00Z"},
]}  # fmt: skip


def _search(folder: Path, query: str) -> tuple[list[str], list[str], dict[str, Any]]:
    index = Index.open(folder)
    try:
        response = Retriever(index, RetrievalConfig(now=NOW), cache_size=0).search(query, k=10)
    finally:
        index.close()
    listed = sorted((r for r in response.results if "temporal" in r.channels), key=lambda r: r.channels["temporal"])
    return [r.id for r in listed], list(response.warnings), dict(response.stats["search_temporal"])


@pytest.mark.parametrize("query", ["incidents at 2pm on Nov 3", "incidents from 9am to 5pm on Nov 3"])
def test_an_hour_over_items_dated_by_their_day_is_that_day(tmp_path: Path, query: str) -> None:
    ids, warnings, _ = _search(indexed_graph(tmp_path, DAY_ONLY), query)
    assert ids == ["inc:db"]
    assert any("carry the day only" in w and "2026-11-03 00:00 to 2026-11-04 00:00 UTC" in w for w in warnings), warnings


def test_an_hour_over_items_with_times_stays_the_hour(tmp_path: Path) -> None:
    ids, warnings, _ = _search(indexed_graph(tmp_path, WITH_TIMES), "incidents at 2pm on Nov 3")
    assert ids == ["inc:db"]  # the 09:00 one is outside the hour
    assert not any("carry the day only" in w for w in warnings)
