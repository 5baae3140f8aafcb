"""`Index`: one directory of items and vectors, one writer at a time, snapshots for readers.

Open an index with :meth:`Index.open`; read it through :meth:`Index.snapshot` (an immutable
`IndexSnapshot`: a query pins one and reads nothing else); change it with
:meth:`Index.upsert`, :meth:`Index.add` and :meth:`Index.delete`.

- **Readers never write.** Opening reads ``items.sqlite`` read-only; a process becomes the
  writer at its first write (or when opened with ``writable=True``) by taking the
  directory's write lock, so any number of processes may read while one writes, and a
  reader in another process catches up with each committed write on its next snapshot.
- **Every write is one SQLite transaction** holding the items and their vectors, so a
  process killed at any moment leaves the batches whose call returned, and nothing else.
- **Publishing is atomic:** the in-memory state changes under a short lock after the commit,
  and the next :meth:`snapshot` sees the whole batch or none of it. See
  docs/architecture.md for the whole read and write path.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, Self

from skill_retriever.exceptions import IndexClosedError
from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.open_handle import OpenHandle
from skill_retriever.stores import api_args, collector, opening, seen_versions
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.link_watch import LinkWatch
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.mirror_failure import behind_note
from skill_retriever.stores.server_retake import ServerRetake
from skill_retriever.stores.server_view import ServerView
from skill_retriever.stores.snapshot import IndexSnapshot, RemoteVectors
from skill_retriever.stores.snapshot_memo import Memo
from skill_retriever.stores.writer import (
    DEFAULT_EMBEDDED_EDGE_KINDS,
    WriteBatch,
    WriteReport,
    plan_delete,
    plan_upsert,
)

log = logging.getLogger("skill_retriever")

class Index(OpenHandle, ServerView):
    """All items of one knowledge graph, in one directory. Open with :meth:`Index.open`."""

    def __init__(
        self,
        path: Path,
        embedder: Embedder,
        manifest: dict[str, Any],
        items: ItemStore,
        lock: WriterLock,
        remote: RemoteVectors | None,
        embedded_edge_kinds: frozenset[EdgeKind],
        watch: LinkWatch | None = None,
    ) -> None:
        self._path = path
        self._embedder = embedder
        self._manifest = manifest
        self._items = items
        self._lock = lock
        self._remote = remote
        self.embedded_edge_kinds = embedded_edge_kinds
        self._live = LiveState()
        self._state_lock = threading.Lock()  # held while the live state changes or is frozen
        self._write_lock = threading.RLock()  # serialises this process's writers
        self._refresh_lock = threading.Lock()
        self._snapshot: IndexSnapshot | None = None
        self._text_verdicts = Memo()  # each snapshot's flags and token counts by item text (stores.text_verdicts)
        self._seen = -1  # SQLite data_version at the last catch-up (readers)
        self.repaired = {"nodes": 0, "edges": 0, "server": 0, "server_deleted": 0}  # by the last repair
        #: How many items a lost index.json was written again from at this open (0: it was not).
        self.recreated_from = 0
        self._use_server = True
        self._behind = False  # the server lacks a write of this writer's (stores.mirror_failure)
        self._closed = False
        self._watch = watch or LinkWatch(path)  # index.json's server link, as last taken up
        self._retake = ServerRetake()

    # -- opening ----------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: api_args.PathArg,
        *,
        embedder: Embedder | None = None,
        chroma_url: str | None = None,
        create: bool = False,
        writable: bool = False,
        embedded_edge_kinds: Iterable[EdgeKind | str] = DEFAULT_EMBEDDED_EDGE_KINDS,
        lock_wait_s: float = 0.0,
        use_server: bool = True,
    ) -> Self:
        """Open the index at ``path``.

        Args:
            path: The index directory (str or os.PathLike; "" is refused, not read as ".").
            embedder: The embedding model; defaults to the one the index was built with
                (its name is in ``index.json``), else the bundled MiniLM for a new index.
            chroma_url: Mirror vectors to a Chroma server and search through it. Remembered
                in ``index.json``; later opens use it unless given another.
            create: Create the index when the directory has none (as the ``index`` command does).
            writable: Take the write lock now (it is otherwise taken at the first write).
            embedded_edge_kinds: Which edge kinds get a vector for seed retrieval (one str: one kind).
            lock_wait_s: How long to wait for another process's write lock.
            use_server: False ignores the manifest's Chroma server (``move-to-server``
                gives the index new collections instead).

        Raises:
            IndexNotFoundError / IndexCorruptError: No index there (and not ``create``) / damaged.
            IndexLockedError: Writing was asked for and another process (or handle) is writing.
            ConfigError: ``path`` is empty or no path, ``embedder`` a model's name (wrap it in
                ``SentenceTransformerEmbedder(name)``) or no embedder, ``lock_wait_s``
                no count of seconds, or ``create``, ``writable`` or ``use_server`` not a bool.
        """
        path, kinds = api_args.one_path(path, "Index.open's path"), api_args.edge_kinds(embedded_edge_kinds)
        create = api_args.a_switch(create, "Index.open's create")
        writable = api_args.a_switch(writable, "Index.open's writable")
        use_server = api_args.a_switch(use_server, "Index.open's use_server")
        embedder = api_args.an_embedder(embedder, "Index.open's embedder")
        lock = WriterLock(path, api_args.lock_wait(lock_wait_s, "Index.open's lock_wait_s"))
        watch = LinkWatch(path)  # before the manifest is read: a move in between is followed
        manifest, embedder, items, recovering = opening.open_files(
            path, lock, embedder, create=create, writable=writable, chroma_url=chroma_url
        )
        index = cls(path, embedder, manifest, items, lock, None, kinds, watch)
        index._use_server = use_server
        try:
            index._load()
            if recovering:
                index._manifest = opening.finish_recovery(path, manifest, embedder, index._dim(), index._live, recovering)
                index.recreated_from = len(index._live.nodes)
            index._remote = index._server()
            if lock.held:
                index._reconcile()  # (which embeds unusable vectors again: no word on them)
            opening.warn_unusable(path, index._live, index._dim(), vectors=not lock.held)
        except BaseException:
            index.close()
            raise
        return index

    def _load(self) -> None:
        seen = self._items.data_version()  # before the read: a commit in between is read again
        with collector.paused():  # millions of objects, none garbage (stores.collector)
            changes = self._items.load(dim=self._dim())
            fixed = opening.settle_dim(self._path, self._manifest, changes, self._embedder, writer=self._lock.held)
            if fixed:  # the manifest named another length than the vectors and the embedder have
                self._manifest = {**self._manifest, "dim": fixed}
                mf.write_manifest(self._path, self._manifest)
                changes = self._items.load(dim=fixed)
            with self._state_lock:
                self._live.apply(changes)
                self._snapshot = None
        self._seen = seen

    # -- reading ----------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self._path

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def writable(self) -> bool:
        """Whether this process holds the write lock."""
        return self._lock.held

    def snapshot(self) -> IndexSnapshot:
        """The last committed state, immutable. A reader process catches up here with what
        another process committed since its last snapshot."""
        if self._closed:
            raise IndexClosedError(f"the index at {self._path} was closed; open it again with Index.open")
        if not self._lock.held:
            self._catch_up()
        if (snap := self._snapshot) is not None:
            return snap
        with self._state_lock:
            if self._snapshot is None:  # behind: its own vectors, which hold the write the server lacks
                note = behind_note(self._path, self._manifest.get("chroma_url")) if self._behind else ""
                remote = None if self._behind else self._remote
                self._snapshot = self._live.freeze(self._path, self._embedder, self._dim(), remote, note, self._text_verdicts)
            return self._snapshot

    def _catch_up(self) -> None:
        with self._refresh_lock:
            if self._lock.held:  # another thread became the writer meanwhile: its writes publish
                return
            seen = self._items.data_version()
            if seen != self._seen:
                changes = self._items.load(since=self._live.version, dim=self._dim())
                if self._live.changed_by(changes):  # else the snapshot, and its caches, stay
                    with self._state_lock:
                        self._live.apply(changes)
                        self._snapshot = None
                self._seen = seen
                if changes.unusable_nodes or changes.unusable_edges or changes.damaged_nodes or changes.damaged_edges:
                    opening.warn_unusable(self._path, self._live, self._dim())
            self._look_again()  # moved by another process, or its server back? (stores.server_view)

    def _dim(self) -> int:
        dim = self._manifest.get("dim")
        if isinstance(dim, int) and dim > 0:
            return dim
        first = next(iter(self._live.node_vectors.values()), None)
        return int(first.vector.shape[0]) if first is not None else 0

    # Conveniences over the current snapshot (a query pins one snapshot instead).
    @property
    def version(self) -> int:
        return self.snapshot().version

    @property
    def nodes(self) -> Mapping[str, Node]:
        return self.snapshot().nodes

    def get(self, node_id: str) -> Node:
        return self.snapshot().get(node_id)

    def __len__(self) -> int:
        return len(self.snapshot())

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.snapshot()

    @property
    def chroma_url(self) -> str | None:  # the server index.json names, which searches go through
        return str(self._manifest.get("chroma_url") or "") or None if self._use_server else None

    def status(self) -> dict[str, Any]:
        """Counts and identity of the index, for ``stats`` and health checks (unreadable rows too)."""
        out = self.snapshot().status()
        if unread := [*self._live.damaged_nodes, *self._live.damaged_edges]:
            out["unreadable_rows"] = {"count": len(unread), "first": unread[0]}
        if self._remote is not None:
            out["chroma_url"] = self._manifest.get("chroma_url")
        return out

    # -- writing ----------------------------------------------------------------------
    def add(self, nodes: Iterable[Node] | Node = (), edges: Iterable[Edge] | Edge = ()) -> WriteReport:
        """Add new nodes and edges (a list of each, or one); an existing id is an error (use upsert)."""
        nodes, edges = api_args.items_to_write(nodes, edges)
        with self._write_lock:
            self._become_writer()
            api_args.refuse_existing(nodes, self._live.nodes)
            return self.upsert(nodes, edges)

    def upsert(
        self, nodes: Iterable[Node] | Node = (), edges: Iterable[Edge] | Edge = (), *, progress: Callable[[int], None] | None = None
    ) -> WriteReport:
        """Add or update nodes and edges (lists, or one each); unchanged nodes (same hash) embed
        nothing. ``progress`` is told how many texts are embedded as each step of them is done."""
        start = time.perf_counter()
        nodes, edges = api_args.items_to_write(nodes, edges)
        with self._write_lock:
            self._become_writer()
            batch = plan_upsert(self._live, nodes, edges, self._embedder, self.embedded_edge_kinds,
                                self._live.version + 1, self._items.edge_ids_touching, progress)
            if batch is None:
                return WriteReport(nodes_unchanged=len(nodes), seconds=time.perf_counter() - start)
            self._commit(batch)
            return replace(batch.report, seconds=time.perf_counter() - start)

    def delete(self, node_ids: Iterable[str] | str = (), edge_ids: Iterable[str] | str = ()) -> WriteReport:
        """Delete nodes (with every edge touching them) and edges by id; one str is one id."""
        start = time.perf_counter()
        nodes, edges = api_args.ids_to_delete(node_ids, edge_ids)
        with self._write_lock:
            self._become_writer()
            batch = plan_delete(self._live, nodes, edges, self._live.version + 1, self._items.edge_ids_touching)
            self._commit(batch)
            return replace(batch.report, seconds=time.perf_counter() - start)

    def _commit(self, batch: WriteBatch) -> None:
        self._still_the_writer()
        ch = batch.changes
        live = self._live
        keys = seen_versions.touched(live.nodes, live.edges, batch.node_rows, batch.edge_rows, batch.delete_nodes, batch.delete_edges)
        ch.seen_versions = seen_versions.record(live.seen_versions, keys, ch.version, live.version)
        self._items.write(
            ch.version,
            nodes=batch.node_rows,
            edges=batch.edge_rows,
            delete_nodes=batch.delete_nodes,
            delete_edges=batch.delete_edges,
            meta={seen_versions.META_KEY: ch.seen_versions},
        )
        with self._state_lock:  # publish: the next snapshot holds the whole batch
            self._live.apply(ch)
            self._snapshot = None
        if self._manifest.get("dim") != self._dim() and self._live.node_vectors:
            self._manifest = {**self._manifest, "dim": self._dim()}
            mf.write_manifest(self._path, self._manifest)
        if self._remote is not None:
            self._mirror(batch)

    def store_meta(self, key: Literal["calibration", "unfinished_runs"], value: str | Callable[[str], str]) -> None:
        """Keep what the index learned about itself (``calibration``) or which index runs are
        under way (``stores.run_marks``; a function is given the stored value, under the write
        lock). A writer's act, published like a write but without a new version."""
        with self._write_lock:
            self._become_writer()
            self._still_the_writer()
            new = value(getattr(self._live, key) or "") if callable(value) else value
            self._items.set_meta(key, new)
            with self._state_lock:
                setattr(self._live, key, new)
                self._snapshot = None

    def _still_the_writer(self) -> None:
        """A folder deleted or replaced says so first; then a lock file deleted under this writer."""
        self._items.check_file()
        self._lock.check()

    def _become_writer(self) -> None:
        """Take the write lock, reopen the database for writing, catch up, repair."""
        if self._closed:
            raise IndexClosedError(f"the index at {self._path} was closed; open it again with Index.open")
        if self._lock.held:
            return
        self._lock.acquire()
        try:
            writable = ItemStore(self._path / mf.DATABASE, writable=True, create=False)
            with self._refresh_lock:  # a query of another thread may be catching up on the old one
                read_only, self._items = self._items, writable
                read_only.close()
            changes = self._items.load(since=self._live.version, dim=self._dim())
            with self._state_lock:
                self._live.apply(changes)
                self._snapshot = None
            with self._refresh_lock:  # not while a reader of this process follows a move
                self._manifest = self._watch.taken_up(self._manifest)  # moved meanwhile? The lock held, none can follow
                self._remote = self._server()  # a writer's view: its own collections, created if need be
            with self._state_lock:
                self._snapshot = None
            self._reconcile()
        except BaseException:
            self._lock.release()
            raise

    def close(self) -> None:
        """Close the database and drop the write lock (if held)."""
        self._closed = True
        self._items.close()
        self._lock.release()

    @property
    def closed(self) -> bool:
        """Whether `close` was called (a ``with`` block's end calls it)."""
        return self._closed

    def __repr__(self) -> str:
        # What this handle holds, as last read: a repr reads nothing from disk.
        name, path = type(self).__name__, str(self._path)
        if self._closed:
            return f"<{name} {path!r}: closed>"
        role = "writer" if self._lock.held else "read-only"
        return f"<{name} {path!r}: {len(self._live.nodes)} nodes, {len(self._live.edges)} edges, {role}>"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["DEFAULT_EMBEDDED_EDGE_KINDS", "Index", "WriteReport"]
