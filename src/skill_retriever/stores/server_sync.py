"""The part of `Index` that brings its vectors and its Chroma server in step with its items.

A writer runs :meth:`ServerSync._reconcile` when it takes the write lock (every item
gets its vector, migrated else embedded, and the server gets what it lacks) and
:meth:`ServerSync._mirror` after each commit (the batch, or all the server lacks once a
write of this process failed to reach it: ``stores.mirror_failure``). A collection gone
from the server under a writer (deleted, or the server's data wiped, or a fresh server at
the same address) is made again and filled from ``items.sqlite``, the index's truth, as
``repair`` would: the writer holds the lock, so no move can have taken the index elsewhere,
and before, it failed on every write until reopened. A search through the writer that finds
them gone does the same (``stores.writer_search``: it raised, advising a `repair` the lock
refused). Kept apart from ``stores.index`` so that module holds the open, read and write
path alone.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from skill_retriever.model import EdgeKind
from skill_retriever.stores import opening
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.mirror_failure import mirror_failed
from skill_retriever.stores.remote import collection_names
from skill_retriever.stores.repair import missing_vectors
from skill_retriever.stores.server_mirror import mirror, sync_remote
from skill_retriever.stores.snapshot import IndexSnapshot, RemoteVectors
from skill_retriever.stores.vectors import CollectionGone
from skill_retriever.stores.writer import WriteBatch
from skill_retriever.stores.writer_search import GoneUnderWriter, WriterDown

__all__ = ["ServerSync"]

log = logging.getLogger(__name__)


class ServerSync:
    """Mixed into `Index`, whose state below it reads and changes (under ``_state_lock``)."""

    _path: Path
    _embedder: Embedder
    _manifest: dict[str, Any]
    _items: ItemStore
    _remote: RemoteVectors | None
    _live: LiveState
    _state_lock: threading.Lock
    _refresh_lock: threading.Lock
    _write_lock: threading.RLock
    _lock: WriterLock
    _closed: bool
    _snapshot: IndexSnapshot | None
    _behind: bool
    embedded_edge_kinds: frozenset[EdgeKind]
    repaired: dict[str, int]
    #: Why this writer's searches run in memory: a search found its collections gone while
    #: a write of this process held the lock ("" while the server holds them).
    _gone_note = ""
    _gone_fallbacks: tuple[GoneUnderWriter, GoneUnderWriter] | None = None
    #: Whether this writer's server answers its searches (``stores.writer_search``).
    _server_down: WriterDown | None = None

    def _dim(self) -> int:
        raise NotImplementedError  # Index's

    def _server(self) -> RemoteVectors | None:
        raise NotImplementedError  # Index's

    def _reconcile(self) -> None:
        """Give every item its vector (migrated, else embedded) and bring a Chroma server
        in step. Runs in the writer only, so it never races another process."""
        opening.record_identity(self._items, self._embedder, self._manifest, self._path, on_server=self._remote is not None)
        nodes, edges = missing_vectors(
            self._live, self.embedded_edge_kinds, self._embedder, self._path, self._manifest, self._dim()
        )
        self.repaired = {"nodes": len(nodes), "edges": len(edges), "server": 0, "server_deleted": 0}
        if nodes or edges:
            self._items.set_vectors(
                [(i, v.vector) for i, v in nodes.items()], [(i, v.vhash, v.vector) for i, v in edges.items()]
            )
            with self._state_lock:  # the items did not change: no new version
                self._live.node_vectors.update(nodes)
                self._live.edge_vectors.update(edges)
                self._live.unusable_nodes.difference_update(nodes)
                self._live.unusable_edges.difference_update(edges)
                self._snapshot = None
        if self._remote is not None:
            done = sync_remote(self._live, self._remote)
            if self._behind:  # whatever a write of this process missed is there now
                with self._state_lock:
                    self._behind, self._snapshot = False, None
            self.repaired.update(server=done["copied"], server_deleted=done["deleted"])

    def _mirror(self, batch: WriteBatch) -> None:
        assert self._remote is not None
        try:  # after a write the server missed, all it lacks (this batch too), else this batch
            try:
                sync_remote(self._live, self._remote) if self._behind else mirror(self._remote, batch.changes, self._live)
            except CollectionGone:
                self._make_collections_again()
        except Exception as exc:  # a server fails in many types; the commit itself stands
            with self._state_lock:
                self._behind, self._snapshot = True, None
            raise mirror_failed(self._path, self._manifest.get("chroma_url"), exc) from exc
        if self._server_down is not None:  # the server took this write: it answers searches too
            self._server_down.answered()
        if self._behind:
            with self._state_lock:
                self._behind, self._snapshot = False, None

    def _searched_by_writer(self, remote: RemoteVectors | None) -> RemoteVectors | None:
        """``remote``, whose collections, when this process is the writer, a search that
        finds them gone makes again (``stores.writer_search``)."""
        if remote is not None and self._lock.held:
            if self._gone_fallbacks is None:
                down = self._server_down = WriterDown(self._path)
                self._gone_fallbacks = (
                    GoneUnderWriter(self, self._live, nodes=True, down=down),
                    GoneUnderWriter(self, self._live, nodes=False, down=down),
                )
            for store, fallback in zip((remote.nodes, remote.edges), self._gone_fallbacks, strict=True):
                store.fallback = fallback  # type: ignore[attr-defined]  # a ChromaVectorStore's
        return remote

    @property
    def gone_note(self) -> str:
        return self._gone_note

    def count_on_server(self) -> None:
        """One count on the server: raises ``ServerUnreachableError`` while it does not answer."""
        remote = self._remote
        if remote is None:
            return
        try:
            remote.nodes.count()
        except CollectionGone:  # it answered: a search finds the collection gone and makes it again
            return

    def collections_again(self) -> str:
        """A search found a collection gone: make them again unless a write of this process
        holds the lock. "" once they are made (or the index is closed: the search raises
        CollectionGone), else why it searches in memory."""
        if not self._write_lock.acquire(blocking=False):
            if not self._gone_note:
                names = " and ".join(collection_names(self._manifest))
                self._gone_note = (
                    f"the Chroma server at {self._manifest.get('chroma_url')} lost the collections {names} of the index at "
                    f"{self._path} (deleted, its data wiped, or a fresh server at that address): vector search ran on the "
                    "index's own vectors in memory while a write of this process was under way; the next search or write "
                    "makes them again from items.sqlite"
                )
            return self._gone_note
        try:
            if self._closed:  # the lock is free: CollectionGone's advice, `repair`, works now
                return ""
            remote = self._remote
            if remote is not None:
                try:  # made again meanwhile (by a write, or another search)?
                    remote.nodes.count()
                    remote.edges.count()
                except CollectionGone:
                    self._make_collections_again()
            self._gone_note = ""
            return ""
        finally:
            self._write_lock.release()

    def _make_collections_again(self) -> None:
        """Make the writer's collections again (a writer's view creates them) and copy
        every vector of the items there; any failure is the mirror's (the caller's)."""
        with self._refresh_lock:  # as at the writer's open: not while a reader follows a move
            remote = self._server()
        assert remote is not None  # the manifest named a server a moment ago, and cannot change under the lock
        done = sync_remote(self._live, remote)
        with self._state_lock:  # the server holds all now, a write it missed too
            self._remote, self._snapshot, self._behind, self._gone_note = remote, None, False, ""
        log.warning(
            "[skill_retriever][index] the Chroma server at %s lost a collection of the index at %s (deleted, its "
            "data wiped, or a fresh server at that address); items.sqlite holds every vector, so this writer made "
            "them again (%s) and copied its %d vectors there",
            self._manifest.get("chroma_url"), self._path, " and ".join(collection_names(self._manifest)), done["copied"],
        )
