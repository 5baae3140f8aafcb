"""Scale check: an index of 100,000 nodes and 1,000,000 edges on one machine.

    python -m skill_retriever.bench.million_edges [--nodes 100000] [--edges 1000000]
        [--queries 100] [--embedder bundled|hashing] [--index DIR] [--out DIR]

The graph is synthetic with a realistic, skewed degree (preferential attachment: a few
hubs, many leaves, like entity graphs grown from passage corpora). Texts are short
generated sentences. With ``--embedder bundled`` (the default) they are embedded by the
bundled MiniLM, so the plain dense search it reports (query embedding + exact cosine over
every node vector) is the honest floor the routes are compared with; ``hashing`` swaps in the small
deterministic embedder to time the stores and the graph maths alone.

Reports ingestion seconds (nodes, edges), peak RSS after ingestion and after the
queries, p50 / p95 per phase and end to end for each route, without rerank and with the
default settings (which rerank nothing unless a cross-encoder is installed), taken in
turn with the dense floor query by query; and our PPR against ``networkx.pagerank`` on
the same graph. ``--index DIR``
keeps the built index there and reuses it on the next run with the same parameters
(ingestion figures are then those of the run that built it). The same run is the
``scale`` section of ``skill-retriever benchmark`` (not in ``--quick``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from skill_retriever.bench.common import BenchRun, Result, write_json
from skill_retriever.bench.machine import peak_rss_mb, rss_mb
from skill_retriever.bench.timing import PHASES, WARMUP, Series, time_ppr, time_searches
from skill_retriever.config import RetrievalConfig
from skill_retriever.indexing import BATCH
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import (
    DEFAULT_MODEL,
    Embedder,
    HashingEmbedder,
    SentenceTransformerEmbedder,
)
from skill_retriever.stores.index import Index
from skill_retriever.stores.walks import walk_of

WORDS = ["deploy", "service", "checkout", "payment", "queue", "cache", "latency", "outage", "rollback", "migration", "schema", "postgres", "kafka", "redis", "auth", "token", "gateway", "search", "index", "shard", "replica", "backup", "alert", "trace", "metric", "log", "incident", "review", "test", "flaky", "build", "release", "canary", "feature", "flag", "config", "secret"]
STAMP = "million-edges.json"
#: The model the benchmark's ``scale`` section embeds with, whatever ``--embedder`` says: the
#: README's scale figures and the dense floor they are set against are the bundled MiniLM's,
#: and 100k texts through a larger model would take hours.
SCALE_MODEL = DEFAULT_MODEL


def synthetic(n_nodes: int, n_edges: int, seed: int = 7) -> tuple[list[Node], list[Edge]]:
    """``n_nodes`` short documents and up to ``n_edges`` distinct MENTIONS edges with a
    heavy-tailed in-degree."""
    rng = np.random.default_rng(seed)
    nodes = [
        Node(id=f"n{i}", kind=NodeKind.DOCUMENT, name=f"doc {i}", text=" ".join(rng.choice(WORDS, 12)) + f" item-{i}")
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


def make_embedder(name: str) -> Embedder:
    """``hashing`` (stores and graph maths alone) or the bundled MiniLM."""
    if name == "hashing":
        return HashingEmbedder(64)
    return SentenceTransformerEmbedder()


def build(path: Path, n_nodes: int, n_edges: int, embedder: Embedder) -> tuple[Index, dict[str, Any]]:
    """Open the index at ``path``, building it first unless a complete one with the same
    parameters is there."""
    wanted = {"nodes": n_nodes, "edges": n_edges, "embedder": embedder.name, "seed": 7}
    stamp_path = path / STAMP
    if stamp_path.is_file():
        try:  # a stamp that cannot be read marks no complete build: build again
            stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            stamp = {}
        if isinstance(stamp, dict) and stamp.get("params") == wanted and stamp.get("complete"):
            return Index.open(path / "index", embedder=embedder), {**stamp["build"], "reused": True}
        # Our stamp marks the folder ours: an index of other sizes (or half-built) goes, as
        # upserting into it kept its edges beside the new ones, a graph of neither size.
        if (path / "index").exists():
            shutil.rmtree(path / "index")
        stamp_path.unlink()
    path.mkdir(parents=True, exist_ok=True)
    write_json(stamp_path, {"params": wanted, "complete": False})  # ours, in the making: cleared if it stops
    info: dict[str, Any] = {}
    t = time.perf_counter()
    nodes, edges = synthetic(n_nodes, n_edges)
    info["generate_s"] = round(time.perf_counter() - t, 1)
    index = Index.open(path / "index", embedder=embedder, create=True)
    t = time.perf_counter()
    for i in range(0, len(nodes), BATCH * 8):
        index.upsert(nodes[i : i + BATCH * 8])
    info["nodes_s"] = round(time.perf_counter() - t, 1)
    info["nodes_per_s"] = round(n_nodes / max(info["nodes_s"], 1e-9))
    t = time.perf_counter()
    for i in range(0, len(edges), 100_000):
        index.upsert((), edges[i : i + 100_000])
    info["edges_s"] = round(time.perf_counter() - t, 1)
    info["edges_per_s"] = round(n_edges / max(info["edges_s"], 1e-9))
    info["peak_rss_mb_after_ingest"] = round(peak_rss_mb())
    del nodes, edges
    write_json(stamp_path, {"params": wanted, "complete": True, "build": info})  # atomic: never half a stamp
    return index, {**info, "reused": False}


def query_set(n_nodes: int, count: int) -> list[str]:
    """``count`` seeded queries: four vocabulary words and one item name."""
    rng = np.random.default_rng(11)
    return [" ".join(rng.choice(WORDS, 4)) + f" item-{int(rng.integers(n_nodes))}" for _ in range(count)]


def run(n_nodes: int, n_edges: int, n_queries: int, embedder_name: str, keep: Path | None,
        log: Callable[[str], None] = print) -> Result:
    """Build (or reuse) the index and time it; the result has the shape of one size of
    the speed section, so the benchmark report renders it with the same tables."""
    size: dict[str, Any] = {"target": n_nodes, "embedder": embedder_name, "cpus": os.cpu_count(),
                            "load_avg_at_start": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory() as tmp:
        log(f"  building or opening the {n_nodes:,}-node / {n_edges:,}-edge index ({embedder_name} embedder)")
        index, build_info = build(keep or Path(tmp), n_nodes, n_edges, make_embedder(embedder_name))
        t = time.perf_counter()
        snap = index.snapshot()
        _ = snap.graph, snap.embeddings
        build_info["matrices_s"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        walk_of(snap, snap.graph.adjacency)  # what the first PPR query would build
        build_info["walk_s"] = round(time.perf_counter() - t, 2)
        build_info["items_per_s"] = build_info.get("nodes_per_s", 0)
        build_info["vectors"] = f"embedded ({embedder_name})"
        size["build"] = build_info
        size["nodes"] = len(index)
        size["edges"] = len(index.snapshot().edges)
        queries = query_set(n_nodes, n_queries + WARMUP)
        series = scale_series(index)
        log(f"  timing {n_queries} queries x {len(series)} series and the dense floor, in turn")
        size.update(time_searches(index, queries, series))
        size["load_avg_after_queries"] = [round(x, 2) for x in os.getloadavg()]
        size["rss_mb"] = rss_mb()
        size["peak_rss_mb"] = peak_rss_mb()  # before networkx builds its own copy of the graph
        gc.collect()
        log("  our PPR against networkx.pagerank on the same graph")
        size["ppr"] = time_ppr(index, runs=2)
        size["peak_rss_mb_with_networkx"] = peak_rss_mb()
        index.close()
    return {"section": "scale", "family": "speed", "name": "scale", "key": "scale",
            "source": f"synthetic heavy-tailed graph, {n_nodes:,} nodes / {n_edges:,} edges, {embedder_name} embedder",
            "notes": [(f"latency over {n_queries} queries per route after {WARMUP} warm-up queries, no answer cache; "
                       "routes forced, no rerank; '(defaults)' = the default settings (rerank on: a cross-encoder "
                       "when one is installed, else none); every series and the dense search take turns query by query"),
                      "dense = query embedding + exact cosine over all node vectors; peak RSS before networkx's copy",
                      (f"load average at start {size['load_avg_at_start']}, after the queries "
                       f"{size['load_avg_after_queries']}, on {size['cpus']} cores")],
            "phase_order": list(PHASES), "sizes": [size]}


def scale_series(
    index: Index, *, now: datetime | None = None, with_defaults: bool = True, bare_auto: bool = False
) -> list[Series]:
    """Each route forced, without rerank; then (``with_defaults``) each route and the
    router's choice with the default settings (what a user gets); ``bare_auto`` adds the
    router's choice without rerank. No answer cache: repeated queries are searched again."""
    bare = Retriever(index, RetrievalConfig(now=now, rerank=False), reranker=None, cache_size=0)
    defaults = Retriever(index, RetrievalConfig(now=now), cache_size=0)  # the default reranker (none unless one loads)
    series: list[Series] = [(r, bare, {"route": r, "rerank": False}) for r in ("quick", "ppr", "smart")]
    if bare_auto:
        series.append(("auto", bare, {"rerank": False}))
    if with_defaults:
        series += [(f"{r} (defaults)", defaults, {"route": r}) for r in ("quick", "ppr", "smart")]
        series.append(("auto (defaults)", defaults, {}))
    return series


def run_scale(bench: BenchRun) -> None:
    """The benchmark's ``scale`` section: the default 100k / 1M run, index kept under the
    cache folder so a second run only times the queries."""
    bench.log("\n== scale: 100,000 nodes, 1,000,000 edges")
    if bench.embedder.name != SCALE_MODEL:
        bench.log(f"  embedded by the bundled {SCALE_MODEL}, not --embedder {bench.embedder.name}: "
                  "the README's scale figures and their dense floor are the bundled model's")
    started = time.perf_counter()
    result = run(100_000, 1_000_000, 100, "bundled", bench.opts.cache / "scale__100k-1M", log=bench.log)
    result["seconds"] = round(time.perf_counter() - started, 1)
    result.update(bench.stamp(embedder=SCALE_MODEL))
    write_json(bench.results / "scale.json", result)
    bench.log(summary(result))
    bench.publish(result)


def summary(result: Result) -> str:
    """A few lines: sizes, ingestion, peak memory, each route against the dense floor."""
    size = result["sizes"][0]
    dense = size["dense"]["e2e"]["p50"]
    b = size["build"]
    lines = [(f"{size['nodes']:,} nodes, {size['edges']:,} edges ({size['embedder']} embedder); "
              f"ingest nodes {b.get('nodes_s')} s, edges {b.get('edges_s')} s; peak RSS {size['peak_rss_mb']:.0f} MB"),
             (f"dense floor (embed + exact cosine) p50 {dense:.1f} ms, the index's vector search alone p50 "
              f"{size['dense'].get('vector_search', size['dense'].get('chroma_search', {})).get('p50', 0.0):.1f} ms")]
    for route, r in size["routes"].items():
        ratio = r["e2e"]["p50"] / dense if dense else float("nan")
        slow = sorted(r["phases"].items(), key=lambda kv: -kv[1]["p50"])[:3]
        lines.append(f"{route:>5}: p50 {r['e2e']['p50']:.1f} / p95 {r['e2e']['p95']:.1f} ms ({ratio:.2f}x dense); "
                     + ", ".join(f"{p} {v['p50']:.1f}" for p, v in slow))
    ppr = size["ppr"]
    lines.append(f"PPR ours {ppr['ours_ms']:.1f} ms vs networkx {ppr['networkx_ms']:.0f} ms ({ppr['ratio']}x), "
                 f"max abs diff {ppr['max_abs_diff']:.1e}")
    if "query_path" in ppr:
        qp = ppr["query_path"]
        lines.append(f"PPR as the query path runs it (warm start, same rule): {qp['ms']:.1f} ms, {qp['iterations']} steps, "
                     f"top 20 as networkx: {qp['top20_as_networkx']}, max abs diff {qp['max_abs_diff']:.1e}")
    return "\n".join(lines)


def compare(before: Result, after: Result) -> str:
    """Markdown: end-to-end and per-phase p50 / p95 of each route, before -> after."""
    b, a = before["sizes"][0], after["sizes"][0]

    def pair(x: dict[str, float] | None, y: dict[str, float] | None) -> str:
        """``p50 / p95 -> p50 / p95``, ``-`` for a side that lacks the row."""
        left = f"{x['p50']:.1f} / {x['p95']:.1f}" if x else "-"
        right = f"{y['p50']:.1f} / {y['p95']:.1f}" if y else "-"
        return f"{left} -> {right}"

    def times(route: dict[str, Any], size: dict[str, Any]) -> str:
        """p50 as a multiple of the same run's dense floor."""
        return f"{route['e2e']['p50'] / size['dense']['e2e']['p50']:.2f}x" if route else "-"

    lines = ["| route | phase | before p50 / p95 ms -> after | p50 / dense before -> after |", "|---|---|---|---|"]
    for route in [*a["routes"], *(r for r in b["routes"] if r not in a["routes"])]:
        rb, ra = b["routes"].get(route, {}), a["routes"].get(route, {})
        lines.append(f"| {route} | **end to end** | **{pair(rb.get('e2e'), ra.get('e2e'))}** | "
                     f"{times(rb, b)} -> {times(ra, a)} |")
        for phase in after.get("phase_order", []):
            pb, pa = rb.get("phases", {}).get(phase), ra.get("phases", {}).get(phase)
            if pb or pa:
                lines.append(f"| {route} | {phase} | {pair(pb, pa)} | |")
    lines.append(f"| dense floor | embed + exact cosine | {pair(b['dense']['e2e'], a['dense']['e2e'])} | 1x |")
    lines.append("")
    bp, ap = b["ppr"], a["ppr"]
    lines.append(f"peak RSS {b['peak_rss_mb']:.0f} -> {a['peak_rss_mb']:.0f} MB; our PPR {bp['ours_ms']:.1f} -> "
                 f"{ap['ours_ms']:.1f} ms (networkx {bp['networkx_ms']:.0f} -> {ap['networkx_ms']:.0f} ms; "
                 f"{bp['ratio']}x -> {ap['ratio']}x; max abs diff {bp['max_abs_diff']:.1e} -> {ap['max_abs_diff']:.1e})")
    for side, size in (("before", b), ("after", a)):
        lines.append(f"{side}: load average {size.get('load_avg_at_start')} at start, "
                     f"{size.get('load_avg_after_queries', '-')} after the queries")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m skill_retriever.bench.million_edges``: run, or compare two runs."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=100_000, metavar="N",
                   help="nodes of the synthetic graph (default 100000)")
    p.add_argument("--edges", type=int, default=1_000_000, metavar="N",
                   help="edges of the synthetic graph, preferential attachment (default 1000000)")
    p.add_argument("--queries", type=int, default=100, metavar="N",
                   help="queries timed on each route (forced, then with the default settings), taken in turn "
                        "with the dense search, after a few warm-up queries (default 100)")
    p.add_argument("--embedder", choices=("bundled", "hashing"), default="bundled",
                   help="bundled: the bundled MiniLM embeds every text (the honest dense floor); hashing: the "
                        "small deterministic embedder, to time the stores and the graph maths alone (default bundled)")
    p.add_argument("--index", type=Path, default=None, metavar="DIR",
                   help="keep the built index here and reuse it on a run with the same parameters "
                        "(default: a temporary folder, deleted at the end)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="write million_edges.json here (default: print only)")
    p.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), default=None,
                   help="print a before -> after table of two million_edges.json files and exit")
    args = p.parse_args(argv)
    if args.compare:
        before, after = (json.loads(f.read_text(encoding="utf-8")) for f in args.compare)
        print(compare(before, after))
        return 0
    result = run(args.nodes, args.edges, args.queries, args.embedder, args.index)
    print(json.dumps(result, indent=1, default=str))
    print(summary(result))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "million_edges.json").write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
