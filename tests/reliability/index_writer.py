"""Indexing subprocess for the kill -9 test (test_kill_recovery.py); not a test itself.

    python index_writer.py INDEX_DIR BATCHES BATCH_SIZE

Opens the index (which reconciles it), prints ``OPENED <json>`` with what it holds, then
writes a fixed plan of batches: upsert batch b (nodes plus edges), and after every
fourth batch delete the first node of batch b-2. Each line ``ADDED <ids>`` or
``DELETED <id>`` is printed and flushed only after the call returned, so the parent
knows which writes were acknowledged. A resumed run replays the same plan; unchanged
items are skipped by the index, so it completes quickly. ``FINISHED <json>`` at the end.
"""

from __future__ import annotations

import json
import sys

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

WORDS = "deploy postgres migration schema rollback canary metrics tracing logging alert".split()


def batch(b: int, size: int) -> tuple[list[Node], list[Edge]]:
    nodes = [
        Node(
            id=f"b{b:03d}-{j:02d}",
            kind=NodeKind.SKILL,
            name=f"item {b} {j}",
            text=" ".join(WORDS[(b * 7 + j * 3 + k) % len(WORDS)] for k in range(12)) + f" batch {b} item {j}",
            access=("team",) if j % 3 == 0 else (),
        )
        for j in range(size)
    ]
    edges = [Edge(nodes[j].id, nodes[j + 1].id, EdgeKind.DEPENDS_ON) for j in range(size - 1)]
    if b > 0:
        edges.append(Edge(nodes[0].id, f"b{b - 1:03d}-{size - 1:02d}", EdgeKind.MENTIONS))
    return nodes, edges


def status(index: Index) -> dict[str, object]:
    st = index.status()
    embedded = sum(1 for e in index.edges() if e.kind in index.embedded_edge_kinds)
    return {
        "nodes": st["nodes"],
        "edges": st["edges"],
        "vectors": st["vectors"],
        "embedded_edges": embedded,
        "ids": sorted(index.nodes),
        "dangling": sum(1 for e in index.edges() if e.source not in index or e.target not in index),
    }


def say(*parts: str) -> None:
    sys.stdout.write(" ".join(parts) + "\n")
    sys.stdout.flush()


def main(path: str, batches: int, size: int) -> None:
    index = Index.open(path, embedder=HashingEmbedder(32))
    say("OPENED", json.dumps(status(index)))
    for b in range(batches):
        nodes, edges = batch(b, size)
        present_prev = f"b{b - 1:03d}-{size - 1:02d}" in index if b else True
        if not present_prev:  # deleted earlier in the plan: keep edges valid
            edges = [e for e in edges if e.kind is not EdgeKind.MENTIONS]
        index.upsert(nodes, edges)
        say("ADDED", *(n.id for n in nodes))
        if b % 4 == 3:
            victim = f"b{b - 2:03d}-00"
            if victim in index:
                index.delete([victim])
            say("DELETED", victim)
    say("FINISHED", json.dumps(status(index)))
    index.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
