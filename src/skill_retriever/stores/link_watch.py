"""Noticing that another process changed the server link ``index.json`` records.

``skill-retriever move-to-server`` (and ``index --chroma-url`` with another server)
rewrites ``index.json`` while other processes have the index open. A process that kept the
link it opened with would be wrong in every case: a reader would search collections the
move deleted (each query fails), or go on searching in memory while the index is on a
server; a process that becomes the writer afterwards would mirror its writes into
collections nobody reads any more, and record that old link in ``items.sqlite``.

So an open index keeps a :class:`LinkWatch`. A reader asks it at each snapshot
(:meth:`LinkWatch.follow`: one ``stat`` of ``index.json`` while the file is unchanged, read
again only when it was replaced); when the link changed, it opens a reader's view of the
new server, and only then takes the link up, so a server that cannot be reached is tried
again at the next snapshot (whose search fails meanwhile) instead of being skipped. A
process becoming the writer asks it once it holds the write lock, after which no other
process can move the index (:meth:`LinkWatch.taken_up`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.remote import reader_remote
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["LINK_FIELDS", "LinkWatch", "link_of"]

log = logging.getLogger("skill_retriever")

#: The manifest fields that say where an index's vectors are searched: the server and the
#: collections on it (their names and owner mark derive from these).
LINK_FIELDS = ("chroma_url", "collection_prefix", "index_id")


def link_of(manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """The server link a manifest records (an embedded index: no ``chroma_url``, "")."""
    return tuple(str(manifest.get(k) or "") for k in LINK_FIELDS)


def _stamp(file: str) -> tuple[int, int, int, int] | None:
    """What changes whenever the manifest is written (``write_atomic`` replaces the file,
    so its inode changes too); None when it is not there."""
    try:
        st = os.stat(file)
    except OSError:  # gone, or cannot be looked at now: nothing to follow
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


def _link_on_disk(path: Path) -> tuple[str, ...] | None:
    try:
        return link_of(mf.read_manifest(path))
    except IndexOpenError:  # none readable yet (a new index, a recovery): the first one read is news
        return None


class LinkWatch:
    """The server link of the index at ``path`` as this process last took it up."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._file = str(path / mf.MANIFEST)  # a str: stat'ed at every snapshot, joined once
        self._stamp = _stamp(self._file)
        self._link = _link_on_disk(path)
        self._pending: tuple[int, int, int, int] | None = None

    def moved(self) -> dict[str, Any] | None:
        """The manifest, when it records another server link than the one taken up;
        None when it does not (or cannot be read now: a half-done ``repair`` is not a move,
        and what is open goes on working)."""
        stamp = _stamp(self._file)
        if stamp is None or stamp == self._stamp:
            return None
        try:
            manifest = mf.read_manifest(self._path)
        except IndexOpenError:
            return None
        if link_of(manifest) == self._link:
            self._stamp = stamp  # rewritten for another reason (a corrected ``dim``)
            return None
        self._pending = stamp
        return manifest

    def wrote(self, manifest: Mapping[str, Any]) -> None:
        """This process wrote ``manifest`` to ``index.json`` itself: no move to follow."""
        self._stamp, self._link = _stamp(self._file), link_of(manifest)

    def accept(self, manifest: Mapping[str, Any]) -> None:
        """Take up ``manifest``'s link (the one :meth:`moved` returned), once the index
        opened its vector side from it."""
        self._stamp, self._link = self._pending, link_of(manifest)

    def follow(
        self, embedder: Embedder, live: LiveState, *, use_server: bool
    ) -> tuple[dict[str, Any], RemoteVectors | None] | None:
        """For a reader: when the link changed, the new manifest and a reader's view of its
        server (none without one, with ``use_server`` False, or while it does not answer:
        then ``live.in_memory_note`` says so, ``stores.server_down``; it creates nothing);
        None when it did not change.

        Raises:
            IndexCorruptError: The new server cannot be used; asked again, this tries again
                (the old vectors are never searched in silence meanwhile).
        """
        manifest = self.moved()
        if manifest is None:
            return None
        remote = reader_remote(manifest, embedder, self._path, live) if use_server else None
        self.accept(manifest)
        log.info(
            "[skill_retriever][index] %s was moved by another process: it now searches %s",
            self._path, manifest.get("chroma_url") or "its vectors in memory",
        )
        return manifest, remote

    def taken_up(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """For a process becoming the writer, under the write lock: the manifest it is to
        write through, the one on disk when another process moved the index since (its
        writes must go to the collections the index uses now), else ``manifest`` (which may
        name a ``chroma_url`` given when it was opened)."""
        moved = self.moved()
        if moved is None:
            return manifest
        self.accept(moved)
        return moved
