"""Graphs of about 1k, 10k and 100k nodes grown from a real corpus, for the ``speed`` section.

The base graph is the passages and spaCy entities of
``multihop/hotpotqa_hipporag_train100`` (994 passages, ~6.8k entities, MENTIONS edges;
the quick profile uses its small 2wikimultihopqa subset). A smaller size is a prefix of
it (passages in corpus order with their entities); a larger one adds replicas of it:
every node and edge copied with a ``~r<i>`` id suffix, about 10 % of each text's words
dropped (seeded), and the vector a perturbed copy of the original (Gaussian noise, cosine
about 0.95, renormalised). Replicas keep the degree distribution exactly; their vectors
are replayed, not embedded, so the 100k index is built in minutes rather than hours --
its throughput is reported as store-only (the 1k index of the full profile is embedded
for real). Without the data folder the base graph is a generated incident world.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skill_retriever.bench import datasets as D
from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.embedding import ReplayEmbedder
from skill_retriever.bench.world import generate_world
from skill_retriever.bench.world_queries import generate_queries
from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import Edge, Node
from skill_retriever.stores.index import Index

Vector = NDArray[np.float32]
NOISE = 0.017  # per-dimension sigma: cosine to the original about 1/sqrt(1 + 384 sigma^2) = 0.95


@dataclass(frozen=True)
class BaseGraph:
    """The graph every size is grown from, with its vectors and the queries to time.

    Attributes:
        vectors: Node id -> vector (nodes that have one).
        edge_vectors: Edge sentence -> vector (embedded edges; replicas reuse them).
        source: What the graph is, for the report.
    """

    nodes: list[Node]
    edges: list[Edge]
    vectors: dict[str, Vector]
    edge_vectors: dict[str, Vector]
    queries: list[str]
    source: str


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
    nodes: Sequence[Node], edges: Sequence[Edge], vectors: dict[str, Vector], copies: int, seed: int = 5
) -> tuple[list[Node], list[Edge], dict[str, Vector]]:
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


def _edge_vectors(index: Index) -> dict[str, Vector]:
    """Edge sentence -> vector for the base index's embedded edges (replicas reuse them)."""
    snap = index.snapshot()
    names = {i: n.name for i, n in snap.nodes.items()}
    ids, matrix = snap._edge_matrix  # private: the benchmark reads the vectors as stored
    edges = snap.edges
    return {edges[i].embedding_text(names[edges[i].source], names[edges[i].target]): matrix[r] for r, i in enumerate(ids)}


def base_graph(run: BenchRun) -> BaseGraph:
    """The graph to grow, read from a cached index of the real model.

    Full profile: ``multihop/hotpotqa_hipporag_train100`` (the multihop section's cached
    index). Quick profile: the multihop quick subset of 2wikimultihopqa (also shared).
    No data: a generated incident world.
    """
    data = run.opts.data
    quick = run.opts.quick
    wanted = "2wikimultihopqa" if quick else "hotpotqa_hipporag_train100"
    sets = D.multihop_sets(data, quick=quick)[0] if data else []
    ds = next((s for s in sets if s.name == wanted), None)
    if ds is not None:
        index, _ = D.cached_index(run.opts.cache, ds.key, ds.fingerprint, ds.ingest, run.embedder, run.log)
        queries = [q.text for q in ds.queries]
        source = (f"real corpus: multihop/{ds.name}{' quick subset' if quick else ''} (passages + spaCy entities, "
                  "MENTIONS edges), replicated for larger sizes")
    else:
        size = (60, 250, 200) if quick else (150, 500, 450)
        world = generate_world(seed=13, services=size[0], deploys=size[1], incidents=size[2])
        key = f"speed__incident-world-13-{size[0]}-{size[1]}-{size[2]}"
        index, _ = D.cached_index(run.opts.cache, key, {"generator": 1, "size": list(size)},
                                  lambda work: world.ingest(), run.embedder, run.log)
        queries = [q.text for q in generate_queries(world, per_shape=30)]
        source = "generated incident world (no data folder), replicated for larger sizes"
    snap = index.snapshot()
    gm, emb = snap.graph, snap.embeddings
    vectors = {i: emb[r].copy() for r, i in enumerate(gm.ids) if float(np.abs(emb[r]).sum()) > 0}
    nodes = sorted(snap.nodes.values(), key=lambda n: _order_key(n.id))
    edges = list(snap.edges.values())
    edge_vecs = _edge_vectors(index)
    index.close()
    return BaseGraph(nodes, edges, vectors, edge_vecs, queries, source)


def _order_key(node_id: str) -> tuple[int, Any]:
    """Passages in corpus order (numeric idx), everything else after, by id."""
    head, _, tail = node_id.partition(":")
    if head == "passage" and tail.isdigit():
        return (0, int(tail))
    return (1, node_id)


def build_size(run: BenchRun, base: BaseGraph, target: int, real_embedding: bool) -> tuple[Index, dict[str, Any]]:
    """An index of about ``target`` nodes under the cache folder (reused when present),
    opened with the real model, and how it was built."""
    nodes, edges, vectors, source = base.nodes, base.edges, base.vectors, base.source
    copies = max(0, math.ceil(target / len(nodes)) - 1)
    if copies:
        all_nodes, all_edges, known = replicate(nodes, edges, vectors, copies)
    else:
        all_nodes, all_edges = list(nodes), list(edges)
        known = {n.embedding_text(): vectors[n.id] for n in nodes if n.id in vectors}
    sub_nodes, sub_edges = prefix_graph(all_nodes, all_edges, target)
    known.update(base.edge_vectors)
    embedder = run.embedder if real_embedding else ReplayEmbedder(run.embedder, known)
    key = f"speed__{'real' if real_embedding else 'replay'}-{len(sub_nodes)}-{abs(hash_ids(sub_nodes)) % 10**8}"
    fingerprint = {"source": source, "nodes": len(sub_nodes), "edges": len(sub_edges), "real": real_embedding,
                   "noise": NOISE, "version": 1}
    index, info = D.cached_index(run.opts.cache, key, fingerprint,
                                 lambda work: IngestResult(source=source, nodes=sub_nodes, edges=sub_edges),
                                 embedder, run.log)
    if not real_embedding:  # queries always go through the real model
        path = index.path
        index.close()
        index = Index.open(path, embedder=run.embedder)
    build = info.to_dict()
    build["vectors"] = "embedded" if real_embedding else "replayed (store only)"
    return index, build


def hash_ids(nodes: Sequence[Node]) -> int:
    """A stable 64-bit hash of the node ids in order (names a cached size)."""
    h = hashlib.sha256()
    for n in nodes:
        h.update(n.id.encode("utf-8", "surrogatepass"))
    return int.from_bytes(h.digest()[:8], "big")
