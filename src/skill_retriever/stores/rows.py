"""The rows ``items.sqlite`` holds and returns: items with their vectors, and what one read
or write changes. A stored vector that is not ``dim`` finite float32s (damaged, or from
another model) is *unusable*: read as no vector, its item kept (``stores.items``). A row
whose item itself cannot be read back (`parse_row`) is *damaged*: left out of the read,
the rest of the index served, a writer rewriting it when its source is indexed again (the
row is never deleted: what one version cannot read, a newer one may)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from skill_retriever.model import Edge, Node
from skill_retriever.stores.keywords import Terms

Vector = NDArray[np.float32]
T = TypeVar("T")

__all__ = [
    "Changes",
    "EdgeRow",
    "NodeRow",
    "StoredVector",
    "Vector",
    "decode_vector",
    "encode_vector",
    "keep_most_common_length",
    "parse_row",
    "take_vector",
]


@dataclass(frozen=True, slots=True)
class StoredVector:
    """A vector and the hash of the text it was embedded from."""

    vhash: str
    vector: Vector


@dataclass
class Changes:
    """What a read returned: everything (a full load) or what changed after a version."""

    version: int
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)
    node_vectors: dict[str, StoredVector] = field(default_factory=dict)
    edge_vectors: dict[str, StoredVector] = field(default_factory=dict)
    deleted_nodes: set[str] = field(default_factory=set)
    deleted_edges: set[str] = field(default_factory=set)
    calibration: str | None = None  # the stored calibration (JSON), as read with the rows
    # The index runs under way (JSON, ``stores.run_marks``) as read with the rows; None
    # when this batch did not read them (a writer's own batch).
    unfinished_runs: str | None = None
    # The version each access key last changed at (JSON, ``stores.seen_versions``); None
    # when the index keeps none.
    seen_versions: str | None = None
    # Rows read whose vector is not ``dim`` finite float32s: the item is kept, its vector is not.
    unusable_nodes: set[str] = field(default_factory=set)
    unusable_edges: set[str] = field(default_factory=set)
    #: Lengths (in float32s) of the unusable vectors that decoded: a manifest with the
    #: wrong ``dim`` shows as every vector having one other length.
    unusable_lengths: dict[int, int] = field(default_factory=dict)
    #: BM25 term counts of nodes, stored or just counted (``stores.stored_terms``); a
    #: BM25-indexed node missing here is counted from its text when the batch is applied.
    terms: dict[str, Terms] = field(default_factory=dict)
    #: Nodes whose stored BM25 term ids a full load read in place of ``terms``
    #: (``stores.term_ids``), and the vocabulary those ids index.
    term_ids: dict[str, tuple[NDArray[np.uint32], NDArray[np.float64]]] = field(default_factory=dict)
    vocab: list[str] = field(default_factory=list)
    #: Rows whose item could not be read back: id -> what is wrong (`parse_row`).
    damaged_nodes: dict[str, str] = field(default_factory=dict)
    damaged_edges: dict[str, str] = field(default_factory=dict)
    #: The version each node read was last written at (its row's ``seq``); a node missing
    #: here (a writer's own batch) was written at ``version``.
    node_seqs: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class NodeRow:
    """One node to write, with its vector (None keeps the stored one) and its BM25 term
    counts (None: none stored; those stored are kept while the node's text is the same)."""

    node: Node
    vector: Vector | None
    terms: Terms | None = None


@dataclass(frozen=True, slots=True)
class EdgeRow:
    """One edge to write; ``vhash``/``vector`` None for an edge that has no vector."""

    edge: Edge
    vhash: str | None = None
    vector: Vector | None = None


def encode_vector(vector: Vector) -> bytes:
    """``vector`` as stored: float32 little-endian."""
    return np.ascontiguousarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: object, dim: int) -> Vector | None:
    """The vector in ``blob``, or None when it is not ``dim`` finite float32s (``dim`` 0:
    any length), or all zeros: no embedder makes one (its cosine with any query is 0,
    so its item would rank last in the semantic channel, silently)."""
    if not isinstance(blob, bytes) or not blob or len(blob) % 4 or (dim > 0 and len(blob) != 4 * dim):
        return None
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float32, copy=False)
    return vector if bool(np.isfinite(vector).all()) and bool(vector.any()) else None


def keep_most_common_length(out: Changes) -> None:
    """With no ``dim`` known, the most common vector length is the index's; a vector of
    another length is unusable."""
    lengths: dict[int, int] = {}
    for v in (*out.node_vectors.values(), *out.edge_vectors.values()):
        lengths[len(v.vector)] = lengths.get(len(v.vector), 0) + 1
    if len(lengths) < 2:
        return
    dim = max(lengths, key=lambda n: (lengths[n], n))
    for good, bad in ((out.node_vectors, out.unusable_nodes), (out.edge_vectors, out.unusable_edges)):
        for item_id in [i for i, v in good.items() if len(v.vector) != dim]:
            n = len(good.pop(item_id).vector)
            bad.add(item_id)
            out.unusable_lengths[n] = out.unusable_lengths.get(n, 0) + 1


def take_vector(
    out: Changes,
    good: dict[str, StoredVector],
    bad: set[str],
    item_id: str,
    vhash: object,
    blob: object,
    dim: int,
    required: bool = False,
) -> None:
    """Put the stored vector ``blob`` of ``item_id`` into ``good`` or, when it is not
    ``dim`` finite float32s, the id into ``bad`` (and its length into ``out``). No vector
    at all is bad only where one is ``required`` (every item has one; a relation only
    when its kind is embedded)."""
    if blob is None:
        if required:
            bad.add(item_id)
        return
    vector = decode_vector(blob, dim)
    if vector is not None:
        good[item_id] = StoredVector(str(vhash), vector)
        return
    bad.add(item_id)
    if isinstance(blob, bytes) and blob and len(blob) % 4 == 0:
        out.unusable_lengths[len(blob) // 4] = out.unusable_lengths.get(len(blob) // 4, 0) + 1


def parse_row(
    parse: Callable[[Any], T], what: str, rowid: int, item_id: object, data: str, damaged: dict[str, str]
) -> T | None:
    """The item of one row, or None when its JSON cannot be read back as one (the row is
    then named in ``damaged``, under its id column)."""
    try:
        return parse(json.loads(data))
    except (ValueError, TypeError, KeyError) as exc:  # JSON errors and InvalidItemError are ValueErrors
        damaged[str(item_id)] = f"{what} row {rowid}: {' '.join(str(exc).split())[:200]}"
        return None
