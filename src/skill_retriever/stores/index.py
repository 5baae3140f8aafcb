"""`Index`: one directory that owns every store, persists, and reopens without re-embedding.

Layout of an index directory::

    index.json      format version, embedding model and dimension
    items.sqlite    nodes and edges, the source of truth (WAL; one transaction per batch)
    chroma/         Chroma collections of node and edge vectors (embedded PersistentClient)

Write order makes a kill at any moment safe: vectors are upserted before the SQLite commit
and deleted after it, and opening an index reconciles Chroma with SQLite (stray vectors are
dropped, items whose vectors are missing or stale are re-embedded). BM25 and the graph are
in memory, rebuilt from SQLite at open (no embedding involved).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import (
    ConfigError,
    DuplicateItemError,
    IndexCorruptError,
    InvalidItemError,
    MissingNodeError,
)
from skill_retriever.filters import ALL_PRINCIPALS, Filters
from skill_retriever.identity_cache import IdentityLRU
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind, validate_graph
from skill_retriever.stores.embedder import Embedder, SentenceTransformerEmbedder, Vectors
from skill_retriever.stores.graph import GraphMatrices, NetworkXGraphStore
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.keywords import BM25Index, KeywordHit
from skill_retriever.stores.vectors import HNSW as _HNSW
from skill_retriever.stores.vectors import ChromaVectorStore, VectorHit, VectorStore, make_chroma_client

log = logging.getLogger("skill_retriever")

FORMAT = "skill-retriever-index/1"
#: Edge kinds whose sentence is embedded by default. MENTIONS and PART_OF are many and
#: carry little text of their own ("X mentions Y"); their value is in the graph.
DEFAULT_EMBEDDED_EDGE_KINDS = frozenset(EdgeKind) - {EdgeKind.MENTIONS, EdgeKind.PART_OF}


@dataclass(frozen=True)
class WriteReport:
    """What one write did: how many items changed and how many texts were embedded."""

    nodes_added: int = 0
    nodes_updated: int = 0
    nodes_unchanged: int = 0
    edges_written: int = 0
    nodes_deleted: int = 0
    edges_deleted: int = 0
    embedded: int = 0
    seconds: float = 0.0


class Index:
    """All stores of one knowledge graph. Open with :meth:`Index.open`.

    Reads are safe from many threads while one writer writes: writers serialise on a lock
    and publish new immutable snapshots (node map, matrices) that readers pick up whole.
    """

    def __init__(
        self,
        path: Path,
        embedder: Embedder,
        items: ItemStore,
        node_vectors: VectorStore,
        edge_vectors: VectorStore,
        embedded_edge_kinds: frozenset[EdgeKind],
    ) -> None:
        self.path = path
        self.embedder = embedder
        self._items = items
        self.node_vectors = node_vectors
        self.edge_vectors = edge_vectors
        self.embedded_edge_kinds = embedded_edge_kinds
        self.keywords = BM25Index()
        self.graph = NetworkXGraphStore()
        self._nodes: dict[str, Node] = {}
        self._vecs: dict[str, Vectors] = {}
        self._write_lock = threading.RLock()
        self._matrix_cache: tuple[GraphMatrices, Vectors] | None = None
        self.version = int(items.get_meta("version") or 0)
        self._labelled = 0  # nodes that carry access labels
        self._names_cache: tuple[Mapping[str, Node], dict[str, list[Node]]] | None = None
        self._masks: IdentityLRU[NDArray[np.bool_] | None] = IdentityLRU(64)
        self._labels_cache: tuple[Mapping[str, Node], bool] | None = None
        self._client: Any = None

    # -- opening ----------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        embedder: Embedder | None = None,
        chroma_url: str | None = None,
        create: bool = True,
        embedded_edge_kinds: Iterable[EdgeKind | str] = DEFAULT_EMBEDDED_EDGE_KINDS,
    ) -> Index:
        """Open (or create) the index at ``path``.

        Args:
            path: the index directory.
            embedder: defaults to the bundled MiniLM; must match the one the index was
                built with (its name is stored in ``index.json``).
            chroma_url: use a Chroma server at this URL instead of the embedded store.
                The URL is remembered in ``index.json``; later opens use it unless
                given another (see :func:`move_vectors_to_server`).
            create: create the directory when missing; else a missing index is an error.
            embedded_edge_kinds: which edge kinds get a vector for seed retrieval.
        """
        path = Path(path)
        manifest_path = path / "index.json"
        if not manifest_path.exists():
            if not create:
                raise IndexCorruptError(
                    f"no index at {path} (index.json missing); run `skill-retriever index` first"
                )
            if path.exists() and not path.is_dir():
                raise IndexCorruptError(f"{path} is a file, not an index directory; choose a directory")
            if path.exists() and any(p.name not in {"index.json", "items.sqlite"} for p in path.iterdir()) and not (path / "items.sqlite").exists():
                raise IndexCorruptError(
                    f"{path} exists and holds other files; choose an empty or new directory"
                )
        embedder = embedder or SentenceTransformerEmbedder()
        fresh = not manifest_path.exists()
        manifest = cls._read_or_write_manifest(manifest_path, embedder, create)
        if fresh and chroma_url:
            manifest["chroma_url"] = chroma_url  # later opens find the server by themselves
            cls._write_manifest(manifest_path, manifest)
        if manifest.get("embedder") != embedder.name:
            raise ConfigError(
                f"index {path} was built with embedder {manifest.get('embedder')!r}, "
                f"not {embedder.name!r}; open it with that model or re-index"
            )
        items = ItemStore(path / "items.sqlite")
        kinds = frozenset(EdgeKind(k if isinstance(k, EdgeKind) else str(k).upper()) for k in embedded_edge_kinds)
        chroma_url = chroma_url or manifest.get("chroma_url")
        prefix = manifest.get("collection_prefix", "sr")
        try:
            client = make_chroma_client(path / "chroma", url=chroma_url)
            node_store = ChromaVectorStore(client, f"{prefix}-nodes", embedder)
            edge_store = ChromaVectorStore(client, f"{prefix}-edges", embedder)
        except Exception as exc:  # Chroma fails in many types (InternalError, AttributeError, ...)
            items.close()
            where = f"the Chroma server at {chroma_url}" if chroma_url else f"{path / 'chroma'}"
            fix = (
                "check that the server runs and is reachable"
                if chroma_url
                else "delete that folder and open the index again: vectors are rebuilt from items.sqlite"
            )
            raise IndexCorruptError(
                f"the vector store ({where}) cannot be opened ({type(exc).__name__}: {exc}); {fix}"
            ) from exc
        index = cls(path, embedder, items, node_store, edge_store, kinds)
        index._client = client
        try:
            index._load()
        except BaseException:
            index.close()
            raise
        return index

    @staticmethod
    def _read_or_write_manifest(manifest_path: Path, embedder: Embedder, create: bool) -> dict[str, Any]:
        if manifest_path.exists():
            try:
                manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise IndexCorruptError(
                    f"{manifest_path} is unreadable ({exc}); the index directory is damaged: "
                    "delete it and index again"
                ) from exc
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise IndexCorruptError(
                    f"{manifest_path} is not a skill-retriever index manifest; point at an index "
                    "directory, or delete this one and index again"
                )
            return manifest
        manifest_path.parent.mkdir(parents=True, exist_ok=True)
        import uuid

        manifest = {
            "format": FORMAT,
            "embedder": embedder.name,
            "collection_prefix": f"sr-{uuid.uuid4().hex[:12]}",
        }
        Index._write_manifest(manifest_path, manifest)
        return manifest

    @staticmethod
    def _write_manifest(manifest_path: Path, manifest: Mapping[str, Any]) -> None:
        tmp = manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        tmp.replace(manifest_path)  # atomic: a half-written manifest never exists

    def _load(self) -> None:
        """Fill the in-memory stores from SQLite and reconcile the vectors with it."""
        nodes = {n.id: n for n in self._items.iter_nodes()}
        edges = list(self._items.iter_edges())
        self._nodes = nodes
        self._labelled = sum(1 for n in nodes.values() if n.access)
        self.graph.add_nodes(nodes)
        self.graph.add_edges(e for e in edges if e.source in nodes and e.target in nodes)
        self.keywords.upsert((n.id, n.embedding_text()) for n in nodes.values() if _keyword_indexed(n))
        self._reconcile_vectors(nodes, edges)

    def _reconcile_vectors(self, nodes: Mapping[str, Node], edges: Sequence[Edge]) -> None:
        stored = self.node_vectors.all_ids_and_hashes()
        stray = [i for i in stored if i not in nodes]
        if stray:
            self.node_vectors.delete(stray)
        stale = [n for n in nodes.values() if stored.get(n.id) != self._vector_sig(n)]
        # Same text, other kind or access (a metadata update cut short by a kill, or an
        # index written before the signature held them): fix the metadata, keep the vector.
        relabel = [n for n in stale if stored.get(n.id, "").split("|", 1)[0] == n.content_hash()]
        embed = [n for n in stale if stored.get(n.id, "").split("|", 1)[0] != n.content_hash()]
        if embed:
            log.info("[skill_retriever][index] re-embedding %d nodes missing from the vector store", len(embed))
            self._embed_nodes(embed)
        if relabel:
            kept = self.node_vectors.vectors([n.id for n in relabel])
            self.node_vectors.upsert(
                [n.id for n in relabel], np.stack([kept[n.id] for n in relabel]), [self._metadata(n) for n in relabel]
            )
        self._vecs = self.node_vectors.vectors(list(nodes))
        wanted = {e.id: e for e in edges if e.kind in self.embedded_edge_kinds}
        stored_edges = self.edge_vectors.all_ids_and_hashes()
        stray_e = [i for i in stored_edges if i not in wanted]
        if stray_e:
            self.edge_vectors.delete(stray_e)
        missing = [e for i, e in wanted.items() if stored_edges.get(i) != self._edge_hash(e)]
        if missing:
            self._embed_edges(missing, nodes)

    # -- reading ----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._nodes

    @property
    def nodes(self) -> Mapping[str, Node]:
        """The current node map (an immutable snapshot: writers replace, never mutate)."""
        return self._nodes

    def get(self, node_id: str) -> Node:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise MissingNodeError(f"no node {node_id!r} in the index at {self.path}") from None

    def nodes_named(self, names: set[str]) -> list[Node]:
        """Nodes whose name, case-folded, is in ``names`` (name map cached per node snapshot:
        keyed by the snapshot itself, since the version moves before a write publishes)."""
        cached = self._names_cache
        nodes = self._nodes
        if cached is None or cached[0] is not nodes:
            by_name: dict[str, list[Node]] = {}
            for n in nodes.values():
                by_name.setdefault(n.name.casefold(), []).append(n)
            cached = (nodes, by_name)
            self._names_cache = cached
        return [n for name in names for n in cached[1].get(name, [])]

    def edges(self) -> list[Edge]:
        return list(self.graph.iter_edges())

    @property
    def has_access_labels(self) -> bool:
        return self._labelled > 0

    def _labels_in(self, nodes: Mapping[str, Node]) -> bool:
        """Whether this node snapshot holds a labelled node (cached per snapshot)."""
        cached = self._labels_cache
        if cached is not None and cached[0] is nodes:
            return cached[1]
        found = any(n.access for n in nodes.values())
        self._labels_cache = (nodes, found)
        return found

    def allowed(self, filters: Filters | None) -> Callable[[str], bool] | None:
        """A predicate over node ids for ``filters``, or None when everything is allowed.

        The predicate judges one snapshot of the node map, taken here: an id must be in
        it (so a node added or deleted while a query runs is judged consistently, never
        by a label count from another moment), and the filters must admit it there.
        """
        f = filters or Filters()
        if f.is_trivial:
            return None
        return self._predicate(f, self._nodes)

    def _predicate(self, f: Filters, nodes: Mapping[str, Node]) -> Callable[[str], bool]:
        if self._membership_only(f, nodes):
            return nodes.__contains__
        return lambda node_id: (n := nodes.get(node_id)) is not None and f.admits(n)

    def _membership_only(self, f: Filters, nodes: Mapping[str, Node]) -> bool:
        """True when ``f`` admits every node of ``nodes`` (no labels there, no other filter)."""
        if f.is_trivial:
            return True
        return not self._labels_in(nodes) and f.kinds is None and f.tags is None and f.since is None and f.until is None

    def matrices(self) -> tuple[GraphMatrices, Vectors]:
        """Graph matrices and the node vectors aligned with their rows (cached per version)."""
        gm = self.graph.matrices()
        cached = self._matrix_cache
        if cached is not None and cached[0] is gm:
            return cached
        vecs = self._vecs
        dim = self.embedder.dim
        emb = np.zeros((len(gm.ids), dim), dtype=np.float32)
        for row, node_id in enumerate(gm.ids):
            v = vecs.get(node_id)
            if v is not None:
                emb[row] = v
        self._matrix_cache = (gm, emb)
        return gm, emb

    def allowed_mask(self, filters: Filters | None, gm: GraphMatrices | None = None) -> NDArray[np.bool_] | None:
        """Boolean mask over the rows of ``gm`` (default: the current matrices) for
        ``filters``; None when every row is allowed, so callers skip the masking. Cached
        per matrix and node snapshot, since most queries repeat a few filter sets."""
        key = filters or Filters()
        if key.is_trivial:
            return None
        # Rows of the caller's matrix snapshot: a write between two matrices() calls
        # would otherwise hand back a mask of another shape.
        rows = gm if gm is not None else self.matrices()[0]
        nodes = self._nodes

        def build() -> NDArray[np.bool_] | None:
            pred = self._predicate(key, nodes)  # judged on the snapshot of the cache key
            found = np.fromiter((pred(i) for i in rows.ids), dtype=bool, count=len(rows.ids))
            return None if found.all() else found

        return self._masks.get_or_build(key, (rows, nodes), build)

    def embed_query(self, query: str) -> Vectors:
        """The one embedding of a query that every channel of a search shares."""
        return self.embedder.embed([query])[0]

    def search_nodes(self, qvec: Vectors, k: int, filters: Filters | None = None) -> list[VectorHit]:
        """Nearest nodes that ``filters`` admit; the filter runs inside the vector search."""
        return self.search_nodes_many(np.asarray(qvec, dtype=np.float32).reshape(1, -1), k, filters)[0]

    def search_nodes_many(self, qvecs: Vectors, k: int, filters: Filters | None = None) -> list[list[VectorHit]]:
        """:meth:`search_nodes` for each row of ``qvecs``, in one vector-store request."""
        f = filters or Filters()
        nodes = self._nodes
        pred = self.allowed(f)
        batch = np.asarray(qvecs, dtype=np.float32)
        if f.kinds is not None and not f.kinds:
            return [[] for _ in range(len(batch))]  # no kind admitted (Chroma refuses an empty "$in")
        if pred is None:
            found = self.node_vectors.search_many(batch, k)
        elif f.tags is None and f.since is None and f.until is None:
            found = self.node_vectors.search_many(batch, k, where=self._where(f))
        else:
            found = self.node_vectors.search_many(batch, k, ids=[i for i in nodes if pred(i)])
        # The vector store is written before a node is published and may lag a delete or
        # an access change: judge every hit again on the node snapshot.
        return [[h for h in hits if h.id in nodes and (pred is None or pred(h.id))] for hits in found]

    def _where(self, f: Filters) -> dict[str, Any] | None:
        """Kinds and access as a Chroma metadata filter (see ``_metadata``)."""
        clauses: list[dict[str, Any]] = []
        if f.kinds is not None:
            clauses.append({"kind": {"$in": sorted(f.kinds)}})
        if self.has_access_labels and not (f.principals and ALL_PRINCIPALS in f.principals):
            visible: list[dict[str, Any]] = [{"public": True}]
            visible += [{"access": {"$contains": p}} for p in sorted(f.principals or ())]
            clauses.append(visible[0] if len(visible) == 1 else {"$or": visible})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def search_edges(self, qvec: Vectors, k: int, filters: Filters | None = None) -> list[tuple[Edge, float]]:
        """Edges whose sentence is near the query; both ends must be visible."""
        f = filters or Filters()
        nodes = self._nodes
        pred = self._predicate(f, nodes)
        depth = k if self._membership_only(f, nodes) else k * 3
        hits = self.edge_vectors.search_many(np.asarray(qvec, dtype=np.float32).reshape(1, -1), depth)[0]
        out: list[tuple[Edge, float]] = []
        for h in hits:
            edge = self.graph.get_edge(h.id)
            if edge is None or not (pred(edge.source) and pred(edge.target)):
                continue
            out.append((edge, h.score))
            if len(out) >= k:
                break
        return out

    def search_keywords(self, query: str, k: int, filters: Filters | None = None) -> list[KeywordHit]:
        f = filters or Filters()
        nodes = self._nodes
        if self._membership_only(f, nodes):
            # Everything is visible: no predicate over every matching document; only ids
            # deleted while BM25 still lists them are dropped, after the cut.
            return [h for h in self.keywords.search(query, k + 16) if h.id in nodes][:k]
        return self.keywords.search(query, k, self._predicate(f, nodes))

    # -- writing ----------------------------------------------------------------------
    def add(self, nodes: Sequence[Node] = (), edges: Sequence[Edge] = ()) -> WriteReport:
        """Add new nodes and edges; an id that already exists is an error (use upsert)."""
        clash = [n.id for n in nodes if n.id in self._nodes]
        if clash:
            raise DuplicateItemError(
                f"node id {clash[0]!r} already exists ({len(clash)} clash(es)); use upsert() to update"
            )
        return self.upsert(nodes, edges)

    def upsert(self, nodes: Sequence[Node] = (), edges: Sequence[Edge] = ()) -> WriteReport:
        """Add or update nodes and edges; unchanged nodes (same content hash) embed nothing."""
        start = time.perf_counter()
        nodes, edges = list(nodes), list(edges)
        for e in edges:
            if e.source == e.target:
                raise InvalidItemError(f"edge {e.id!r} is a self edge; an item cannot relate to itself")
        with self._write_lock:
            validate_graph(nodes, edges, known_ids=self._nodes.keys())
            current = self._nodes
            edges = [e for e in dict((e.id, e) for e in edges).values() if self.graph.get_edge(e.id) != e]
            changed = [n for n in nodes if (old := current.get(n.id)) is None or old != n]
            rehash = [n for n in changed if (old := current.get(n.id)) is None or old.content_hash() != n.content_hash()]
            new_edges = [e for e in edges if e.kind in self.embedded_edge_kinds]
            # An edge is embedded as "<source name> <verb> <target name>": a renamed node
            # makes the stored sentences of its edges stale, so they are embedded again.
            renamed = [n.id for n in changed if (old := current.get(n.id)) is not None and old.name != n.name]
            if renamed:
                queued = {e.id for e in new_edges}
                for node_id in renamed:
                    for e in self.graph.edges_of(node_id):
                        if e.kind in self.embedded_edge_kinds and e.id not in queued:
                            new_edges.append(e)
                            queued.add(e.id)
            batch = {n.id: n for n in nodes}
            names = _NameLookup(batch, current)
            embedded = self._embed_nodes(rehash) if rehash else 0
            # Metadata-only changes (tags, access, dates) update the vector metadata too.
            meta_only = [n for n in changed if n not in rehash]
            if meta_only:
                self.node_vectors.upsert(
                    [n.id for n in meta_only],
                    np.stack([self._vecs[n.id] for n in meta_only]),
                    [self._metadata(n) for n in meta_only],
                )
            embedded += self._embed_edges(new_edges, names) if new_edges else 0
            if not changed and not edges:
                return WriteReport(nodes_unchanged=len(nodes), seconds=time.perf_counter() - start)
            self.version += 1
            self._items.write(upsert_nodes=changed, upsert_edges=edges, version=self.version)
            # Publish: new snapshots, never mutate the ones readers hold.
            if changed:
                updated = dict(current)
                for n in changed:
                    old = current.get(n.id)
                    self._labelled += bool(n.access) - bool(old is not None and old.access)
                    updated[n.id] = n
                self._nodes = updated
            self.graph.add_nodes(n.id for n in changed)
            self.graph.add_edges(edges)
            self.keywords.upsert((n.id, n.embedding_text()) for n in rehash if _keyword_indexed(n))
            self.keywords.delete(n.id for n in rehash if not _keyword_indexed(n))
            added = sum(1 for n in changed if n.id not in current)
            return WriteReport(
                nodes_added=added,
                nodes_updated=len(changed) - added,
                nodes_unchanged=len(nodes) - len(changed),
                edges_written=len(edges),
                embedded=embedded,
                seconds=time.perf_counter() - start,
            )

    def delete(self, node_ids: Iterable[str] = (), edge_ids: Iterable[str] = ()) -> WriteReport:
        """Delete nodes (with every edge touching them) and edges by id."""
        start = time.perf_counter()
        with self._write_lock:
            ids = [i for i in dict.fromkeys(node_ids)]
            missing = [i for i in ids if i not in self._nodes]
            if missing:
                raise MissingNodeError(f"cannot delete {missing[0]!r}: no such node ({len(missing)} missing)")
            edge_list = list(dict.fromkeys([*edge_ids, *self._items.edge_ids_touching(ids)]))
            self.version += 1
            self._items.write(delete_nodes=ids, delete_edges=edge_list, version=self.version)
            self.node_vectors.delete(ids)
            self.edge_vectors.delete(edge_list)
            updated = {k: v for k, v in self._nodes.items() if k not in set(ids)}
            self._nodes = updated
            self._labelled = sum(1 for n in updated.values() if n.access)
            vecs = dict(self._vecs)
            for i in ids:
                vecs.pop(i, None)
            self._vecs = vecs
            self.graph.remove_edges(edge_list)
            self.graph.remove_nodes(ids)
            self.keywords.delete(ids)
            return WriteReport(
                nodes_deleted=len(ids), edges_deleted=len(edge_list), seconds=time.perf_counter() - start
            )

    def close(self) -> None:
        """Close SQLite and release this process's Chroma client for the directory (so the
        same path can be opened again, even after it was deleted and re-created)."""
        self._items.close()
        client, self._client = self._client, None
        if client is not None and hasattr(client, "close"):
            client.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _metadata(node: Node) -> dict[str, Any]:
        meta: dict[str, Any] = {"hash": Index._vector_sig(node), "kind": node.kind.value, "public": not node.access}
        if node.access:
            meta["access"] = list(node.access)
        return meta

    @staticmethod
    def _vector_sig(node: Node) -> str:
        """What a node's vector entry must match: its text, and the kind and access that
        the vector search filters on (so reconciling at open catches a stale label)."""
        return f"{node.content_hash()}|{node.kind.value}|{','.join(sorted(node.access))}"

    @staticmethod
    def _edge_hash(edge: Edge) -> str:
        return f"{edge.kind.value}:{edge.weight}:{edge.description}"

    def _embed_nodes(self, nodes: Sequence[Node]) -> int:
        vecs = self.embedder.embed([n.embedding_text() for n in nodes])
        self.node_vectors.upsert([n.id for n in nodes], vecs, [self._metadata(n) for n in nodes])
        merged = dict(self._vecs)
        merged.update({n.id: vecs[i] for i, n in enumerate(nodes)})
        self._vecs = merged
        return len(nodes)

    def _embed_edges(self, edges: Sequence[Edge], nodes: Mapping[str, Node]) -> int:
        def name(i: str) -> str:
            v = nodes.get(i)
            return v.name if v is not None else i

        texts = [e.embedding_text(name(e.source), name(e.target)) for e in edges]
        vecs = self.embedder.embed(texts)
        self.edge_vectors.upsert(
            [e.id for e in edges], vecs, [{"hash": self._edge_hash(e), "kind": e.kind.value} for e in edges]
        )
        return len(edges)

    def status(self) -> dict[str, Any]:
        """Counts and identity of the index, for `stats`, MCP and health checks."""
        kinds: dict[str, int] = {}
        for n in self._nodes.values():
            kinds[n.kind.value] = kinds.get(n.kind.value, 0) + 1
        edge_kinds: dict[str, int] = {}
        for e in self.graph.iter_edges():
            edge_kinds[e.kind.value] = edge_kinds.get(e.kind.value, 0) + 1
        return {
            "path": str(self.path),
            "version": self.version,
            "embedder": self.embedder.name,
            "nodes": len(self._nodes),
            "edges": sum(edge_kinds.values()),
            "node_kinds": dict(sorted(kinds.items())),
            "edge_kinds": dict(sorted(edge_kinds.items())),
            "vectors": {"nodes": self.node_vectors.count(), "edges": self.edge_vectors.count()},
        }


def _keyword_indexed(node: Node) -> bool:
    """Entity nodes stay out of BM25: they are a few words each, and tens of thousands of
    them (spaCy entities of a passage corpus) drag the average document length down so far
    that length normalisation buries every real passage. On 2wikimultihopqa (6,119
    passages, 33,156 entities) BM25 R@5 was 55.9 with them, against the data README's
    65.6 floor for passages alone. Entities are still found by name, vectors and the graph."""
    return node.kind != NodeKind.ENTITY


class _NameLookup(Mapping[str, Node]):
    """Nodes of the batch first, then the index: a view, so no O(N) copy per batch."""

    def __init__(self, batch: Mapping[str, Node], current: Mapping[str, Node]) -> None:
        self._batch, self._current = batch, current

    def __getitem__(self, key: str) -> Node:
        return self._batch[key] if key in self._batch else self._current[key]

    def __iter__(self) -> Iterator[str]:
        yield from self._batch
        yield from (k for k in self._current if k not in self._batch)

    def __len__(self) -> int:
        return len(self._batch) + sum(1 for k in self._current if k not in self._batch)


def move_vectors_to_server(path: str | Path, chroma_url: str, *, embedder: Embedder | None = None) -> dict[str, int]:
    """Copy an embedded index's vectors to a Chroma server (no re-embedding) and make the
    index use the server from now on. The embedded ``chroma/`` folder is left in place
    (delete it once the server copy is checked)."""
    path = Path(path)
    manifest_path = path / "index.json"
    if not manifest_path.exists():
        raise IndexCorruptError(f"no index at {path} (index.json missing)")
    manifest = Index._read_or_write_manifest(manifest_path, embedder or SentenceTransformerEmbedder(), create=False)
    if manifest.get("chroma_url"):
        raise ConfigError(f"index {path} already uses the server {manifest['chroma_url']}")
    local = make_chroma_client(path / "chroma")
    remote = make_chroma_client(url=chroma_url)
    prefix = manifest.get("collection_prefix", "sr")
    copied: dict[str, int] = {}
    for suffix in ("nodes", "edges"):
        name = f"{prefix}-{suffix}"
        src = local.get_collection(name)
        dst = ChromaVectorStore(remote, name, embedder or SentenceTransformerEmbedder())._col
        total, step = int(src.count()), 2000
        for off in range(0, total, step):
            page = src.get(include=["embeddings", "metadatas"], limit=step, offset=off)
            dst.upsert(ids=page["ids"], embeddings=page["embeddings"], metadatas=page["metadatas"])
        copied[suffix] = int(dst.count())
        if copied[suffix] != total:
            raise IndexCorruptError(f"copied {copied[suffix]} of {total} {suffix} vectors to {chroma_url}; retry")
    manifest = dict(manifest)
    manifest["chroma_url"] = chroma_url
    Index._write_manifest(manifest_path, manifest)
    return copied


__all__ = ["Index", "WriteReport", "ALL_PRINCIPALS", "move_vectors_to_server"]
