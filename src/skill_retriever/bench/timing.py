"""Latency of a built index: per route and phase, plain dense search, and our PPR against
``networkx.pagerank``. Shared by the ``speed`` and ``scale`` sections.

The first :data:`WARMUP` queries of each series are run and not counted. Percentiles are
nearest-rank.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

PHASES = ("plan_query", "retrieve_seeds", "search_keywords", "search_temporal", "expand_graph",
          "check_completeness", "fill_gaps", "rank_multifactor", "run_ppr", "prune_flow", "fuse_rrf",
          "rerank_cross_encoder", "apply_token_budget")
#: Queries run first and not counted (model and caches warm up).
WARMUP = 3


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 1]); 0.0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    return float(s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))])


def _p(values: Sequence[float]) -> dict[str, float]:
    """p50, p95 and mean, rounded to 0.01 ms."""
    return {"p50": round(percentile(values, 0.5), 2), "p95": round(percentile(values, 0.95), 2),
            "mean": round(statistics.fmean(values), 2) if values else 0.0}

def time_routes(
    retriever: Retriever, queries: Sequence[str], routes: Sequence[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """End-to-end and per-phase latency of each named route (``search`` keyword arguments),
    with the routes the router chose and how many searches degraded."""
    out: dict[str, Any] = {}
    for name, kw in routes:
        e2e: list[float] = []
        phases: dict[str, list[float]] = {}
        chosen: dict[str, int] = {}
        degraded = 0
        for i, q in enumerate(queries):
            start = time.perf_counter()
            resp = retriever.search(q, k=10, principals=["*"], **kw)
            ms = (time.perf_counter() - start) * 1000.0
            if i < WARMUP:
                continue
            e2e.append(ms)
            degraded += bool(resp.warnings)
            chosen[resp.route] = chosen.get(resp.route, 0) + 1
            for phase, st in resp.stats.items():
                if isinstance(st, dict) and "ms" in st and phase in PHASES:
                    phases.setdefault(phase, []).append(float(st["ms"]))
        out[name] = {"queries": len(e2e), "e2e": _p(e2e), "phases": {p: _p(v) for p, v in phases.items()},
                     "routes": chosen, "degraded": degraded}
    return out


def time_dense(index: Index, queries: Sequence[str]) -> dict[str, Any]:
    """Plain dense search: query embedding + exact cosine over every node vector; and the
    same through Chroma's HNSW."""
    snap = index.snapshot()
    emb = snap.embeddings
    exact: list[float] = []
    embed_ms: list[float] = []
    chroma: list[float] = []
    for i, q in enumerate(queries):
        start = time.perf_counter()
        qv = snap.embed_query(q)
        mid = time.perf_counter()
        sims = emb @ qv
        top = np.argpartition(-sims, 10)[:10]
        _ = top[np.argsort(-sims[top])]
        end = time.perf_counter()
        snap.search_nodes(qv, 10)
        after = time.perf_counter()
        if i < WARMUP:
            continue
        exact.append((end - start) * 1000)
        embed_ms.append((mid - start) * 1000)
        chroma.append((after - end) * 1000)
    return {"e2e": _p(exact), "embed": _p(embed_ms), "chroma_search": _p(chroma), "queries": len(exact)}


def time_ppr(index: Index, runs: int) -> dict[str, Any]:
    """Our power iteration on the cached transition matrix against networkx.pagerank on the
    same graph (weights, alpha 0.85, the same seeds, tol 1e-8)."""
    import networkx as nx

    from skill_retriever.algorithms.ppr import personalized_pagerank

    gm = index.snapshot().graph
    n = len(gm.ids)
    rng = np.random.default_rng(3)
    seeds = rng.choice(n, size=min(5, n), replace=False)
    p = np.zeros(n)
    p[seeds] = 1.0
    ours: list[float] = []
    for _ in range(max(runs, 5)):
        start = time.perf_counter()
        x = personalized_pagerank(gm.transition, p, alpha=0.85, tol=1e-8, max_iter=200)
        ours.append((time.perf_counter() - start) * 1000)
    graph = nx.from_scipy_sparse_array(gm.adjacency, create_using=nx.DiGraph)
    pers = {int(s): 1.0 for s in seeds}
    theirs: list[float] = []
    ref: dict[int, float] = {}
    for _ in range(runs):
        start = time.perf_counter()
        ref = nx.pagerank(graph, alpha=0.85, personalization=pers, tol=1e-8, max_iter=200, weight="weight")
        theirs.append((time.perf_counter() - start) * 1000)
    diff = max(abs(ref.get(i, 0.0) - float(x[i])) for i in range(n)) if n else 0.0
    o, t = statistics.median(ours), statistics.median(theirs)
    return {"ours_ms": round(o, 3), "networkx_ms": round(t, 1), "ratio": round(t / o, 1) if o else None,
            "max_abs_diff": diff, "runs": {"ours": len(ours), "networkx": len(theirs)}}


