"""The part of `Index` that decides which Chroma server a process searches through: a
writer's own collections, a reader's view of them (``stores.remote``), and when a reader
looks at its server again: at each snapshot, after its items, it follows a move another
process made (``stores.link_watch``), else asks a server it searches in memory for want of
again when due (``stores.server_retake``). Kept apart from ``stores.index`` so that module
holds the open, read and write path alone.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores import opening
from skill_retriever.stores.link_watch import LinkWatch
from skill_retriever.stores.remote import reader_remote, remote_of
from skill_retriever.stores.server_retake import ServerRetake
from skill_retriever.stores.server_sync import ServerSync
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["ServerView"]


class ServerView(ServerSync):
    """Mixed into `Index`, whose state below it reads and changes (under ``_state_lock``)."""

    _manifest: dict[str, Any]
    _use_server: bool
    _watch: LinkWatch
    _retake: ServerRetake

    def _server(self) -> RemoteVectors | None:
        """The manifest's Chroma server, seen as this process's role (reader or writer)."""
        if not self._use_server or not self._manifest.get("chroma_url"):
            return None
        if self._lock.held and not self._manifest.get("index_id"):  # written before indexes had ids
            self._manifest = opening.give_index_id(self._path, self._manifest, self._watch)
        if not self._lock.held:  # a reader searches in memory while its server does not answer
            try:
                return reader_remote(self._manifest, self._embedder, self._path, self._live)
            finally:
                self._retake.asked()
        return self._searched_by_writer(remote_of(self._manifest, self._embedder, path=self._path, live=self._live, writer=True))

    def _look_again(self) -> None:
        """A reader, after catching up with the items (under ``_refresh_lock``, never while
        this process holds the write lock): follow a move another process made, else ask
        again the server it searches in memory for want of, when due."""
        if not self._lock.held and (moved := self._watch.follow(self._embedder, self._live, use_server=self._use_server)):
            self._retake.asked()  # the move's server was asked just now
            with self._state_lock:
                (self._manifest, self._remote), self._snapshot = moved, None
        elif self._use_server and self._retake.due(self._live, self._remote):  # its server back?
            found, anew = self._retake.look(self._manifest, self._embedder, self._path, self._live)
            if anew:
                with self._state_lock:
                    self._remote, self._snapshot = found, None
