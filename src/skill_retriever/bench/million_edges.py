"""Scale check: an index of 100,000 nodes and 1,000,000 edges on one machine.

    python -m skill_retriever.bench.million_edges [--nodes 100000] [--edges 1000000] [--queries 100] [--out DIR]

The graph is synthetic with a realistic, skewed degree (preferential attachment: a few
hubs, many leaves, like entity graphs grown from passage corpora). Texts are short
generated sentences embedded with the small deterministic ``HashingEmbedder``: this
measures the stores and the graph maths (ingestion, PPR, expansion, flow pruning,
fusion), not the embedding model, whose cost is the same at any graph size. Prints
ingestion seconds, peak RSS, and p50 / p95 per phase and end to end for each route, and
writes them as JSON when ``--out`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

WORDS = ["deploy", "service", "checkout", "payment", "queue", "cache", "latency", "outage", "rollback", "migration", "schema", "postgres", "kafka", "redis", "auth", "token", "gateway", "search", "index", "shard", "replica", "backup", "alert", "trace", "metric", "log", "incident", "review", "test", "flaky", "build", "release", "canary", "feature", "flag", "config", "secret"]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def synthetic(n_nodes: int, n_edges: int, seed: int = 7) -> tuple[list[object], list[object]]:
    from skill_retriever.model import Edge, EdgeKind, Node

    rng = np.random.default_rng(seed)
    nodes = [
        Node(id=f"n{i}", kind="document", name=f"doc {i}", text=" ".join(rng.choice(WORDS, 12)) + f" item-{i}")
        for i in range(n_nodes)
    ]
    # Preferential attachment by sampling targets with weight ~ rank^-0.8 (a heavy tail).
    weights = 1.0 / np.arange(1, n_nodes + 1) ** 0.8
    weights /= weights.sum()
    src = rng.integers(0, n_nodes, size=n_edges * 2)
    dst = rng.choice(n_nodes, size=n_edges * 2, p=weights)
    pairs = np.unique(np.stack([src, dst], axis=1)[src != dst], axis=0)
    rng.shuffle(pairs)
    pairs = pairs[:n_edges]
    edges = [Edge(f"n{a}", f"n{b}", EdgeKind.MENTIONS) for a, b in pairs.tolist()]
    return nodes, edges


def main(argv: list[str] | None = None) -> int:
    from skill_retriever.config import RetrievalConfig
    from skill_retriever.indexing import BATCH
    from skill_retriever.retriever import Retriever
    from skill_retriever.stores.embedder import HashingEmbedder
    from skill_retriever.stores.index import Index

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=100_000)
    p.add_argument("--edges", type=int, default=1_000_000)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)

    report: dict[str, object] = {"nodes": args.nodes, "edges": args.edges}
    t = time.perf_counter()
    nodes, edges = synthetic(args.nodes, args.edges)
    report["generate_s"] = round(time.perf_counter() - t, 1)
    with tempfile.TemporaryDirectory() as tmp:
        index = Index.open(Path(tmp) / "idx", embedder=HashingEmbedder(64))
        t = time.perf_counter()
        for i in range(0, len(nodes), BATCH * 8):
            index.upsert(nodes[i : i + BATCH * 8])
        report["nodes_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        for i in range(0, len(edges), 100_000):
            index.upsert((), edges[i : i + 100_000])
        report["edges_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        index.matrices()
        report["matrices_s"] = round(time.perf_counter() - t, 2)
        report["index_edges"] = index.graph.edge_count
        report["peak_rss_mb_after_ingest"] = round(peak_rss_mb())
        rng = np.random.default_rng(11)
        queries = [" ".join(rng.choice(WORDS, 4)) + f" item-{int(rng.integers(args.nodes))}" for _ in range(args.queries)]
        retriever = Retriever(index, RetrievalConfig(rerank=False), reranker=None, cache_size=0)
        routes: dict[str, object] = {}
        for route in ("quick", "ppr", "smart"):
            retriever.search(queries[0], route=route)  # warm the caches of this route
            per_phase: dict[str, list[float]] = {}
            total: list[float] = []
            for q in queries:
                t = time.perf_counter()
                resp = retriever.search(q, route=route)
                total.append((time.perf_counter() - t) * 1000)
                for phase, s in resp.stats.items():
                    if isinstance(s, dict) and "ms" in s:
                        per_phase.setdefault(phase, []).append(float(s["ms"]))
            routes[route] = {
                "end_to_end_ms": {"p50": round(float(np.percentile(total, 50)), 1), "p95": round(float(np.percentile(total, 95)), 1)},
                "phases_ms": {
                    ph: {"p50": round(float(np.percentile(v, 50)), 2), "p95": round(float(np.percentile(v, 95)), 2)}
                    for ph, v in per_phase.items()
                },
            }
        report["routes"] = routes
        report["peak_rss_mb"] = round(peak_rss_mb())
        report["cpus"] = os.cpu_count()
        index.close()
    print(json.dumps(report, indent=1))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "million_edges.json").write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
