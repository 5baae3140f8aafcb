"""Opening an index directory's files, and what a load checks against its manifest.

- A new index: ``items.sqlite`` first, ``index.json`` last (a directory with a manifest
  is an index), the embedder's name recorded in both.
- An existing index: its manifest names the embedder; a missing ``items.sqlite`` is
  reported with advice that works (a new directory).
- ``index.json`` gone beside a readable ``items.sqlite``: a reader says so and points at ``repair``;
  a writer (repair) recreates the manifest from the items, with the Chroma server link they record
  (``stores.server_link``; never in a copy of the directory that recorded it), unless given one.
- ``index.json`` garbage beside a readable ``items.sqlite``: every open says so and points at
  ``skill-retriever repair``, which sets it aside (``stores.lost_manifest``, re-exported here:
  nothing is lost) and so recreates it as for a missing one. An open alone never moves it.
- The vector length the manifest names (``dim``) is checked against the stored vectors: a reader
  refuses a manifest that disagrees; a writer corrects it when the embedder agrees with them
  (``stores.vector_checks``, re-exported here).
- A reader that finds no manifest while an index run is creating the directory is told so
  (``manifest.creation_under_way``); one whose manifest names another model than the items
  record gets, if that model fails to load, the fix (``stores.recorded_model``).
- A writer given another server's ``chroma_url`` moves there in fresh collections (``server_choice``).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.exceptions import (
    IndexCorruptError,
    IndexLocationError,
    IndexNotFoundError,
)
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.chroma_connect import check_chroma_server
from skill_retriever.stores.embedder import Embedder, embedder_for, embedder_of_index
from skill_retriever.stores.index_words import point_at
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.link_watch import LinkWatch
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.lost_manifest import (
    holds_items,
    not_ours,
    put_back_manifest,
    refuse_damaged_manifest,
    set_aside_damaged_manifest,
)
from skill_retriever.stores.recorded_model import EMBEDDER_KEY, Recorded
from skill_retriever.stores.server_choice import checked_url, record_switch, switch_target, switched
from skill_retriever.stores.server_link import recorded_link, remember, restored
from skill_retriever.stores.unfinished_schema import unfinished_schema
from skill_retriever.stores.vector_checks import settle_dim, warn_unusable

log = logging.getLogger("skill_retriever")

__all__ = [
    "EMBEDDER_KEY", "Opened", "Recovery", "finish_recovery", "open_files", "put_back_manifest",
    "record_identity", "set_aside_damaged_manifest", "settle_dim", "warn_unusable",
]

#: Files a half-created index directory may hold (a create killed before its manifest).
CREATION_LEFTOVERS = mf.CREATION_LEFTOVERS


@dataclass(frozen=True, slots=True)
class Recovery:
    """A manifest being recreated from the items: what became of the index's Chroma server
    link (``stores.server_link``), said when the manifest is written ("": nothing to say)."""

    server: str = ""


#: What :func:`open_files` returns: the manifest, the embedder, the items database, and
#: whether the manifest is being recreated (the caller writes it once the vectors are read).
Opened = tuple[dict[str, Any], Embedder, ItemStore, Recovery | None]


def open_files(
    path: Path, lock: WriterLock, embedder: Embedder | None, *, create: bool, writable: bool, chroma_url: str | None
) -> Opened:
    """Open (or, with ``create``, make) the index files at ``path``.

    Raises:
        IndexNotFoundError / IndexCorruptError: No index there (and not ``create``) / damaged.
        ConfigError: ``embedder`` is not the model the index was built with, or
            ``chroma_url`` is not a Chroma server address.
    """
    if chroma_url is not None:
        checked_url(chroma_url)  # before index.json could remember it
    if not (path / mf.MANIFEST).exists():
        if not (writable or create) and (building := mf.creation_under_way(path)):
            raise IndexNotFoundError(building)  # not "no index" nor "repair": it is on its way
        if (path / mf.DATABASE).is_file() and (writable or create or holds_items(path)):
            if (stopped := mf.creation_stopped(path)) and unfinished_schema(path / mf.DATABASE):
                if create:  # nothing there to lose (`stores.unfinished_schema`)
                    return _create(path, lock, embedder, chroma_url, start_over=True)
                raise IndexNotFoundError(stopped)  # not "repair" nor "other tables": `index` starts it over
            if not (writable or create):
                raise IndexCorruptError(f"{path} holds the index's items ({mf.DATABASE}) but its {mf.MANIFEST} "
                                        f"is missing; recreate it from the items with `{command(['repair'], path)}`")
            if why := not_ours(path / mf.DATABASE, empty_ok=create):  # before the lock writes anything
                raise IndexNotFoundError(
                    f"no index at {path}: there is no {mf.MANIFEST}, and its {mf.DATABASE} is {why}, not a "
                    f"skill-retriever index's; nothing there was changed; {point_at('an index, or at a new folder')}"
                )
            return _recover(path, lock, embedder, create=create, chroma_url=chroma_url)
        if create:
            return _create(path, lock, embedder, chroma_url)
    try:
        manifest = mf.read_manifest(path)
    except IndexCorruptError:
        refuse_damaged_manifest(path)  # with advice that keeps the items, where it applies
        raise
    given = embedder is not None
    embedder = embedder or embedder_of_index(str(manifest.get("embedder") or ""), path)
    mf.check_embedder(manifest, embedder.name, path)
    if not (path / mf.DATABASE).exists():
        raise IndexCorruptError(
            f"{path / mf.DATABASE} is missing: the index's items are gone; rebuild them into a new directory "
            f"with `skill-retriever index <sources> --index-dir <new directory>` (or move {path} aside first)"
        )
    other = switch_target(manifest, chroma_url, writable=writable)  # a writer's is checked: it must answer
    if writable:
        lock.acquire()
    items = _items(path, lock, create=False)
    if not given and (recorded := items.get_meta(EMBEDDER_KEY)) and recorded != embedder.name:
        embedder = Recorded(embedder, recorded, path)  # a hand-edited manifest: its load error says so
    if other:  # a writer's goes to index.json once its collections there are open (record_identity)
        manifest = switched(manifest, other, writer=lock.held)
    return manifest, embedder, items, None


def _items(path: Path, lock: WriterLock, *, create: bool) -> ItemStore:
    try:
        return ItemStore(path / mf.DATABASE, writable=lock.held, create=create)
    except BaseException:
        lock.release()
        raise


def _create(
    path: Path, lock: WriterLock, embedder: Embedder | None, chroma_url: str | None, *, start_over: bool = False
) -> Opened:
    if path.exists() and not path.is_dir():
        raise IndexLocationError(f"{path} is a file, not an index directory; choose a directory")
    if path.exists() and any(p.name not in CREATION_LEFTOVERS for p in path.iterdir()):
        raise IndexLocationError(f"{path} exists and holds other files; choose an empty or new directory")
    asked = embedder
    embedder = embedder or embedder_for(None)
    _ = embedder.dim  # loads it: a model that cannot load must not be named in a new manifest
    if chroma_url:  # nor a server that cannot be used (the folder would fail every command)
        check_chroma_server(chroma_url)
    made = _make_directory(path)
    try:
        lock.acquire()
    except BaseException:
        _remove_made(path, made)
        raise
    if (path / mf.MANIFEST).exists():
        # Another run made the index while this one waited for the lock (`--lock-wait`):
        # open that one. Created again, its index.json was written anew (another collection
        # prefix: the first run's vectors in collections the index no longer named).
        lock.release()
        return open_files(path, lock, asked, create=False, writable=True, chroma_url=chroma_url)
    try:
        if start_over:
            _start_over(path)
        manifest = mf.new_manifest(embedder.name)
        if chroma_url:
            manifest["chroma_url"] = chroma_url
        items = _items(path, lock, create=True)
    except BaseException:
        _remove_made(path, made)
        raise
    try:
        items.set_meta(EMBEDDER_KEY, embedder.name)
        remember(items, manifest, path, on_server=True)  # its collections are made for this directory
        mf.write_manifest(path, manifest)  # last: a directory with a manifest is an index
    except BaseException:
        items.close()
        lock.release()
        _remove_made(path, made)
        raise
    return manifest, embedder, items, None


def _start_over(path: Path) -> None:
    """Delete the database a create stopped part way left, holding no row (checked again
    now that this run holds the lock), and say so: the create that follows makes a new one."""
    if not unfinished_schema(path / mf.DATABASE):
        return
    for name in (mf.DATABASE, f"{mf.DATABASE}-wal", f"{mf.DATABASE}-shm"):
        (path / name).unlink(missing_ok=True)
    log.warning(
        "[skill_retriever][index] %s held only the start of an index that a run stopped before its first write "
        "(some of the tables of %s, no row in them, no %s): started it over", path, mf.DATABASE, mf.MANIFEST,
    )


def _make_directory(path: Path) -> Path | None:
    """Make the index directory (and the folders above it); the topmost folder made, None
    when the directory was there.

    Raises:
        IndexLocationError: It cannot be made (a file on the way, no such device, no rights).
    """
    if path.is_dir():
        return None
    top = next(p for p in reversed((path, *path.parents)) if not p.exists())
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in path.parents if p.exists()), None)
        why = (
            f"{blocker} is a file, not a directory"
            if blocker is not None and not blocker.is_dir()
            else exc.strerror or str(exc)
        )
        raise IndexLocationError(
            f"cannot create the index directory {path}: {why}; choose a directory that can be created"
        ) from exc
    return top


def _remove_made(path: Path, top: Path | None) -> None:
    """Undo a create that failed before its manifest: the directories it made (``top`` and
    those below it down to ``path``) go, with the files the create left in ``path``, as long
    as nothing else is in them. A directory that was there is left as it was found."""
    if top is None:
        return
    for name in CREATION_LEFTOVERS:
        (path / name).unlink(missing_ok=True)
    folder = path
    while folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:  # something else is in it: not only this create's
            return
        folder = folder.parent


def _recover(path: Path, lock: WriterLock, embedder: Embedder | None, *, create: bool, chroma_url: str | None) -> Opened:
    """A writer's open of items whose manifest is gone: the embedder is the one the items
    record (else the one given, else the default), the Chroma server the one they record
    (``stores.server_link``: never in a copy of the index that recorded it) unless
    ``chroma_url`` is given."""
    lock.acquire()
    items = _items(path, lock, create=create)
    try:
        recorded = items.get_meta(EMBEDDER_KEY)
        embedder = embedder or (embedder_of_index(recorded, path) if recorded else embedder_for(None))
        if recorded:
            mf.check_embedder({"embedder": recorded}, embedder.name, path)
        manifest, said = restored(path, mf.new_manifest(embedder.name), recorded_link(items), chroma_url)
    except BaseException:
        items.close()
        lock.release()
        raise
    return manifest, embedder, items, Recovery(said)


def finish_recovery(
    path: Path, manifest: dict[str, Any], embedder: Embedder, dim: int, live: LiveState, recovery: Recovery | None = None
) -> dict[str, Any]:
    """Write the recreated manifest once the stored vectors are read (``dim``: their length),
    and say what was done, with what became of the server link (``recovery``).

    Raises:
        IndexCorruptError: The vectors are not the embedder's (another model built them).
    """
    if dim and embedder.dim != dim:
        raise IndexCorruptError(
            f"{path / mf.MANIFEST} is missing and {path / mf.DATABASE} holds vectors of {dim} numbers, but the "
            f"embedder {embedder.name} makes {embedder.dim}: another model built them; open the index with that "
            "model, or rebuild it into a new directory with `skill-retriever index <sources> --index-dir <new directory>`"
        )
    manifest = {**manifest, **({"dim": dim} if dim else {})}
    mf.write_manifest(path, manifest)
    if live.nodes:  # not a create killed before its manifest: say what was done
        log.warning(
            "[skill_retriever][index] recreated %s from its %d items and %d relations (embedder %s)%s",
            path / mf.MANIFEST, len(live.nodes), len(live.edges), embedder.name,
            f"; {recovery.server}" if recovery and recovery.server else "",
        )
    return manifest


def record_identity(items: ItemStore, embedder: Embedder, manifest: dict[str, Any], path: Path, *, on_server: bool) -> None:
    """A writer's record, in the items, of what a lost manifest is recreated from: the
    embedder's name and the Chroma server link (``on_server``: its collections are this
    directory's; see :func:`stores.server_link.remember`), and in ``index.json`` the server
    an open switched it to (``stores.server_choice``), now that its collections are open."""
    if items.get_meta(EMBEDDER_KEY) is None:
        items.set_meta(EMBEDDER_KEY, embedder.name)
    record_switch(path, manifest, on_server=on_server)
    remember(items, manifest, path, on_server=on_server)


def give_index_id(path: Path, manifest: dict[str, Any], watch: LinkWatch) -> dict[str, Any]:
    """``index.json`` with an ``index_id``, written (an index made before indexes had ids,
    given one by its writer: a server's collections are named after it)."""
    manifest = {**manifest, "index_id": uuid.uuid4().hex}
    mf.write_manifest(path, manifest)
    watch.wrote(manifest)
    return manifest
