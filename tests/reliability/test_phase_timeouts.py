"""Per-phase time limits: a timed-out optional phase degrades like a failed one (a warning,
the earlier phases' results); a timed-out required phase raises PhaseTimeoutError."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import PhaseTimeoutError, SkillRetrieverError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


class SlowReranker:
    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.finished = threading.Event()

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        time.sleep(self.seconds)
        self.finished.set()
        return [float(len(t)) for t in texts]


class SlowQueries(HashingEmbedder):
    """Embeds documents at once and single queries slowly (when ``slow`` is set)."""

    slow = 0.0

    def embed(self, texts: Sequence[str]) -> np.ndarray:  # type: ignore[override]
        if len(texts) == 1 and self.slow:
            time.sleep(self.slow)
        return super().embed(texts)


@pytest.fixture
def slow_index(tmp_path: Path) -> Index:
    embedder = SlowQueries(32)
    index = Index.open(tmp_path / "ix", embedder=embedder, create=True)
    index.upsert([Node(id=f"n{i}", kind="skill", name=f"deploy {i}", text=f"deploy canary step {i}") for i in range(6)])
    yield index
    index.close()


def test_a_timed_out_optional_phase_degrades(slow_index: Index) -> None:
    reranker = SlowReranker(3.0)
    baseline = Retriever(slow_index, reranker=None, cache_size=0).search("deploy canary", route="quick")
    retriever = Retriever(slow_index, RetrievalConfig(phase_timeouts={"rerank_cross_encoder": 0.3}), reranker=reranker, cache_size=0)
    start = time.perf_counter()
    resp = retriever.search("deploy canary", route="quick")
    assert time.perf_counter() - start < 2.5
    assert resp.ids == baseline.ids  # fusion order kept
    assert any("rerank_cross_encoder" in w and "PhaseTimeoutError" in w for w in resp.warnings), resp.warnings
    assert "failed" in resp.stats["rerank_cross_encoder"]
    assert resp.reranker == "none"
    # The abandoned work finishes in the background; its result is discarded, and the
    # next query is not disturbed by it.
    assert reranker.finished.wait(5)
    again = Retriever(slow_index, reranker=None, cache_size=0).search("deploy canary", route="quick")
    assert again.ids == baseline.ids and again.warnings == []


def test_a_timed_out_required_phase_raises(slow_index: Index) -> None:
    slow_index.embedder.slow = 2.0  # type: ignore[attr-defined]
    try:
        retriever = Retriever(slow_index, reranker=None, cache_size=0)
        start = time.perf_counter()
        with pytest.raises(PhaseTimeoutError, match="plan_query did not finish within 0.2 s") as info:
            retriever.search("deploy canary", phase_timeouts={"plan_query": 0.2})
        assert isinstance(info.value, SkillRetrieverError) and isinstance(info.value, TimeoutError)
        assert time.perf_counter() - start < 1.5
        # phase_timeout_s applies to every phase; a per-phase entry wins over it.
        with pytest.raises(PhaseTimeoutError):
            retriever.search("deploy canary", phase_timeout_s=0.2)
        ok = retriever.search("deploy canary", phase_timeout_s=0.2, phase_timeouts={"plan_query": 10})
        assert ok.results
    finally:
        slow_index.embedder.slow = 0.0  # type: ignore[attr-defined]


def test_generous_limits_change_nothing(slow_index: Index) -> None:
    plain = Retriever(slow_index, reranker=None, cache_size=0)
    limited = Retriever(slow_index, RetrievalConfig(phase_timeout_s=30.0), reranker=None, cache_size=0)
    for route in ("quick", "smart", "ppr"):
        a, b = plain.search("deploy canary step", route=route), limited.search("deploy canary step", route=route)
        assert a.ids == b.ids and b.warnings == []
