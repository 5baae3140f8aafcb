"""The ``speed`` section: per-phase and end-to-end latency per route at about 1k, 10k and
100k nodes, indexing throughput, memory, and our sparse PPR against ``networkx.pagerank``.

The graphs are grown from a real corpus (:mod:`~skill_retriever.bench.growth`); the
timing is :mod:`~skill_retriever.bench.timing`. Latency is measured without the
benchmark's embedding memo: every query is embedded by the real model, as in
production. The first few queries of each route are a warm-up and are not counted.
"""

from __future__ import annotations

import gc
import math
import time

from skill_retriever.bench.common import FIXED_NOW, BenchRun, Result, write_json
from skill_retriever.bench.growth import base_graph, build_size
from skill_retriever.bench.machine import peak_rss_mb, rss_mb
from skill_retriever.bench.million_edges import scale_series
from skill_retriever.bench.timing import PHASES, WARMUP, time_ppr, time_searches


def run_speed(run: BenchRun) -> None:
    """Time every size; ``speed.json`` is rewritten after each one."""
    started = time.perf_counter()
    quick = run.opts.quick
    run.log("\n== speed and scale")
    base = base_graph(run)
    run.log(f"  base graph: {len(base.nodes)} nodes ({base.source}); {len(base.queries)} queries")
    sizes = (1_000, 10_000) if quick else (1_000, 10_000, 100_000)
    n_queries = {1_000: 50, 10_000: 30} if quick else {1_000: 100, 10_000: 100, 100_000: 100}
    notes = [f"latency over {n_queries[1_000]}+ queries per route after {WARMUP} warm-up queries; no embedding memo",
             ("routes forced, no rerank; '(defaults)' = the default settings (rerank on: a cross-encoder when "
              "one is installed, else none); 'auto' = the router's choice; every series and the dense search "
              "take turns query by query; dense = query embedding + exact cosine over all node vectors"),
             (f"machine load average at start {run.machine.get('load_avg_at_start')} "
              "(other jobs shared the 2 cores: absolute numbers are upper bounds)")]
    if quick:
        notes[0] = (f"latency over {n_queries[1_000]} (1k) and {n_queries[10_000]} (10k) queries per route "
                    f"after {WARMUP} warm-up queries; no embedding memo")
        notes.append("quick: 1k and 10k only, fewer queries than the full profile's 100 per route")
    result: Result = {"section": "speed", "family": "speed", "name": "speed", "key": "speed",
                      "source": base.source, "notes": notes, "phase_order": list(PHASES), "sizes": []}
    for target in sizes:
        t0 = time.perf_counter()
        index, build = build_size(run, base, target, real_embedding=target <= 1_000 and not quick)
        queries = base.queries
        qs = (queries * math.ceil((n_queries[target] + WARMUP) / len(queries)))[: n_queries[target] + WARMUP]
        run.log(f"  {len(index):,} nodes: timing {len(qs) - WARMUP} queries x routes")
        series = scale_series(index, now=FIXED_NOW, with_defaults=not quick, bare_auto=not quick)
        searched = time_searches(index, qs, series)
        timed, dense = searched["routes"], searched["dense"]
        ppr = time_ppr(index, runs=3 if target <= 10_000 else 2)
        size = {
            "target": target, "nodes": len(index), "edges": len(index.snapshot().edges),
            "build": build, "routes": timed, "dense": dense, "ppr": ppr,
            "rss_mb": rss_mb(),
            "peak_rss_mb": peak_rss_mb(),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        result["sizes"].append(size)
        bad = {r: v["degraded"] for r, v in timed.items() if v["degraded"]}
        if bad:
            run.log(f"    WARNING: a phase failed and degraded in some searches {bad}; these timings are not valid")
        run.log(f"    dense p50 {dense['e2e']['p50']:.1f} ms; " + "; ".join(
            f"{r} p50 {v['e2e']['p50']:.1f} / p95 {v['e2e']['p95']:.1f} ms" for r, v in timed.items())
            + f"; PPR ours {ppr['ours_ms']:.2f} ms vs networkx {ppr['networkx_ms']:.0f} ms ({ppr['ratio']}x)")
        result["seconds"] = round(time.perf_counter() - started, 1)
        result.update(run.stamp())
        write_json(run.results / "speed.json", result)  # written after every size
        index.close()
        del index, series
        gc.collect()
    run.publish(result)
