"""Speed and scale: per-phase and end-to-end latency per route at about 1k, 10k and 100k
nodes, indexing throughput, memory, and our sparse PPR against ``networkx.pagerank``.

Graphs are grown from a real corpus: the passages and spaCy entities of
``multihop/hotpotqa_hipporag_train100`` (994 passages, ~6.8k entities, MENTIONS edges;
the quick profile uses its small 2wikimultihopqa subset).
A smaller size is a prefix of it (passages in corpus order with their entities); a
larger one adds replicas of it: every node and edge copied with a ``~r<i>`` id suffix,
about 10 % of each text's words dropped (seeded), and the vector a perturbed copy of the
original (Gaussian noise, cosine about 0.95, renormalised). Replicas keep the degree
distribution exactly; their vectors are replayed, not embedded, so the 100k index is
built in minutes rather than hours -- its throughput is reported as store-only (the 1k
index of the full profile is embedded for real). Without the data folder the base graph
is the generated incident world.

Latency is measured without the benchmark's embedding memo: every query is embedded by
the real model, as in production. The first few queries of each route are a warm-up
and are not counted.
"""

from __future__ import annotations

import gc
import math
import random
import resource
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import Edge, Node

PHASES = ("plan_query", "retrieve_seeds", "search_keywords", "search_temporal", "expand_graph",
          "check_completeness", "fill_gaps", "rank_multifactor", "run_ppr", "prune_flow", "fuse_rrf",
          "rerank_cross_encoder", "apply_token_budget")
WARMUP = 3
NOISE = 0.017  # per-dimension sigma: cosine to the original about 1/sqrt(1 + 384 sigma^2) = 0.95


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 1]); 0.0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    return float(s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))])


def _p(values: Sequence[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 0.5), 2), "p95": round(percentile(values, 0.95), 2),
            "mean": round(statistics.fmean(values), 2) if values else 0.0}


def prefix_graph(nodes: Sequence[Node], edges: Sequence[Edge], target: int) -> tuple[list[Node], list[Edge]]:
    """About ``target`` nodes: primary items (non-entities) in order, each with its
    neighbours, then the edges among the chosen nodes."""
    neighbours: dict[str, list[str]] = {}
    for e in edges:
        neighbours.setdefault(e.source, []).append(e.target)
        neighbours.setdefault(e.target, []).append(e.source)
    chosen: dict[str, None] = {}
    for n in nodes:
        if len(chosen) >= target:
            break
        if n.kind.value == "entity":
            continue
        chosen.setdefault(n.id)
        for m in neighbours.get(n.id, ()):
            chosen.setdefault(m)
    by_id = {n.id: n for n in nodes}
    keep = [by_id[i] for i in chosen if i in by_id][:target]
    ids = {n.id for n in keep}
    return keep, [e for e in edges if e.source in ids and e.target in ids]


def replicate(
    nodes: Sequence[Node], edges: Sequence[Edge], vectors: dict[str, np.ndarray], copies: int, seed: int = 5
) -> tuple[list[Node], list[Edge], dict[str, np.ndarray]]:
    """The base graph plus ``copies`` perturbed replicas (ids ``<id>~r<i>``), and a
    text -> vector table for every node text (base vectors, perturbed for replicas)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    out_nodes = list(nodes)
    out_edges = list(edges)
    known = {n.embedding_text(): vectors[n.id] for n in nodes if n.id in vectors}
    for r in range(1, copies + 1):
        suffix = f"~r{r}"
        for n in nodes:
            words = n.text.split()
            kept = [w for w in words if rng.random() > 0.1] or words[:1]
            copy = n.with_changes(id=n.id + suffix, text=" ".join(kept))
            out_nodes.append(copy)
            if n.id in vectors:
                v = vectors[n.id] + nrng.normal(0.0, NOISE, size=vectors[n.id].shape).astype(np.float32)
                known[copy.embedding_text()] = v / np.linalg.norm(v)
        out_edges += [e.__class__(e.source + suffix, e.target + suffix, e.kind, e.weight, e.description) for e in edges]
    return out_nodes, out_edges, known


def _edge_vectors(index: Any) -> dict[str, np.ndarray]:
    """Edge sentence -> vector for the base index's embedded edges (replicas reuse them)."""
    snap = index.snapshot()
    names = {i: n.name for i, n in snap.nodes.items()}
    ids, matrix = snap._edge_matrix  # noqa: SLF001 - the benchmark reads the vectors as stored
    edges = snap.edges
    return {edges[i].embedding_text(names[edges[i].source], names[edges[i].target]): matrix[r] for r, i in enumerate(ids)}


def base_graph(bench: Any) -> tuple[list[Node], list[Edge], dict[str, np.ndarray], dict[str, np.ndarray], list[str], str]:
    """Nodes, edges, node vectors, edge-sentence vectors, queries and a description.

    Full profile: ``multihop/hotpotqa_hipporag_train100`` (the multihop section's cached
    index). Quick profile: the multihop quick subset of 2wikimultihopqa (also shared).
    No data: a generated incident world.
    """
    from skill_retriever.bench import datasets as D

    data = bench.opts.data
    quick = bench.opts.quick
    wanted = "2wikimultihopqa" if quick else "hotpotqa_hipporag_train100"
    sets = D.multihop_sets(data, quick=quick)[0] if data else []
    ds = next((s for s in sets if s.name == wanted), None)
    if ds is not None:
        index, _ = D.cached_index(bench.opts.cache, ds.key, ds.fingerprint, ds.ingest, bench.embedder, bench.log)
        queries = [q.text for q in ds.queries]
        source = (f"real corpus: multihop/{ds.name}{' quick subset' if quick else ''} (passages + spaCy entities, "
                  "MENTIONS edges), replicated for larger sizes")
    else:
        from skill_retriever.bench.incidents import generate_queries, generate_world

        size = (60, 250, 200) if quick else (150, 500, 450)
        world = generate_world(seed=13, services=size[0], deploys=size[1], incidents=size[2])
        key = f"speed__incident-world-13-{size[0]}-{size[1]}-{size[2]}"
        index, _ = D.cached_index(bench.opts.cache, key, {"generator": 1, "size": list(size)},
                                lambda work: world.ingest(), bench.embedder, bench.log)
        queries = [q.text for q in generate_queries(world, per_shape=30)]
        source = "generated incident world (no data folder), replicated for larger sizes"
    snap = index.snapshot()
    gm, emb = snap.graph, snap.embeddings
    vectors = {i: emb[r].copy() for r, i in enumerate(gm.ids) if float(np.abs(emb[r]).sum()) > 0}
    nodes = sorted(snap.nodes.values(), key=lambda n: _order_key(n.id))
    edges = list(snap.edges.values())
    edge_vecs = _edge_vectors(index)
    index.close()
    return nodes, edges, vectors, edge_vecs, queries, source


def _order_key(node_id: str) -> tuple[int, Any]:
    """Passages in corpus order (numeric idx), everything else after, by id."""
    head, _, tail = node_id.partition(":")
    if head == "passage" and tail.isdigit():
        return (0, int(tail))
    return (1, node_id)


def build_size(bench: Any, base: tuple[Any, ...], target: int, real_embedding: bool) -> tuple[Any, dict[str, Any]]:
    """An index of about ``target`` nodes under the cache folder (reused when present)."""
    from skill_retriever.bench.datasets import cached_index
    from skill_retriever.bench.embedding import ReplayEmbedder

    nodes, edges, vectors, edge_vecs, _, source = base
    copies = max(0, math.ceil(target / len(nodes)) - 1)
    if copies:
        all_nodes, all_edges, known = replicate(nodes, edges, vectors, copies)
    else:
        all_nodes, all_edges = list(nodes), list(edges)
        known = {n.embedding_text(): vectors[n.id] for n in nodes if n.id in vectors}
    sub_nodes, sub_edges = prefix_graph(all_nodes, all_edges, target)
    known.update(edge_vecs)
    embedder = bench.embedder if real_embedding else ReplayEmbedder(bench.embedder, known)
    key = f"speed__{'real' if real_embedding else 'replay'}-{len(sub_nodes)}-{abs(hash_ids(sub_nodes)) % 10**8}"
    fingerprint = {"source": source, "nodes": len(sub_nodes), "edges": len(sub_edges), "real": real_embedding,
                   "noise": NOISE, "version": 1}
    index, info = cached_index(bench.opts.cache, key, fingerprint,
                             lambda work: IngestResult(source=source, nodes=sub_nodes, edges=sub_edges),
                             embedder, bench.log)
    if not real_embedding:  # queries always go through the real model
        from skill_retriever.stores.index import Index

        path = index.path
        index.close()
        index = Index.open(path, embedder=bench.embedder)
    build = info.to_dict()
    build["vectors"] = "embedded" if real_embedding else "replayed (store only)"
    return index, build


def hash_ids(nodes: Sequence[Node]) -> int:
    import hashlib

    h = hashlib.sha256()
    for n in nodes:
        h.update(n.id.encode("utf-8", "surrogatepass"))
    return int.from_bytes(h.digest()[:8], "big")


def time_routes(retriever: Any, queries: Sequence[str], routes: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
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


def time_dense(index: Any, queries: Sequence[str]) -> dict[str, Any]:
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


def time_ppr(index: Any, runs: int) -> dict[str, Any]:
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


def run_speed(bench: Any) -> dict[str, Any]:
    import psutil

    from skill_retriever.bench.runner import write_json
    from skill_retriever.config import RetrievalConfig
    from skill_retriever.retriever import Retriever

    started = time.perf_counter()
    quick = bench.opts.quick
    bench.log("\n== speed and scale")
    base = base_graph(bench)
    nodes, _, _, _, queries, source = base
    bench.log(f"  base graph: {len(nodes)} nodes ({source}); {len(queries)} queries")
    sizes = (1_000, 10_000) if quick else (1_000, 10_000, 100_000)
    n_queries = {1_000: 50, 10_000: 30} if quick else {1_000: 100, 10_000: 100, 100_000: 100}
    notes = [f"latency over {n_queries[1_000]}+ queries per route after {WARMUP} warm-up queries; no embedding memo",
             ("routes forced, no rerank; 'auto' = the router's choice, no rerank; 'auto+rerank' with rerank; "
              "dense = query embedding + exact cosine over all node vectors"),
             (f"machine load average at start {bench.machine.get('load_avg_at_start')} "
              "(other jobs shared the 2 cores: absolute numbers are upper bounds)")]
    if quick:
        notes[0] = (f"latency over {n_queries[1_000]} (1k) and {n_queries[10_000]} (10k) queries per route "
                    f"after {WARMUP} warm-up queries; no embedding memo")
        notes.append("quick: 1k and 10k only, fewer queries than the full profile's 100 per route")
    proc = psutil.Process()
    result: dict[str, Any] = {"section": "speed", "family": "speed", "name": "speed", "key": "speed",
                              "source": source, "notes": notes, "phase_order": list(PHASES), "sizes": []}
    for target in sizes:
        t0 = time.perf_counter()
        index, build = build_size(bench, base, target, real_embedding=target <= 1_000 and not quick)
        retriever = Retriever(index, RetrievalConfig(now=bench_now()), reranker=bench.reranker(bench.embedder),
                              cache_size=0)  # repeated queries must not hit the answer cache
        qs = (queries * math.ceil((n_queries[target] + WARMUP) / len(queries)))[: n_queries[target] + WARMUP]
        bench.log(f"  {len(index):,} nodes: timing {len(qs) - WARMUP} queries x routes")
        routes: list[tuple[str, dict[str, Any]]] = [("quick", {"route": "quick", "rerank": False}),
                                                    ("ppr", {"route": "ppr", "rerank": False}),
                                                    ("smart", {"route": "smart", "rerank": False})]
        if not quick:
            routes += [("auto", {"rerank": False}), ("auto+rerank", {"rerank": True})]
        timed = time_routes(retriever, qs, routes)
        dense = time_dense(index, qs)
        ppr = time_ppr(index, runs=3 if target <= 10_000 else 2)
        size = {
            "target": target, "nodes": len(index), "edges": len(index.snapshot().edges),
            "build": build, "routes": timed, "dense": dense, "ppr": ppr,
            "rss_mb": proc.memory_info().rss / 2**20,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        result["sizes"].append(size)
        bad = {r: v["degraded"] for r, v in timed.items() if v["degraded"]}
        if bad:
            bench.log(f"    WARNING: a phase failed and degraded in some searches {bad}; these timings are not valid")
        bench.log(f"    dense p50 {dense['e2e']['p50']:.1f} ms; " + "; ".join(
            f"{r} p50 {v['e2e']['p50']:.1f} / p95 {v['e2e']['p95']:.1f} ms" for r, v in timed.items())
            + f"; PPR ours {ppr['ours_ms']:.2f} ms vs networkx {ppr['networkx_ms']:.0f} ms ({ppr['ratio']}x)")
        result["seconds"] = round(time.perf_counter() - started, 1)
        result.update(bench.stamp())
        write_json(bench.results / "speed.json", result)  # written after every size
        index.close()
        del index, retriever
        gc.collect()
    return result


def bench_now() -> Any:
    from skill_retriever.bench.runner import FIXED_NOW

    return FIXED_NOW
