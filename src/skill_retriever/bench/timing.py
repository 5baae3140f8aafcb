"""Latency of a built index: per route and phase, plain dense search, and our PPR against
``networkx.pagerank``. Shared by the ``speed`` and ``scale`` sections.

The series (routes, settings) and the dense search take turns query by query, so a burst
of load on a shared machine hits them alike. The first :data:`WARMUP` queries are run and
not counted. Percentiles are nearest-rank.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

PHASES = ("plan_query", "retrieve_seeds", "search_keywords", "search_temporal", "expand_graph",
          "check_completeness", "fill_gaps", "rank_multifactor", "run_ppr", "prune_flow", "fuse_rrf",
          "cover_clauses", "rerank_cross_encoder", "apply_token_budget")
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

#: One timed series: a name, the retriever that runs it (its settings and reranker), and
#: the keyword arguments of each ``search``.
Series = tuple[str, Retriever, dict[str, Any]]


def time_searches(index: Index, queries: Sequence[str], series: Sequence[Series]) -> dict[str, Any]:
    """End-to-end and per-phase latency of each series, and the plain dense search, taken
    query by query in turn (the order rotates with each query).

    Interleaving matters on a shared machine: a burst of load hits every series alike, so
    their ratios to the dense search hold even when absolute figures move.

    Returns:
        ``{"routes": {name: {...}}, "dense": {...}}``: per series the end-to-end and
        per-phase p50 / p95 / mean, the routes the router chose, how many searches had a
        phase fail (degraded) and how many were flagged "nothing fits"; for the dense
        search end to end, the query embedding and the exact search alone.
    """
    snap = index.snapshot()
    emb = snap.embeddings
    e2e: dict[str, list[float]] = {name: [] for name, _, _ in series}
    phases: dict[str, dict[str, list[float]]] = {name: {} for name, _, _ in series}
    chosen: dict[str, dict[str, int]] = {name: {} for name, _, _ in series}
    degraded = dict.fromkeys(e2e, 0)
    unfit = dict.fromkeys(e2e, 0)
    refused = dict.fromkeys(e2e, 0)
    dense: list[float] = []
    embed_ms: list[float] = []
    search_ms: list[float] = []
    jobs: list[Series | None] = [*series, None]  # None: the dense search
    top_k = min(10, len(emb))  # a catalogue of ten items or fewer has no 11th to partition at
    for i, q in enumerate(queries):
        shift = i % len(jobs)
        for job in jobs[shift:] + jobs[:shift]:
            start = time.perf_counter()
            if job is None:
                qv = snap.embed_query(q)
                mid = time.perf_counter()
                sims = emb @ qv
                top = np.argpartition(-sims, top_k - 1)[:top_k] if top_k else np.zeros(0, dtype=np.intp)
                _ = top[np.argsort(-sims[top])]
                end = time.perf_counter()
                snap.search_nodes(qv, 10)
                after = time.perf_counter()
                if i >= WARMUP:
                    dense.append((end - start) * 1000)
                    embed_ms.append((mid - start) * 1000)
                    search_ms.append((after - end) * 1000)
                continue
            name, retriever, kw = job
            try:
                resp = retriever.search(q, k=10, principals=["*"], **kw)
            except SkillRetrieverError:  # refused (empty, too long): no time to count, go on
                refused[name] += 1
                continue
            ms = (time.perf_counter() - start) * 1000.0
            if i < WARMUP:
                continue
            e2e[name].append(ms)
            degraded[name] += bool(resp.failed_phases)  # not "nothing fits" nor the budget
            unfit[name] += resp.nothing_fits
            chosen[name][resp.route] = chosen[name].get(resp.route, 0) + 1
            for phase, st in resp.stats.items():
                if isinstance(st, dict) and "ms" in st and phase in PHASES:
                    phases[name].setdefault(phase, []).append(float(st["ms"]))
    routes = {name: {"queries": len(e2e[name]), "e2e": _p(e2e[name]),
                     "phases": {p: _p(v) for p, v in phases[name].items()},
                     "routes": chosen[name], "degraded": degraded[name], "nothing_fits": unfit[name],
                     "refused": refused[name]}
              for name, _, _ in series}
    return {"routes": routes, "dense": {"e2e": _p(dense), "embed": _p(embed_ms), "vector_search": _p(search_ms),
                                        "queries": len(dense)}}


def time_ppr(index: Index, runs: int) -> dict[str, Any]:
    """Our PageRank against ``networkx.pagerank`` on the same graph (weights, alpha 0.85,
    the same 5 seeds, tol 1e-8): ours is the networkx-equal iteration on the walk the
    query path uses (float32, prepared once per snapshot); also the query path's own
    version (``ppr_ranked``: warm start, the same L1 rule; time, steps, whether its top 20
    match networkx's, max abs diff)."""
    import networkx as nx

    from skill_retriever.algorithms.ppr import personalized_pagerank
    from skill_retriever.algorithms.ppr_ranked import ranked_pagerank
    from skill_retriever.stores.walks import walk_of

    snap = index.snapshot()
    gm = snap.graph
    walk = walk_of(snap, gm.adjacency)
    n = len(gm.ids)
    rng = np.random.default_rng(3)
    seeds = rng.choice(n, size=min(5, n), replace=False)
    p = np.zeros(n)
    p[seeds] = 1.0
    ours: list[float] = []
    ranked_ms: list[float] = []
    x = np.zeros(n)
    steps = 0
    quick = x
    for _ in range(max(runs, 5)):
        start = time.perf_counter()
        x = personalized_pagerank(walk, p, alpha=0.85, tol=1e-8, max_iter=200)
        mid = time.perf_counter()
        got = ranked_pagerank(walk, p, alpha=0.85, top=25, tol=1e-8, max_iter=200)
        ours.append((mid - start) * 1000)
        ranked_ms.append((time.perf_counter() - mid) * 1000)
        quick, steps = got.scores, got.iterations
    graph = nx.from_scipy_sparse_array(gm.adjacency, create_using=nx.DiGraph)
    pers = {int(s): 1.0 for s in seeds}
    theirs: list[float] = []
    ref: dict[int, float] = {}
    for _ in range(runs):
        start = time.perf_counter()
        ref = nx.pagerank(graph, alpha=0.85, personalization=pers, tol=1e-8, max_iter=200, weight="weight")
        theirs.append((time.perf_counter() - start) * 1000)
    expected = np.fromiter((ref.get(i, 0.0) for i in range(n)), dtype=np.float64, count=n)
    diff = float(np.abs(expected - x).max()) if n else 0.0
    o, t = statistics.median(ours), statistics.median(theirs)

    def best(v: np.ndarray, k: int = 20) -> list[int]:
        return np.lexsort((np.arange(v.size), -v))[:k].tolist()  # type: ignore[no-any-return]

    return {"ours_ms": round(o, 3), "networkx_ms": round(t, 1), "ratio": round(t / o, 1) if o else None,
            "max_abs_diff": diff, "walk": str(walk.dtype), "runs": {"ours": len(ours), "networkx": len(theirs)},
            "query_path": {"ms": round(statistics.median(ranked_ms), 3), "iterations": steps,
                       "top20_as_networkx": best(quick) == best(expected),
                       "max_abs_diff": float(np.abs(expected - quick).max()) if n else 0.0}}
