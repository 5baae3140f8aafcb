"""The benchmark's latency line times real query embeddings, not the quality runs' memo."""

from __future__ import annotations

from pathlib import Path

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.datasets import Dataset, EvalQuery
from skill_retriever.bench.embedding import MemoEmbedder
from skill_retriever.bench.latency import default_latency
from skill_retriever.bench.timing import WARMUP
from skill_retriever.ingest.result import IngestResult
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.texts += len(texts)
        return super().embed(texts)


def test_every_timed_query_is_embedded_by_the_real_model(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    memo = MemoEmbedder(inner)
    index = Index.open(tmp_path / "ix", embedder=memo, create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    queries = [EvalQuery(id=str(i), text=f"postgres migration {i}", relevant={"skill:alembic": 1}) for i in range(8)]
    ds = Dataset("skills", "tiny", queries, lambda _: IngestResult(), {}, ("MRR",), kinds=("skill",))
    retriever = Retriever(index, cache_size=0)
    for q in queries:  # what the quality runs leave behind: every query memoised
        memo.embed([q.text])
    before = inner.texts
    lat = default_latency(index, retriever, [q.text for q in ds.queries], ds.kinds, n=5)
    assert lat["queries"] == 5
    # each query embedded twice (the default search and the dense search), none from the memo
    assert inner.texts - before == 2 * (5 + WARMUP)
    assert lat["default_p50_ms"] > 0 and lat["dense_p50_ms"] > 0
    assert lat["x_dense"] == round(lat["default_p50_ms"] / lat["dense_p50_ms"], 2)
    assert sum(lat["routes"].values()) == 5 and lat["reranker"] == "none"
    assert memo.embed(["postgres migration 0"]) is not None and inner.texts - before == 2 * (5 + WARMUP)
    assert "forced" not in lat
    forced = default_latency(index, retriever, [q.text for q in ds.queries], ds.kinds, n=5, forced_routes=["smart"])
    smart = forced["forced"]["smart"]
    assert smart["p50_ms"] > 0 and smart["x_dense"] == round(smart["p50_ms"] / forced["dense_p50_ms"], 2)
    index.close()


def test_a_catalogue_of_ten_items_or_fewer_is_timed_not_a_crash(tmp_path: Path) -> None:
    """Found by a walkthrough: a toolret set of two tools ran every method, then the latency
    line's dense search (`argpartition(-sims, 10)`) raised "kth(=10) out of bounds (2)" and
    the set's measured result was never written."""
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes()[:2], [])
    assert len(index.snapshot().embeddings) <= 10
    lat = default_latency(index, Retriever(index, cache_size=0), [f"postgres migration {i}" for i in range(6)],
                          None, n=3)
    assert lat["queries"] == 3 and lat["dense_p50_ms"] > 0 and lat["default_timed"] == 3


def test_a_set_of_no_more_queries_than_the_warm_up_reads_not_timed_not_failed(tmp_path: Path) -> None:
    """Found by a walkthrough: `benchmark --only toolret --max-queries 1` timed no query
    (the first WARMUP are run untimed) and the report read "n/a (FAILED: it refused every
    query timed); the dense search's 0 ms (0 queries in turn)": nothing had failed."""
    from skill_retriever.bench.figures import latency_note

    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    lat = default_latency(index, Retriever(index, cache_size=0), ["postgres migration"] * WARMUP, None, n=5,
                          forced_routes=["smart"])
    index.close()
    assert lat["queries"] == 0 and lat["warmup"] == WARMUP
    note = latency_note(lat)
    assert "FAILED" not in note and " 0 ms" not in note
    assert note.endswith(f"not timed: the first {WARMUP} queries warm the searches up untimed and this set has "
                         f"no more (give it more queries to time it)")
