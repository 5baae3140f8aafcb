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
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from skill_retriever.model import SCAFFOLD_KINDS, Edge, EdgeKind

if TYPE_CHECKING:  # only annotations: `stats` reads the defaults without importing SciPy
    from scipy import sparse as sp

    from skill_retriever.stores.snapshot import IndexSnapshot

#: At most this many adjacency entries (each edge is two; evenly spaced) for the median
#: cosine, and this many edges (at random) for `workflow_share`, are read; every benchmark
#: catalogue (at most 7,194 edges, traject-bench) is read whole.
EDGE_SAMPLE = 16_384
#: At most this many items are read for `long_item_share`, evenly spaced.
ITEM_SAMPLE = 2_000
_WORD_RE = re.compile(r"\S+")


def long_item_share(snapshot: IndexSnapshot, words: int, sample: int = ITEM_SAMPLE) -> float:
    """The share of the askable items whose embedded text (`Node.embedding_text`) runs
    past ``words`` words, over at most ``sample`` of them, evenly spaced in the
    snapshot's order (no sort: it runs on the first query after each write); 0 when there
    are none."""
    askable = [i for i, n in snapshot.nodes.items() if n.kind not in SCAFFOLD_KINDS]
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


def median_edge_cosine(
    adjacency: sp.csr_array, embeddings: NDArray[np.float32], sample: int = EDGE_SAMPLE
) -> float | None:
    """The median cosine between the two ends of an edge (rows of ``embeddings`` are unit
    vectors; a row of zeros, a node without a vector, is left out), over at most
    ``sample`` of the adjacency's entries, evenly spaced; None when no sampled edge joins
    two nodes with vectors.

    The symmetric adjacency holds each edge twice, once each way, so every edge weighs
    the same and the median is the edges' own. Only the sampled entries are read: the
    first query after each write pays this, on a million-edge graph too.
    """
    if not adjacency.nnz:
        return None
    picked = np.unique(np.linspace(0, adjacency.nnz - 1, min(sample, adjacency.nnz)).astype(np.int64))
    rows = np.searchsorted(adjacency.indptr, picked, side="right") - 1  # the row each entry sits in
    cols = adjacency.indices[picked]
    ends, others = embeddings[rows], embeddings[cols]
    usable = (rows != cols) & ends.any(axis=1) & others.any(axis=1)
    if not usable.any():
        return None
    return float(np.median(np.einsum("ij,ij->i", ends[usable], others[usable])))


__all__ = ["EDGE_SAMPLE", "ITEM_SAMPLE", "long_item_share", "median_edge_cosine", "workflow_share"]
