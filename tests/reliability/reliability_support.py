"""Helpers of the reliability tests (a module, not the conftest, so tests can import it).

See conftest.py for the Hypothesis profiles that ``HYPOTHESIS_PROFILE`` selects.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
FULL = PROFILE == "full"

#: Generated inputs per test, counted by :func:`count` and reported at the end.
GENERATED: Counter[str] = Counter()


def examples(ci: int, full: int) -> int:
    """This test's number of generated inputs in the active profile."""
    return full if FULL else ci


def count(test: str, n: int = 1) -> None:
    GENERATED[test] += n


# -- a small index with access labels, names, edges and timestamps ----------------------
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
VOCAB = ["deploy", "postgres", "migration", "schema", "rollback", "canary", "metrics", "tracing", "logging", "alert", "incident", "checkout", "payments", "kafka", "redis", "cache", "latency", "budget", "review", "lint", "format", "test", "fixture"]
LABELS = ("red", "blue", "green")


def make_nodes(n: int = 36, seed: int = 7) -> list[Node]:
    """Deterministic items: a third public, the rest behind one or two labels."""
    rng = random.Random(seed)
    nodes = []
    for i in range(n):
        words = rng.sample(VOCAB, 6)
        access: tuple[str, ...] = () if i % 3 == 0 else tuple(sorted(rng.sample(LABELS, 1 + i % 2)))
        nodes.append(
            Node(
                id=f"item-{i:03d}",
                kind=[NodeKind.SKILL, NodeKind.AGENT, NodeKind.DOCUMENT, NodeKind.INCIDENT][i % 4],
                name=f"{words[0]} {words[1]} kit{i}",
                description=f"How to {words[0]} the {words[1]}.",
                text=" ".join(words) + f" step {i}. " + " ".join(rng.sample(VOCAB, 8)),
                tags=(words[2],),
                access=access,
                updated=NOW - timedelta(hours=3 * i),
            )
        )
    return nodes


def make_edges(nodes: list[Node], seed: int = 7) -> list[Edge]:
    rng = random.Random(seed)
    kinds = [EdgeKind.DEPENDS_ON, EdgeKind.RELATED_TO, EdgeKind.MENTIONS, EdgeKind.USES]
    edges: dict[str, Edge] = {}
    for i, n in enumerate(nodes):
        for j in rng.sample(range(len(nodes)), 2):
            if j != i:
                e = Edge(n.id, nodes[j].id, kinds[(i + j) % len(kinds)])
                edges[e.id] = e
    return list(edges.values())


def build_index(path: Path, n: int = 36) -> Index:
    index = Index.open(path, embedder=HashingEmbedder(32), create=True)
    nodes = make_nodes(n)
    index.upsert(nodes, make_edges(nodes))
    return index


