"""The in-memory state of one open index, and how it becomes an immutable snapshot.

A process holds one `LiveState` per open index. Every change reaches it as a `Changes`
batch, whether this process wrote it (the writer) or read it back from ``items.sqlite``
(a reader catching up with another process), so both apply changes the same way.
:meth:`LiveState.freeze` copies the mutable maps into an `IndexSnapshot`; the caller does
it under the index's state lock, and only when a reader asks after a change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from skill_retriever.algorithms.tokenize import bm25_terms
from skill_retriever.model import Edge, Node
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import Changes, StoredVector
from skill_retriever.stores.keywords import BM25Index
from skill_retriever.stores.search_notes import InMemoryNotes
from skill_retriever.stores.snapshot import IndexSnapshot, RemoteVectors, keyword_indexed
from skill_retriever.stores.snapshot_memo import Memo
from skill_retriever.stores.term_ids import as_terms


@dataclass
class LiveState:
    """Nodes, edges, vectors and keyword documents as of ``version``."""

    version: int = 0
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)
    node_vectors: dict[str, StoredVector] = field(default_factory=dict)
    edge_vectors: dict[str, StoredVector] = field(default_factory=dict)
    keywords: BM25Index = field(default_factory=BM25Index)
    calibration: str | None = None  # JSON, as stored (see skill_retriever.calibration)
    unfinished_runs: str = "{}"  # JSON, as stored (see stores.run_marks)
    seen_versions: str | None = None  # JSON, as stored (see stores.seen_versions)
    # Why this process searches the index's vectors in memory although index.json names a
    # Chroma server (a copy of an index, collections missing or out of step when it opened);
    # "" while it searches the server. Set where that is decided (``stores.remote``), and
    # carried into each snapshot, so each answer says so (``stores.search_notes``).
    in_memory_note: str = ""
    # Items whose stored vector is unusable (wrong length, non-finite): no vector here
    # until the writer embeds them again (``stores.repair``).
    unusable_nodes: set[str] = field(default_factory=set)
    unusable_edges: set[str] = field(default_factory=set)
    # Rows whose item cannot be read back (id -> what is wrong): left out, as deleted (an
    # older version of the item must not stay: its access labels may have changed).
    damaged_nodes: dict[str, str] = field(default_factory=dict)
    damaged_edges: dict[str, str] = field(default_factory=dict)
    # The version each node was last written at: how many items were written since the
    # calibration was drawn (``phases.apply_token_budget``) is counted from it.
    node_seqs: dict[str, int] = field(default_factory=dict)

    def changed_by(self, ch: Changes) -> bool:
        """Whether applying ``ch`` (a reader's catch-up) would change anything: a commit of
        another process may leave the index as it was (a run mark put on and taken off by
        an `index` run of unchanged sources), and a reader that took a new snapshot for it
        would rebuild every view and per-item cache for nothing."""
        rows = (ch.nodes, ch.edges, ch.node_vectors, ch.edge_vectors, ch.deleted_nodes, ch.deleted_edges,
                ch.unusable_nodes, ch.unusable_edges, ch.damaged_nodes, ch.damaged_edges)
        return (any(rows) or ch.version > self.version
                or (ch.calibration is not None and ch.calibration != self.calibration)
                or (ch.unfinished_runs is not None and ch.unfinished_runs != self.unfinished_runs))

    def apply(self, ch: Changes) -> None:
        """Apply one batch (deletions first: an id deleted and re-added in it stays)."""
        ch.deleted_nodes.update(ch.damaged_nodes)
        ch.deleted_edges.update(ch.damaged_edges)
        for ids, damaged, read, gone in ((ch.damaged_nodes, self.damaged_nodes, ch.nodes, ch.deleted_nodes),
                                         (ch.damaged_edges, self.damaged_edges, ch.edges, ch.deleted_edges)):
            for i in [*read, *gone]:
                damaged.pop(i, None)
            damaged.update(ids)
        for node_id in ch.deleted_nodes:
            self.nodes.pop(node_id, None)
            self.node_seqs.pop(node_id, None)
            self.node_vectors.pop(node_id, None)
            self.unusable_nodes.discard(node_id)
        self.keywords.delete(ch.deleted_nodes)
        for edge_id in ch.deleted_edges:
            self.edges.pop(edge_id, None)
            self.edge_vectors.pop(edge_id, None)
            self.unusable_edges.discard(edge_id)
        retext = [n for n in ch.nodes.values() if (old := self.nodes.get(n.id)) is None or old.content_hash() != n.content_hash()]
        self.nodes.update(ch.nodes)
        self.node_seqs.update((i, ch.node_seqs.get(i, ch.version)) for i in ch.nodes)
        self.node_vectors.update(ch.node_vectors)
        self.unusable_nodes.difference_update(ch.node_vectors)
        for node_id in ch.unusable_nodes:
            self.node_vectors.pop(node_id, None)
            self.unusable_nodes.add(node_id)
        # Term counts read back or counted by the writer are this tokenizer's only by default.
        own = self.keywords.tokenizer is bm25_terms
        stored = ch.terms if own else {}
        by_id = ch.term_ids if own else {}
        indexed = [n for n in retext if keyword_indexed(n)]
        if by_id and all(n.id in by_id for n in indexed):  # an open of an index that stores them all
            self.keywords.upsert_ids([(n.id, by_id[n.id]) for n in indexed], ch.vocab)
        else:
            self.keywords.upsert_terms(
                (n.id, t if (t := stored.get(n.id)) is not None
                 else as_terms(by_id[n.id], ch.vocab) if n.id in by_id else self.keywords.analyse(n.embedding_text()))
                for n in indexed
            )
        self.keywords.delete(n.id for n in retext if not keyword_indexed(n))
        for edge_id, edge in ch.edges.items():
            self.edges[edge_id] = edge
            vector = ch.edge_vectors.get(edge_id)
            if vector is not None:
                self.edge_vectors[edge_id] = vector
            if edge_id in ch.unusable_edges:  # a written edge row replaces its old vector
                self.edge_vectors.pop(edge_id, None)
                self.unusable_edges.add(edge_id)
            else:
                self.unusable_edges.discard(edge_id)
        self.version = max(self.version, ch.version)
        if ch.calibration is not None:
            self.calibration = ch.calibration
        if ch.unfinished_runs is not None:
            self.unfinished_runs = ch.unfinished_runs
        if ch.seen_versions is not None:
            self.seen_versions = ch.seen_versions

    def freeze(
        self, path: Path, embedder: Embedder, dim: int, remote: RemoteVectors | None, note: str = "",
        text_verdicts: Memo | None = None,
    ) -> IndexSnapshot:
        """An immutable snapshot of this state (shallow copies: nodes, edges and vectors
        are themselves immutable); ``note`` says why its vectors are searched in memory
        when the state's own note does not (``stores.mirror_failure``)."""
        return IndexSnapshot(
            version=self.version,
            path=path,
            embedder=embedder,
            dim=dim,
            nodes=dict(self.nodes),
            node_seqs=dict(self.node_seqs),
            edges=dict(self.edges),
            node_vectors=dict(self.node_vectors),
            edge_vectors=dict(self.edge_vectors),
            keywords=self.keywords.frozen(),
            remote=remote,
            calibration=self.calibration,
            unfinished_runs=self.unfinished_runs,
            seen_versions=self.seen_versions,
            search_notes=InMemoryNotes(self.in_memory_note or note, remote, path),
            unusable=(frozenset(self.unusable_nodes), frozenset(self.unusable_edges)),
            text_verdicts=text_verdicts,
        )


__all__ = ["LiveState"]
