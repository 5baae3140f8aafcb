"""Indexing subprocess for the kill -9 test (test_kill_recovery.py); not a test itself.

    python index_writer.py INDEX_DIR START END BATCH_SIZE

Opens the index (which reconciles it), prints ``OPENED <json>`` with what it holds, then
writes batches START..END-1 of a fixed plan: upsert batch b (nodes plus edges), and after
every batch b with b % 4 == 3 delete the first node of batch b-2. ``ADDED <ids>`` and
``DELETED <id>`` are printed and flushed only after the call returned, so the parent
knows which writes were acknowledged; ``DELETING <id>`` is printed before a delete, so
it knows which one may have been in flight. A resumed run starts again at the last
acknowledged batch; unchanged items are skipped by the index. ``FINISHED <json>`` at
the end.
"""

from __future__ import annotations

import json
import sys

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

WORDS = ["deploy", "postgres", "migration", "schema", "rollback", "canary", "metrics", "tracing", "logging", "alert"]


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
    snap = index.snapshot()
    st = snap.status()
    edges = list(snap.edges.values())
    embedded = sum(1 for e in edges if e.kind in index.embedded_edge_kinds)
    return {
        "nodes": st["nodes"],
        "edges": st["edges"],
        "vectors": st["vectors"],
        "embedded_edges": embedded,
        "ids": sorted(snap.nodes),
        "dangling": sum(1 for e in edges if e.source not in snap or e.target not in snap),
    }


def say(*parts: str) -> None:
    sys.stdout.write(" ".join(parts) + "\n")
    sys.stdout.flush()


def victim(b: int) -> str | None:
    """The node the plan deletes after batch ``b``."""
    return f"b{b - 2:03d}-00" if b % 4 == 3 else None


def main(path: str, start: int, end: int, size: int) -> None:
    index = Index.open(path, embedder=HashingEmbedder(32), create=True, writable=True)
    say("OPENED", json.dumps(status(index)))
    for b in range(start, end):
        nodes, edges = batch(b, size)
        index.upsert(nodes, edges)
        say("ADDED", *(n.id for n in nodes))
        gone = victim(b)
        if gone is not None:
            say("DELETING", gone)
            if gone in index:
                index.delete([gone])
            say("DELETED", gone)
    say("FINISHED", json.dumps(status(index)))
    index.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
