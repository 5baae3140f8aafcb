"""A Chroma server that mirrors an index's vectors: opening it, keeping it in step.

The writer mirrors each committed batch (``server_mirror.mirror``) and, when it takes the write
lock, brings the server in step (``server_mirror.sync_remote``): every vector the server lacks or
holds stale is copied (never re-embedded), every entry whose item is gone is deleted.
Only what ``items.sqlite`` accounts for is touched: the database is the source of truth.

Each collection is marked with the ``index_id`` of the index that owns it and the
directory that index lives in. ``cp -r`` copies the manifest (and so the id) but not the
directory, so a copy is told from its original: a writer of a copy refuses the original's
collections (its sync would delete the original's vectors), a reader of a copy searches
its own vectors in memory, and ``move-to-server`` deletes only collections this very
directory owned (``stores.server_moves``).

A reader searches the server only while its collections hold as many vectors as the
index (:class:`_InStep`: one count per index version): a writer killed between its commit
and its mirror, or an entry deleted on the server, would otherwise drop items from the
semantic channel without a word. Out of step, it warns and searches the index's vectors.
A collection gone from the server (its data wiped) is looked up again by name at each
such count: once ``repair`` has made it again and filled it, the reader searches it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.exceptions import (
    ConfigError,
    IndexCorruptError,
    IndexOpenError,
    ServerUnreachableError,
)
from skill_retriever.log_marks import SAID_IN_ANSWERS
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.in_memory_search import ReaderVectors
from skill_retriever.stores.left_collections import left_behind
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.manifest_server import manifest_server
from skill_retriever.stores.read_probe import read_probe_s
from skill_retriever.stores.repair_wait import while_writing
from skill_retriever.stores.server_dims import index_dim, other_model
from skill_retriever.stores.server_down import next_look, unreached_note
from skill_retriever.stores.server_drift import out_of_step
from skill_retriever.stores.server_errors import one_server, repair_command, server_error
from skill_retriever.stores.snapshot import RemoteVectors

__all__ = [
    "collection_names",
    "copy_of",
    "holds_original",
    "index_dir_of",
    "reader_remote",
    "remote_of",
    "same_server",
]

log = logging.getLogger("skill_retriever")

#: Seconds a reader that found its server out of step waits before counting again (a
#: writer copying a batch is done by then; one killed before copying never is), and before
#: looking up again a collection gone from the server (``repair`` may have made it again).
RECHECK_S = 10.0


def collection_names(manifest: Mapping[str, Any]) -> tuple[str, str]:
    """The node and edge collections a manifest names (``collection_prefix``)."""
    prefix = str(manifest.get("collection_prefix", "sr"))
    return f"{prefix}-nodes", f"{prefix}-edges"


def index_dir_of(path: Path) -> str:
    """The directory recorded on an index's collections: absolute and resolved, so that
    ``idx``, ``./idx`` and a symlink to it name one index, and a copy names another."""
    return str(path.resolve())


def same_server(a: object, b: object) -> bool:
    """Whether two ``chroma_url`` values name one server: :func:`server_errors.one_server`
    (case, a trailing slash and the default port aside; ``localhost`` and ``127.0.0.1``
    are one). One rule for every command: ``move-to-server`` judging two spellings as two
    servers left the previous collections on the very server it moved within."""
    return one_server(str(a).strip() if a else a, str(b).strip() if b else b)


def holds_original(recorded: str, manifest: Mapping[str, Any]) -> bool:
    """Whether ``recorded`` (the directory marked on collections) still holds the index
    ``manifest`` describes (same ``index_id``, collections and server): then another
    directory with that manifest is a copy of it. False when it holds no such index any
    more (the index was moved away with ``mv``, or moved to other collections since)."""
    try:
        theirs = mf.read_manifest(Path(recorded))
    except IndexOpenError:  # no index there (moved away), or none readable
        return False
    except OSError:  # cannot look (permissions): assume it is there, so nothing of it is touched
        return True
    return (
        bool(manifest.get("index_id"))
        and theirs.get("index_id") == manifest.get("index_id")
        and collection_names(theirs) == collection_names(manifest)
        and same_server(theirs.get("chroma_url"), manifest.get("chroma_url"))
    )


def copy_of(store: Any, manifest: Mapping[str, Any], here: str) -> str | None:
    """The directory of the index that ``here`` is a copy of, when ``store`` is that
    index's collection (same owner, recorded for a directory that still holds it)."""
    owner = manifest.get("index_id")
    recorded = store.owner_dir
    if not owner or store.owner != owner or not recorded or recorded == here:
        return None
    return str(recorded) if holds_original(str(recorded), manifest) else None


def remote_of(
    manifest: Mapping[str, Any], embedder: Embedder, *, path: Path, live: LiveState, writer: bool, warn: bool = True
) -> RemoteVectors | None:
    """The server a manifest names (``chroma_url``), or None.

    A writer creates the collections (marked with the manifest's ``index_id`` and this
    directory) and refuses collections that another index owns, that a directory this
    one was copied from owns, or unmarked ones holding ids this index never had (another
    index may share them: syncing would delete its vectors). Collections whose directory
    no longer holds their index (it was moved with ``mv``), or marked before collections
    recorded a directory, are marked as this directory's. A reader creates nothing:
    when the collections are missing, belong to another index or to the index this one
    is a copy of, or hold another number of vectors than the index, it warns and searches
    the vectors it holds in memory instead (returns None); collections it searches fall
    back to those vectors for any later version the server is out of step with. ``warn``
    False logs why at INFO only (a reader looking again: ``stores.server_retake``).

    Raises:
        ServerAddressError: ``chroma_url`` is not a Chroma server address (a ConfigError).
        ServerUnreachableError: Nothing answers at the server (the index is not damaged).
        IndexCorruptError: The server cannot be used, or (a writer) the collections are
            another index's, or this index is a copy of theirs.
    """
    # What this call decides replaces what the last one did, set once decided: a snapshot
    # frozen meanwhile (a reader looking again) keeps the last note, not none.
    url = manifest_server(manifest, path)
    if not url:
        live.in_memory_note = ""
        return None
    from skill_retriever.stores.chroma_connect import chroma_client
    from skill_retriever.stores.vectors import ChromaVectorStore

    owner = str(manifest.get("index_id") or "") or None
    names = collection_names(manifest)
    here = index_dir_of(path)
    probe_s = None if writer else read_probe_s()  # a read answers from memory soon (stores.read_probe)
    try:
        client = chroma_client(url, probe_s=probe_s)
        if writer:
            stores = [
                ChromaVectorStore(
                    client, n, embedder, create=True, owner=owner, owner_dir=here, url=url, index_dir=str(path)
                )
                for n in names
            ]
        else:
            from chromadb.errors import NotFoundError

            stores, missing = [], []
            for n in names:
                try:
                    stores.append(ChromaVectorStore(client, n, embedder, create=False, url=url, index_dir=str(path)))
                except NotFoundError:
                    missing.append(n)
            if missing:  # name only what is gone: the other collection may be there
                live.in_memory_note = _warn(path, url, f"has no collection {' or '.join(missing)} for this index", warn)
                return None
    except (ConfigError, IndexOpenError):
        raise
    except Exception as exc:  # Chroma fails in many types (connection, HTTP, value errors)
        raise server_error(url, exc) from exc  # down: ServerUnreachableError (not damage)
    remote = RemoteVectors(stores[0], stores[1])
    if writer:
        _claim(stores, (live.nodes, live.edges), manifest, path, url, index_dim(manifest, live))
        live.in_memory_note = ""
        return remote
    return remote if _usable(stores, manifest, live, path, url, warn) else None


def reader_remote(manifest: dict[str, Any], embedder: Embedder, path: Path, live: LiveState) -> RemoteVectors | None:
    """A reader's view of the manifest's server (:func:`remote_of`); None, with
    ``live.in_memory_note`` set and warned, while the server does not answer: reads search
    the index's own vectors in memory meanwhile (``stores.server_down``).

    Raises:
        ServerAddressError / IndexCorruptError: As :func:`remote_of`: no address, or a
            server that answers but cannot be used.
    """
    try:
        return remote_of(manifest, embedder, path=path, live=live, writer=False)
    except ServerUnreachableError as exc:
        live.in_memory_note = unreached_note(path, exc)
        log.warning("[skill_retriever][index] %s", live.in_memory_note, extra=SAID_IN_ANSWERS)
        return None


def _said(path: Path, url: str, problem: str) -> str:
    return (f"the Chroma server at {url} {problem}; searching the vectors of {path} held in memory "
            f"instead: run `{repair_command(path, url)}` to copy them to the server{while_writing(path)}")


def _warn(path: Path, url: str, problem: str, loud: bool = True) -> str:
    log.log(logging.WARNING if loud else logging.INFO, "[skill_retriever][index] %s", said := _said(path, url, problem),
            extra=SAID_IN_ANSWERS)
    return said


def _copy_message(path: Path, original: str, names: list[str], url: str) -> str:
    return (
        f"{path} is a copy of the index at {original}, which owns the collections {' and '.join(names)} on "
        f"{url} (a copied directory keeps its original's collection names and index_id; writing through "
        f"them would change {original}'s vectors); give the copy collections of its own with "
        f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
    )


def _usable(stores: list[Any], manifest: Mapping[str, Any], live: LiveState, path: Path, url: str, warn: bool) -> bool:
    """Whether a reader may search the server's collections (else it warns, when ``warn``)."""
    check = _InStep(stores, manifest, live, path, url, quiet=not warn)
    live.in_memory_note = "" if check.in_step() else check.said
    if live.in_memory_note:
        return False
    for store, nodes in zip(stores, (True, False), strict=True):
        store.fallback = ReaderVectors(check, live, nodes=nodes)
    return True


def _not_ours(stores: list[Any], manifest: Mapping[str, Any], path: Path, url: str, live: LiveState) -> str:
    """Why a reader may not search these collections, and what to do ("" when it may):
    another index's (`repair` refuses them too), another model's vectors, the original's
    of a copy, or those ``move-to-embedded`` left (``stores.left_collections``). Reads
    only what the collections' handles and ``items.sqlite`` hold: no request."""
    if other := other_model(stores, index_dim(manifest, live), path, url):
        return f"{other}; until then it searches the vectors of {path} held in memory"
    if left := left_behind(path, collection_names(manifest), url):
        return left
    owner = manifest.get("index_id")
    for store in stores:
        if owner and store.owner and store.owner != owner:
            return (
                f"the Chroma server at {url} keeps {store.name} for another index ({store.owner}); searching the "
                f"vectors of {path} held in memory instead: give it collections of its own with "
                f"`{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
            )
    here = index_dir_of(path)
    for store in stores:
        if original := copy_of(store, manifest, here):
            return (
                f"{_copy_message(path, original, [s.name for s in stores], url)}; until then it searches the "
                f"vectors of {path} held in memory"
            )
    return ""


def _moved_away(path: Path, manifest: Mapping[str, Any]) -> bool:
    """Whether ``index.json`` names other collections now than ``manifest`` (``move-to-server``)."""
    try:
        return collection_names(mf.read_manifest(path)) != collection_names(manifest)
    except (IndexOpenError, OSError):  # none readable: judged by the collections alone
        return False


def _held(live: LiveState) -> tuple[int, int]:
    """How many node and edge vectors a server in step holds (what :func:`sync_remote` copies)."""
    nodes, edges = dict(live.nodes), dict(live.edges)  # copies: a catch-up may change them meanwhile
    return sum(1 for i in list(live.node_vectors) if i in nodes), sum(1 for i in list(live.edge_vectors) if i in edges)


class _InStep:
    """Whether a reader may search its server's collections: they are this index's and hold
    its vectors, judged by their count: one count per collection for each index version (a
    reader in step pays nothing more per query), again every :data:`RECHECK_S` while out of
    step, and at once when a search finds a collection gone (:meth:`lost`); a collection
    gone is looked up again by name at each count (``ChromaVectorStore.count_found``). It
    warns once a version, and again when the problem changes. A server that does not
    answer (a search or a count found it down) is searched in memory too, and asked again
    at :func:`server_down.next_look` (:attr:`unreached` says so)."""

    def __init__(
        self, stores: list[Any], manifest: Mapping[str, Any], live: LiveState, path: Path, url: str, *, quiet: bool = False
    ) -> None:
        self._stores, self._manifest, self._live, self._path, self._url = stores, manifest, live, path, url
        self._quiet = quiet  # the first count's problem at INFO: the caller said it already
        self._lock = threading.Lock()
        self._version, self._ok, self._next = -1, True, 0.0
        self._warned: tuple[int, str] | None = None
        self.said = ""  # why it is out of step, as warned (for an answer's warnings: stores.search_notes)
        self.unreached, self._failed = "", 0  # the server did not answer: why (the answers' warning); how often in a row

    def _current(self) -> bool:
        return self._live.version == self._version and (self._ok or time.monotonic() < self._next)

    def lost(self) -> None:
        """A search found a collection gone: count (and look it up) again at the next check,
        unless another thread looked within the last :data:`RECHECK_S` and found it gone too."""
        with self._lock:
            if self._ok:
                self._version = -1

    def down(self, exc: ServerUnreachableError) -> None:
        """A search found the server down: search in memory until the next look."""
        with self._lock:
            self._down(exc)

    def _down(self, exc: ServerUnreachableError) -> bool:
        self._failed += 1
        self._version, self._ok, self._next = self._live.version, False, next_look(self._failed, RECHECK_S)
        said, self.said = self.said, unreached_note(self._path, exc)
        self.unreached = self.said
        loud = said != self.said and not self._quiet  # said once, not at each look that finds it down still
        log.log(logging.WARNING if loud else logging.INFO, "[skill_retriever][index] %s", self.said, extra=SAID_IN_ANSWERS)
        return False

    def in_step(self) -> bool:
        if self._current():
            return self._ok
        from skill_retriever.stores.chroma_connect import answers_within

        with self._lock:
            if self._current():  # another thread counted meanwhile
                return self._ok
            version = self._live.version
            try:  # a paused server: found down after the read probe, not the request timeout a count waits
                answers_within(self._url, read_probe_s())
                have = [s.count_found() for s in self._stores]
            except ServerUnreachableError as exc:
                return self._down(exc)
            self.unreached, self._failed = "", 0
            # Looked at after the count: a collection made again may be another index's.
            foreign = _not_ours(self._stores, self._manifest, self._path, self._url, self._live)
            problem = foreign or out_of_step([s.name for s in self._stores], have, _held(self._live))
            self._version, self._ok, self._next = version, not problem, time.monotonic() + RECHECK_S
            self.said = foreign or (_said(self._path, self._url, problem) if problem else "")
            if problem and None in have and _moved_away(self._path, self._manifest):
                # `move-to-server` deleted them after this snapshot: its answers stand, the next follows the move
                log.info("[skill_retriever][index] %s moved to other collections; this snapshot searches in memory", self._path)
            elif problem and self._warned != (version, problem):
                self._warned = (version, problem)
                if foreign:
                    log.log(logging.INFO if self._quiet else logging.WARNING, "[skill_retriever][index] %s", foreign)
                else:
                    _warn(self._path, self._url, problem, not self._quiet)
            self._quiet = False
            return self._ok


def _claim(
    stores: list[Any], known: tuple[Mapping[str, Any], ...], manifest: Mapping[str, Any], path: Path, url: str,
    dim: int | None,
) -> None:
    """Refuse another index's collections, another model's (vectors of another length than
    ``dim``) and the original's collections of a copy; mark
    as this directory's the ones it owns (moved here, or marked before directories were
    recorded) and unmarked ones holding nothing foreign. Every check runs before any mark,
    so a refusal changes nothing on the server."""
    if other := other_model(stores, dim, path, url):
        raise IndexCorruptError(other)
    owner = str(manifest.get("index_id") or "") or None
    here = index_dir_of(path)
    move = f"give {path} collections of its own with `{command(['move-to-server', '--index-dir', path, '--chroma-url', url])}`"
    to_mark: list[Any] = []
    for store, ids in zip(stores, known, strict=True):
        if owner and store.owner == owner:
            original = copy_of(store, manifest, here)
            if original:
                raise IndexCorruptError(_copy_message(path, original, [s.name for s in stores], url))
            if store.owner_dir != here:
                if store.owner_dir:
                    log.info("[skill_retriever][index] %s moved from %s: marking %s as its own", path, store.owner_dir, store.name)
                to_mark.append(store)
            continue
        if store.owner:
            raise IndexCorruptError(
                f"the collection {store.name} on {url} belongs to another index ({store.owner}), and syncing "
                f"it would delete that index's vectors; {move}"
            )
        foreign = sum(1 for i in store.all_ids_and_hashes() if i not in ids)
        if foreign:
            raise IndexCorruptError(
                f"the collection {store.name} on {url} holds {foreign} vector(s) that {path} never had and is "
                f"not marked as its own (another index may share it; syncing would delete them); {move}"
            )
        if owner:
            to_mark.append(store)
    for store in to_mark:
        assert owner is not None
        store.claim(owner, here)
