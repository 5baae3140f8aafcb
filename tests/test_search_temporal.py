"""The temporal channel end to end on a small index: a "last N" window ends at now, an
item counts by the later of its created and updated times, and a time-like phrase the
parser does not read leaves the query whole and says so."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.indexing import index_sources
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def retriever(tmp_path: Path) -> Iterator[Retriever]:
    nodes = [
        Node(id="incident:future", kind="incident", name="future", text="checkout outage planned drill",
             created="2027-06-01T00:00:00Z"),
        Node(id="incident:fresh", kind="incident", name="fresh", text="checkout outage latency spike",
             created="2026-12-02T08:00:00Z"),
        # updated before created (a bad import): still changed inside the last 24h
        Node(id="incident:skewed", kind="incident", name="skewed", text="checkout outage after a deploy",
             created="2026-12-02T09:00:00Z", updated="2026-10-01T00:00:00Z"),
        Node(id="campaign:ad", kind="document", name="ad-campaign", text="the ad campaign broke tracking",
             created="2026-01-01T00:00:00Z"),
    ]  # fmt: skip
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index.add(nodes, [])
    yield Retriever(index, RetrievalConfig(now=NOW), reranker=None, cache_size=0)
    index.close()


def temporal_ids(resp: object) -> list[str]:
    results = resp.results  # type: ignore[attr-defined]
    ranked = [(r.channels["temporal"], r.id) for r in results if "temporal" in r.channels]
    return [i for _, i in sorted(ranked)]


def test_last_24h_ends_now_and_reads_the_later_time(retriever: Retriever) -> None:
    resp = retriever.search("checkout outage in the last 24h")
    assert resp.stats["search_temporal"]["window"] == "in the last 24h"
    assert temporal_ids(resp) == ["incident:skewed", "incident:fresh"]


def test_since_ends_now_so_a_planned_item_is_not_the_latest(retriever: Retriever) -> None:
    # incident:future (2027) came first in the temporal channel of every "since ..."
    resp = retriever.search("checkout outage since 2026-12-01")
    assert temporal_ids(resp) == ["incident:skewed", "incident:fresh"]


def test_ad_is_no_time_window(retriever: Retriever) -> None:
    resp = retriever.search("what broke the last ad campaign")
    assert resp.stats["search_temporal"]["window"] is None
    assert resp.stats["plan_query"]["time_window"] is None
    assert resp.results and resp.results[0].id == "campaign:ad"


def test_unread_time_phrase_is_noted_and_kept(retriever: Retriever) -> None:
    resp = retriever.search("checkout outage since the deploy")
    assert resp.stats["search_temporal"]["window"] is None
    assert any("'since the deploy'" in w for w in resp.warnings)


def test_a_time_no_item_can_answer_is_said(retriever: Retriever, tmp_path: Path) -> None:
    """The time in the query only ranks: with nothing dated inside it, or nothing dated at
    all (most skill catalogues), the answer ranks by the text alone, and says so."""
    resp = retriever.search("checkout outage in the last 2 hours")
    assert not temporal_ids(resp)
    # the bounds in UTC: what a relative phrase was read as (now is 2026-12-02 12:00)
    assert ("the query names a time ('in the last 2 hours', 2026-12-02 10:00 to 2026-12-02 12:00 UTC), "
            "but no item was created or updated inside it: it ranks by the text alone") in resp.warnings
    assert resp.stats["search_temporal"]["start"] == "2026-12-02T10:00:00+00:00"
    assert not any("names a time" in w for w in retriever.search("checkout outage in the last 24h").warnings)
    undated = Index.open(tmp_path / "undated", embedder=HashingEmbedder(), create=True)
    undated.add([Node(id="skill:pptx", kind="skill", name="pptx", text="make PowerPoint slides")], [])
    resp = Retriever(undated, RetrievalConfig(now=NOW), reranker=None).search("PowerPoint skills updated in the last 24h")
    # a skill written through the Python API is dated by its fields, and the warning says so
    assert resp.results and any('no item carries a date (created or updated) (a skill takes its date from its "created" '
                                'or "updated" field (ISO 8601), as its JSON file, or Node(created=...) in the Python '
                                "API, gives it): it ranks by the text alone" in w for w in resp.warnings)
    undated.close()


def test_undated_documents_say_how_to_date_one(tmp_path: Path) -> None:
    """A folder of runbooks without frontmatter is undated throughout: the warning (a time
    in the query) and the note (since/until) say where a document's date comes from."""
    folder = tmp_path / "runbooks"
    folder.mkdir()
    (folder / "dns.md").write_text("# DNS outage\n\nOn 2026-11-27 internal DNS failed to resolve payments-db.\n")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, folder, calibrate=False)
    retriever = Retriever(index, RetrievalConfig(now=NOW), reranker=None, cache_size=0)
    said = retriever.search("dns outage last week").warnings
    assert any("no item carries a date (created or updated) (a document takes its date from its frontmatter, date:" in w
               for w in said)
    note = retriever.search("dns outage", filters={"since": "2026-11-01"}).warnings
    assert any("none has one (a document takes its date from its frontmatter" in w for w in note)
    index.close()
