"""What a snapshot holds, counted by kind (only what the caller may see)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.model import Edge, Node
from skill_retriever.stores.run_marks import answer_warning


def status_counts(
    *,
    path: Path,
    version: int,
    embedder: str,
    nodes: Mapping[str, Node],
    edges: Mapping[str, Edge],
    node_vectors: Collection[str],
    edge_vectors: Collection[str],
    unusable: tuple[frozenset[str], frozenset[str]],
    unfinished_runs: dict[str, dict[str, Any]],
    pred: Callable[[str], bool] | None,
) -> dict[str, Any]:
    """Counts by kind of the nodes, edges and vectors that ``pred`` admits (all when None);
    an edge counts when both its ends are admitted.

    The ``unfinished_runs`` marks name each run's source, folder and process: a caller
    ``pred`` limits may not see every source, so it gets ``index_runs``, the line every
    answer carries (`run_marks.answer_warning`), which names none."""
    kinds: dict[str, int] = {}
    for n in nodes.values():
        if pred is None or pred(n.id):
            kinds[n.kind.value] = kinds.get(n.kind.value, 0) + 1
    edge_kinds: dict[str, int] = {}
    for e in edges.values():
        if pred is None or (pred(e.source) and pred(e.target)):
            edge_kinds[e.kind.value] = edge_kinds.get(e.kind.value, 0) + 1
    def seen_edge(i: str) -> bool:
        return (e := edges.get(i)) is not None and (pred is None or (pred(e.source) and pred(e.target)))

    edge_vector_count = sum(map(seen_edge, edge_vectors))
    bad_nodes, bad_edges = unusable  # counted only when there are any
    unusable_counts = {"nodes": sum(1 for i in bad_nodes if pred is None or pred(i)), "edges": sum(map(seen_edge, bad_edges))}
    return {
        "path": str(path),
        "version": version,
        "embedder": embedder,
        "nodes": sum(kinds.values()),
        "edges": sum(edge_kinds.values()),
        "node_kinds": dict(sorted(kinds.items())),
        "edge_kinds": dict(sorted(edge_kinds.items())),
        "vectors": {"nodes": sum(1 for i in node_vectors if pred is None or pred(i)), "edges": edge_vector_count},
        **({"unusable_vectors": unusable_counts} if any(unusable_counts.values()) else {}),
        **(({"unfinished_runs": unfinished_runs} if pred is None else {"index_runs": answer_warning(unfinished_runs)})
           if unfinished_runs else {}),
    }
