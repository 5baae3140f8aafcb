"""Cheap measures of what an index's items and edges look like, which
:mod:`.defaults` reads to decide the settings an index suggests: how many items run past
what the model reads, how many edges say one item needs another, how alike an edge's two
ends are.

Each reads a bounded sample, so the decision stays cheap on a million-edge graph: it runs
on the first query after each write. The thresholds that turn a measure into a decision
live in :mod:`.defaults`, beside the evidence for them.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from skill_retriever.model import SCAFFOLD_KINDS, Edge, EdgeKind, Node

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import IndexSnapshot

#: At most this many adjacency entries (each edge is two; evenly spaced) for the median
#: cosine, and this many edges (at random) for `workflow_share`, are read; every benchmark
#: catalogue (at most 7,194 edges, traject-bench) is read whole.
EDGE_SAMPLE = 16_384
#: At most this many items are read for `long_item_share`, evenly spaced.
ITEM_SAMPLE = 2_000
_WORD_RE = re.compile(r"\S+")


def long_item_share(snapshot: IndexSnapshot, words: int, sample: int = ITEM_SAMPLE,
                    seen: Callable[[Node], bool] | None = None) -> float:
    """The share of the askable items (those ``seen`` admits, every one when None) whose
    embedded text (`Node.embedding_text`) runs past ``words`` words, over at most
    ``sample`` of them, evenly spaced in the snapshot's order (no sort: it runs on the
    first query after each write); 0 when there are none."""
    askable = [i for i, n in snapshot.nodes.items() if n.kind not in SCAFFOLD_KINDS and (seen is None or seen(n))]
    if not askable:
        return 0.0
    picked = [askable[j] for j in np.unique(np.linspace(0, len(askable) - 1, min(sample, len(askable))).astype(np.int64))]
    return sum(_runs_past(snapshot.nodes[i].embedding_text(), words) for i in picked) / len(picked)


def _runs_past(text: str, words: int) -> bool:
    """Whether ``text`` holds more than ``words`` words (it stops counting there)."""
    return any(True for _ in itertools.islice(_WORD_RE.finditer(text), words, None))


def workflow_share(edges: Collection[Edge], kinds: Collection[EdgeKind], sample: int = EDGE_SAMPLE) -> float | None:
    """The share of ``edges`` whose kind is one of ``kinds``, over a seeded random
    sample of at most ``sample`` of them (random rather than evenly spaced: an ingester
    writes its edges in patterns that a fixed stride can alias); None when there are none."""
    if not edges:
        return None
    picked: Collection[Edge] = edges if len(edges) <= sample else random.Random(len(edges)).sample(list(edges), sample)
    return sum(e.kind in kinds for e in picked) / len(picked)


def median_edge_cosine(snapshot: IndexSnapshot, sample: int = EDGE_SAMPLE,
                       seen: Callable[[Node], bool] | None = None) -> float | None:
    """The median cosine between the two ends of an edge (stored vectors are unit
    vectors; a node without one is left out), over at most ``sample`` of the symmetric
    adjacency's entries, evenly spaced; None when no sampled edge joins two nodes with
    vectors (`sampled_median_cosine`). With ``seen``, only the edges both of whose ends it
    admits count.

    The entries are those of ``snapshot.graph.adjacency`` (`stores.graph.build_matrices`),
    in its order, worked out with NumPy alone from the edges' ends, so ``stats`` reports
    this figure without importing SciPy or building the matrices
    (tests/test_cold_start.py). It costs one pass over the edges, as building the
    matrices does (a query builds them later); only the sampled entries' vectors are read.
    """
    ids = [i for i, n in snapshot.nodes.items() if seen is None or seen(n)]
    row = {node_id: i for i, node_id in enumerate(ids)}  # an edge to a node left out has no row
    ends = [(a, b) for e in snapshot.edges.values()
            if (a := row.get(e.source)) is not None and (b := row.get(e.target)) is not None]

    def vectors(rows: NDArray[np.int64]) -> NDArray[np.float32]:
        out = np.zeros((len(rows), snapshot.dim), dtype=np.float32)  # zeros: no vector
        for i, r in enumerate(rows.tolist()):
            if (v := snapshot.node_vector(ids[r])) is not None:
                out[i] = v
        return out

    pairs = np.asarray(ends, dtype=np.int64).reshape(-1, 2)
    return sampled_median_cosine(pairs[:, 0], pairs[:, 1], len(ids), vectors, sample)


def sampled_median_cosine(
    sources: NDArray[np.int64], targets: NDArray[np.int64], n: int,
    vectors: Callable[[NDArray[np.int64]], NDArray[np.float32]], sample: int = EDGE_SAMPLE,
) -> float | None:
    """The median cosine over at most ``sample`` entries, evenly spaced, of the symmetric
    ``n`` x ``n`` adjacency of the edges ``sources[i]`` -- ``targets[i]`` (node rows;
    `adjacency_entries`), leaving out a node's edge to itself and an end without a vector
    (``vectors(rows)`` gives a row of zeros for it); None when nothing is left.

    The symmetric adjacency holds each edge twice, once each way, so every edge weighs
    the same and the median is the edges' own. ``vectors`` is asked once, for the nodes
    the sampled entries join.
    """
    rows, cols = adjacency_entries(sources, targets, n)
    if not len(rows):
        return None
    picked = np.unique(np.linspace(0, len(rows) - 1, min(sample, len(rows))).astype(np.int64))
    rows, cols = rows[picked], cols[picked]
    read, where = np.unique(np.concatenate([rows, cols]), return_inverse=True)  # each node's vector once
    found = vectors(read)
    ends, others = found[where[: len(rows)]], found[where[len(rows):]]
    usable = (rows != cols) & ends.any(axis=1) & others.any(axis=1)
    if not usable.any():
        return None
    return float(np.median(np.einsum("ij,ij->i", ends[usable], others[usable])))


def adjacency_entries(sources: NDArray[np.int64], targets: NDArray[np.int64], n: int) -> tuple[
        NDArray[np.int64], NDArray[np.int64]]:
    """The (row, column) of each entry of the symmetric ``n`` x ``n`` adjacency of these
    edges, in CSR order (by row, then column): each edge both ways, and a pair held twice
    (two kinds of edge, or both directions declared) once, as the summed CSR holds it."""
    keys = np.sort(np.concatenate([sources * n + targets, targets * n + sources]))
    # sorted, then each run kept once: np.unique (NumPy 2.4) was many times slower on 400k keys
    keys = keys[np.concatenate([keys[:1] == keys[:1], keys[1:] != keys[:-1]])]
    return keys // n, keys % n


__all__ = [
    "EDGE_SAMPLE", "ITEM_SAMPLE", "adjacency_entries", "long_item_share", "median_edge_cosine", "sampled_median_cosine",
    "workflow_share",
]
