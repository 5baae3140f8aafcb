"""Growing graphs for the speed benchmark: prefixes and replicas keep the structure."""

from __future__ import annotations

from collections import Counter

import numpy as np

from skill_retriever.bench.growth import prefix_graph, replicate
from skill_retriever.bench.timing import percentile
from skill_retriever.model import Edge, EdgeKind, Node


def _graph() -> tuple[list[Node], list[Edge], dict[str, np.ndarray]]:
    nodes = [Node(id=f"passage:{i}", kind="passage", name=f"P{i}", text=f"passage number {i} about things")
             for i in range(6)]
    nodes += [Node(id=f"entity:e{j}", kind="entity", name=f"E{j}", text=f"E{j}") for j in range(4)]
    edges = [Edge(f"passage:{i}", f"entity:e{(i + d) % 4}", EdgeKind.MENTIONS) for i in range(6) for d in (0, 1)]
    rng = np.random.default_rng(0)
    vecs = {}
    for n in nodes:
        v = rng.standard_normal(16).astype(np.float32)
        vecs[n.id] = v / np.linalg.norm(v)
    return nodes, edges, vecs


def _degrees(nodes: list[Node], edges: list[Edge]) -> Counter[int]:
    deg = Counter({n.id: 0 for n in nodes})
    for e in edges:
        deg[e.source] += 1
        deg[e.target] += 1
    return Counter(deg.values())


def test_replicas_keep_the_degree_distribution_and_perturb_vectors() -> None:
    nodes, edges, vecs = _graph()
    big_nodes, big_edges, known = replicate(nodes, edges, vecs, copies=2)
    assert len(big_nodes) == 3 * len(nodes) and len(big_edges) == 3 * len(edges)
    assert len({n.id for n in big_nodes}) == len(big_nodes)
    base = _degrees(nodes, edges)
    assert _degrees(big_nodes, big_edges) == Counter({d: 3 * c for d, c in base.items()})
    copy = next(n for n in big_nodes if n.id == "passage:0~r1")
    v0, v1 = vecs["passage:0"], known[copy.embedding_text()]
    assert abs(float(np.linalg.norm(v1)) - 1.0) < 1e-5 and 0.8 < float(v0 @ v1) < 0.9999
    assert replicate(nodes, edges, vecs, copies=2)[2].keys() == known.keys()  # seeded


def test_prefix_takes_passages_with_their_entities() -> None:
    nodes, edges, _ = _graph()
    sub_nodes, sub_edges = prefix_graph(nodes, edges, 4)
    ids = [n.id for n in sub_nodes]
    assert ids[:3] == ["passage:0", "entity:e0", "entity:e1"] and len(ids) == 4
    assert all(e.source in ids and e.target in ids for e in sub_edges)


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0 and percentile(values, 0.95) == 95.0
    assert percentile([], 0.5) == 0.0
