"""`IndexSnapshot`: one committed state of an index, never changed once published.

A query pins one snapshot at its entry and reads everything from it (nodes, names, typed
edges, matrices, vectors, keyword statistics), so it can never see two versions of the
index, and nothing it holds can change under it (Lucene's point-in-time readers are the
model). Writers publish a new snapshot; they never touch one in use.

Derived views (matrices, names, typed edges, keyword terms) and per-query shortcuts
(filter masks, masked matrices, coverage words, token counts) are built on first use and
cached on the snapshot: such a cache is never stale, a write makes a new one with none.
Injection flags and token counts are kept by item text as well (``stores.text_verdicts``),
so an item a write left unchanged is not read again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from skill_retriever.algorithms.query_terms import NameMatcher
from skill_retriever.exceptions import MissingNodeError
from skill_retriever.filters import ALL_PRINCIPALS, Filters
from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.stores import run_marks, snapshot_search
from skill_retriever.stores.embedder import Embedder, Vectors
from skill_retriever.stores.graph import EdgeIndex, GraphMatrices, build_matrices, masked_adjacency
from skill_retriever.stores.items import StoredVector
from skill_retriever.stores.keyword_access import keywords_seen_by
from skill_retriever.stores.keywords import KeywordHit, KeywordSnapshot
from skill_retriever.stores.name_views import NameViews, name_views
from skill_retriever.stores.row_masks import admitted_rows
from skill_retriever.stores.seen_versions import shown_version
from skill_retriever.stores.snapshot_memo import Memo
from skill_retriever.stores.snapshot_search import EdgeMatrix, RemoteVectors
from skill_retriever.stores.snapshot_status import status_counts
from skill_retriever.stores.stored_terms import keyword_indexed
from skill_retriever.stores.text_verdicts import item_flags, item_tokens
from skill_retriever.stores.vectors import VectorHit
from skill_retriever.stores.word_forms import WordForms

# SciPy loads on first use, where a matrix is built: commands that never build one
# (`install`, `uninstall`) start without it (tests/test_cold_start.py).
if TYPE_CHECKING:
    import scipy.sparse as sp

V = TypeVar("V")

#: Coverage reads this much of an item's text (name and description come first): a query
#: costs the same whether an item is 2 KB or 2 MB long.
COVERAGE_CHARS = 20_000


class IndexSnapshot:
    """One committed, immutable state of an index, with the searches and caches a query needs.

    Built by :class:`~skill_retriever.stores.index.Index` (``index.snapshot()``); the
    mappings it is given must not be changed afterwards.
    """

    def __init__(
        self,
        *,
        version: int,
        path: Path,
        embedder: Embedder,
        dim: int,
        nodes: dict[str, Node],
        edges: dict[str, Edge],
        node_vectors: Mapping[str, StoredVector],
        edge_vectors: Mapping[str, StoredVector],
        keywords: KeywordSnapshot,
        remote: RemoteVectors | None = None,
        calibration: str | None = None,
        unfinished_runs: str = "{}",
        seen_versions: str | None = None,
        unusable: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
        search_notes: Callable[[], list[str]] = list,
        node_seqs: Mapping[str, int] | None = None,
        text_verdicts: Memo | None = None,
    ) -> None:
        self.version = version
        self.path = path
        self.embedder = embedder
        self.dim = dim
        self.nodes: Mapping[str, Node] = MappingProxyType(nodes)
        self.edges: Mapping[str, Edge] = MappingProxyType(edges)
        self._node_vectors = node_vectors
        self._edge_vectors = edge_vectors
        self.keywords = keywords
        self._remote = remote
        self.calibration_json = calibration  # as stored (``skill_retriever.calibration``); None: never made
        self._unfinished_runs = run_marks.parse(unfinished_runs)  # parsed once, not per query
        self._seen_versions = seen_versions  # the version each access key last changed at (stores.seen_versions)
        # What an answer read from here depends on besides the query: the version, and what
        # is stored without a new one (the calibration, the run marks). The answer cache's key.
        self.stamp = (version, hash((calibration, unfinished_runs, search_notes)))
        self.search_notes = search_notes  # an answer's warnings that its vectors were searched in memory (stores.search_notes)
        self.unusable_vectors = unusable  # node and edge ids whose stored vector is unusable
        self._node_seqs = node_seqs or {}  # id -> the version the node was last written at
        self._memo = Memo()
        # flags and token counts by item text, handed on from snapshot to snapshot (stores.text_verdicts)
        self._text_verdicts = text_verdicts or Memo()

    @property
    def unfinished_runs(self) -> dict[str, dict[str, Any]]:
        """The index runs under way or stopped, by source (``stores.run_marks``); a new dict."""
        return {source: dict(mark) for source, mark in self._unfinished_runs.items()}

    def __repr__(self) -> str:  # what it holds: a repr reads nothing from disk
        return (f"<IndexSnapshot of {str(self.path)!r} at version {self.version}: "
                f"{len(self.nodes)} nodes, {len(self.edges)} edges>")

    # -- items ------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.nodes

    def get(self, node_id: str) -> Node:
        try:
            return self.nodes[node_id]
        except KeyError:
            raise MissingNodeError(f"no node {node_id!r} in the index at {self.path}") from None

    @cached_property
    def names(self) -> NameViews:
        """The item names as queries look them up, as written and accent-folded (one pass)."""
        return name_views(self.nodes.values())

    @property
    def by_name(self) -> Mapping[str, tuple[Node, ...]]:
        """Case-folded name -> the nodes that have it; facts (named after their passage) left out."""
        return self.names.by_name

    def nodes_named(self, names: set[str] | frozenset[str]) -> list[Node]:
        """Nodes whose case-folded name is in ``names``."""
        return [n for name in names for n in self.by_name.get(name, ())]

    @cached_property
    def ids_folded(self) -> Mapping[str, tuple[str, ...]]:
        """Case-folded id -> the ids that fold to it, for a query that writes an id out
        in another case (``INC:4812`` for ``inc:4812``)."""
        out: dict[str, list[str]] = {}
        for node_id in self.nodes:
            out.setdefault(node_id.casefold(), []).append(node_id)
        return {k: tuple(v) for k, v in out.items()}

    @property
    def name_matcher(self) -> NameMatcher:
        """Every item name, for finding them in a query."""
        return self.names.matcher

    # -- typed edges ------------------------------------------------------------------
    @cached_property
    def edge_index(self) -> EdgeIndex:
        return EdgeIndex(self.edges)

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        return self.edge_index.out_edges(node_id, kind)

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        return self.edge_index.in_edges(node_id, kind)

    def edges_of(self, node_id: str) -> list[Edge]:
        return self.edge_index.edges_of(node_id)

    # -- access -----------------------------------------------------------------------
    @cached_property
    def has_access_labels(self) -> bool:
        return any(n.access for n in self.nodes.values())

    def allowed(self, filters: Filters | None) -> Callable[[str], bool] | None:
        """A predicate over node ids for ``filters``, or None when everything is allowed."""
        f = filters or Filters()
        if f.is_trivial:
            return None
        nodes = self.nodes
        if self._membership_only(f):
            return nodes.__contains__
        return lambda node_id: (n := nodes.get(node_id)) is not None and f.admits(n)

    def _membership_only(self, f: Filters) -> bool:
        """True when ``f`` admits every node (no labels here, no other filter)."""
        return f.is_trivial or (
            not self.has_access_labels and f.kinds is None and f.tags is None and f.since is None and f.until is None
        )

    def allowed_mask(self, filters: Filters | None) -> NDArray[np.bool_] | None:
        """Boolean mask over the rows of :attr:`graph` for ``filters``; None when every row
        is allowed, so callers skip the masking."""
        f = filters or Filters()
        if self._membership_only(f):
            return None

        def build() -> NDArray[np.bool_] | None:
            found = admitted_rows(self.nodes, self.graph.ids, f, self.has_access_labels, self.memo)
            return None if found.all() else found

        return self._memo.get("mask", f, build, 64)

    def visible_adjacency(self, filters: Filters | None) -> sp.csr_array:
        """The adjacency over the rows the caller may see (access only): invisible nodes
        neither receive nor pass anything."""
        mask = self.allowed_mask((filters or Filters()).visibility())
        if mask is None:
            return self.graph.adjacency
        return self._memo.get("visible", (filters or Filters()).principals,
                              lambda: masked_adjacency(self.graph.adjacency, mask), 8)

    # -- matrices ---------------------------------------------------------------------
    @cached_property
    def graph(self) -> GraphMatrices:
        """Symmetric adjacency and transition matrices; row ``i`` is node ``graph.ids[i]``."""
        return build_matrices(list(self.nodes), self.edges.values())

    @cached_property
    def embeddings(self) -> NDArray[np.float32]:
        """Node vectors, row-aligned with :attr:`graph` (a zero row for a node without one)."""
        return snapshot_search.node_matrix(self.graph.ids, self._node_vectors, self.dim)

    @cached_property
    def _has_vector(self) -> NDArray[np.bool_] | None:
        return snapshot_search.rows_with_vector(self.graph.ids, self._node_vectors)

    @cached_property
    def _edge_matrix(self) -> EdgeMatrix:
        return snapshot_search.edge_matrix(self._edge_vectors, self.edges, self.dim)

    def vector_ids(self) -> tuple[frozenset[str], frozenset[str]]:
        """Ids of the nodes and edges that have a vector."""
        return frozenset(self._node_vectors), frozenset(i for i in self._edge_vectors if i in self.edges)

    def node_vector(self, node_id: str) -> Vectors | None:
        v = self._node_vectors.get(node_id)
        return None if v is None else v.vector

    # -- searches ---------------------------------------------------------------------
    def embed_query(self, text: str) -> Vectors:
        """The one embedding of a query that every channel of a search shares."""
        return snapshot_search.query_vector(self.embedder, text, self.dim, self.path)

    def search_nodes(self, qvec: Vectors, k: int, filters: Filters | None = None) -> list[VectorHit]:
        """Nearest nodes that ``filters`` admit."""
        return self.search_nodes_many(np.asarray(qvec, dtype=np.float32).reshape(1, -1), k, filters)[0]

    def search_nodes_many(self, qvecs: Vectors, k: int, filters: Filters | None = None) -> list[list[VectorHit]]:
        """:meth:`search_nodes` for each row of ``qvecs``, in one pass (``stores.snapshot_search``)."""
        f = filters or Filters()
        batch = np.asarray(qvecs, dtype=np.float32)
        if f.kinds is not None and not f.kinds:
            return [[] for _ in range(len(batch))]
        if self._remote is not None:
            return snapshot_search.server_nodes(
                self._remote.nodes, batch, k, f, self.allowed(f),
                nodes=self.nodes, labelled=self.has_access_labels, vector_of=self.node_vector,
            )
        return snapshot_search.memory_nodes(
            self.embeddings, self.graph.ids, batch, k, self.allowed_mask(f), self._has_vector
        )

    def search_edges(self, qvec: Vectors, k: int, filters: Filters | None = None) -> list[tuple[Edge, float]]:
        """Edges whose sentence is near the query; both ends must be visible."""
        f = filters or Filters()
        pred = self.allowed(f)
        depth = k if pred is None or self._membership_only(f) else k * 3
        return snapshot_search.nearest_edges(
            np.asarray(qvec, dtype=np.float32).reshape(1, -1), k, depth, pred, edges=self.edges,
            vectors=self._edge_vectors, server=None if self._remote is None else self._remote.edges,
            matrix=lambda: self._edge_matrix,  # built only for a search in memory
        )

    def search_keywords(self, query: str, k: int, filters: Filters | None = None) -> list[KeywordHit]:
        """BM25 over the keyword documents ``filters`` admit, counted over those its access shows (`keyword_access`)."""
        f = filters or Filters()
        if self._membership_only(f):
            return self.keywords.search(query, k)
        return keywords_seen_by(self, f).search(query, k, self.allowed(f))

    # -- per-query shortcuts that depend only on this snapshot ---------------------------
    def memo(self, table: str, key: Hashable, build: Callable[[], V], size: int = 1) -> V:
        """A value derived only from this snapshot, built once and kept with it (at most
        ``size`` keys per ``table``, least recently used dropped): it can never be stale."""
        return self._memo.get(table, key, build, size)

    def written_since(self, version: int) -> int:
        """How many of the items were written (added or changed) after ``version``."""
        return self.memo("written-since", version, lambda: sum(s > version for s in self._node_seqs.values()))

    def vocabulary(self, node: Node) -> frozenset[str]:
        """The words of the part of ``node`` that coverage reads (name and description
        first, :data:`COVERAGE_CHARS` at most)."""
        from skill_retriever.algorithms.query_terms import text_vocabulary

        return self._memo.get(
            "vocabulary", node.id, lambda: text_vocabulary(node.embedding_text()[:COVERAGE_CHARS]), len(self.nodes) + 1
        )

    def flags(self, node: Node) -> tuple[str, ...]:
        """Why ``node``'s text looks like an instruction to a model (``safety.injection``);
        scanned once per item text while the index is open (``stores.text_verdicts``). The
        words a scan reads make the item's `word_forms` too: a query tokenizes it once."""
        def read(words: Sequence[str], chars: int) -> None:
            self.word_forms(node, (words, chars))

        return self._memo.get("flags", node.id, lambda: item_flags(self._text_verdicts, node, len(self.nodes), read), len(self.nodes) + 1)

    def word_forms(self, node: Node, window: tuple[Sequence[str], int] | None = None) -> WordForms:
        """The words of the part of ``node`` that coverage reads and the first of each stem
        (`stores.word_forms`), made once per item while the snapshot lives."""
        return self._memo.get("word forms", node.id, lambda: WordForms.of(node.embedding_text(), COVERAGE_CHARS, window), min(len(self.nodes) + 1, 1024))

    def token_count(self, node: Node, encoding: str) -> int:
        """tiktoken count of what a caller would load of ``node``; counted once per item
        text and encoding while the index is open (``stores.text_verdicts``)."""
        return self._memo.get(
            "tokens", (encoding, node.id), lambda: item_tokens(self._text_verdicts, node, encoding, len(self.nodes)),
            4 * len(self.nodes) + 1,
        )

    # -- what it holds ----------------------------------------------------------------
    def version_for(self, filters: Filters) -> int:
        """The version shown to a caller ``filters`` admits: that of the last write it could see."""
        return shown_version(self._seen_versions, self.version, filters)

    def status(self, filters: Filters | None = None) -> dict[str, Any]:
        """Counts by kind (``stats``, health checks, MCP) of what ``filters`` let the caller see (all when None)."""
        return status_counts(
            path=self.path, version=self.version if filters is None else self.version_for(filters), embedder=self.embedder.name,
            nodes=self.nodes, edges=self.edges, node_vectors=self._node_vectors.keys(), edge_vectors=self._edge_vectors.keys(),
            unusable=self.unusable_vectors, unfinished_runs=self.unfinished_runs, pred=self.allowed(filters) if filters is not None else None)


__all__ = ["ALL_PRINCIPALS", "COVERAGE_CHARS", "IndexSnapshot", "RemoteVectors", "keyword_indexed", "masked_adjacency"]
