"""The default search's real latency beside the quality figures of a judged set.

The quality runs memoise query embeddings across methods (the same query is asked of
every method), so their per-method times are not latencies. Here the default search and
the dense search take turns query by query, each embedding its query with the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from datetime import datetime
from typing import Any

from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.embedding import MemoEmbedder
from skill_retriever.bench.timing import WARMUP, Series, time_searches
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

__all__ = ["LATENCY_QUERIES", "default_latency", "latency_queries", "section_latency"]

#: Queries timed for :func:`default_latency` (after the warm-up ones).
LATENCY_QUERIES = 60


def latency_queries(run: BenchRun) -> int:
    return LATENCY_QUERIES // 2 if run.opts.quick else LATENCY_QUERIES


def default_latency(
    index: Index,
    retriever: Retriever,
    texts: list[str],
    kinds: tuple[str, ...] | None,
    n: int,
    *,
    forced_routes: Sequence[str] = (),
) -> dict[str, Any]:
    """The default search (``retriever.search(q)``, ``kinds``) against the dense
    search, taking turns query by query, each embedding its query with the real model;
    with ``forced_routes``, each of those routes forced takes its turn too (what choosing
    it by default would cost).

    Returns p50 / p95 of each, their ratio, the routes the router chose and the reranker;
    ``forced`` maps each forced route to its p50 and its ratio to the dense search.
    """
    queries = texts[: n + WARMUP]
    memo = index.embedder
    bypass = memo.passthrough() if isinstance(memo, MemoEmbedder) else nullcontext()
    series: list[Series] = [("default", retriever, {"kinds": kinds})]
    series += [(f"route {r}", retriever, {"kinds": kinds, "route": r}) for r in forced_routes]
    with bypass:
        timed = time_searches(index, queries, series)
    default, dense = timed["routes"]["default"], timed["dense"]["e2e"]
    # A search that refused every query timed nothing: its figures are None, not a p50 of
    # 0 ms that reads as the fastest search there is (`figures.latency_note` says FAILED).
    full = default["e2e"] if default["queries"] else {"p50": None, "p95": None}
    out = {"queries": timed["dense"]["queries"], "default_p50_ms": full["p50"], "default_p95_ms": full["p95"],
           "dense_p50_ms": dense["p50"], "x_dense": _ratio(full["p50"], dense["p50"]),
           "routes": default["routes"], "default_timed": default["queries"], "default_refused": default["refused"],
           "reranker": retriever.reranker.name if retriever.reranker else "none", "warmup": WARMUP}
    if forced_routes:
        forced = {r: timed["routes"][f"route {r}"] for r in forced_routes}
        out["forced"] = {r: {"p50_ms": f["e2e"]["p50"] if f["queries"] else None, "timed": f["queries"],
                             "x_dense": _ratio(f["e2e"]["p50"], dense["p50"]) if f["queries"] else None,
                             "refused": f["refused"]} for r, f in forced.items()}
    return out


def _ratio(ms: float | None, dense_ms: float) -> float | None:
    return round(ms / dense_ms, 2) if ms is not None and dense_ms else None


def section_latency(
    run: BenchRun,
    index: Index,
    texts: list[str],
    kinds: tuple[str, ...] | None,
    now: datetime,
    forced_routes: Sequence[str] = (),
) -> dict[str, Any]:
    """A section's latency line: ``Retriever(index)`` as it comes (its default reranker, a
    cross-encoder only if one loads offline; no answer cache), at the section's fixed
    clock, timed by :func:`default_latency` and logged."""
    default = Retriever(index, RetrievalConfig(now=now), cache_size=0)
    latency = default_latency(index, default, texts, kinds, latency_queries(run), forced_routes=forced_routes)
    run.log(f"  latency (default search against dense, taking turns, real embeddings): {latency}")
    return latency
