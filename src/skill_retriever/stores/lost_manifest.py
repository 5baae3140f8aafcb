"""An index directory whose ``index.json`` is missing or garbage: what its ``items.sqlite`` is,
the advice an open gives for a garbage manifest, and ``repair``'s setting that one aside.

Its own module because these read a directory before any open of it has decided what it
is (``stores.opening`` asks them first): whether ``items.sqlite`` holds an index's items
(:func:`holds_items`), or is no index's at all (:func:`not_ours`), decides between "no
index here", "repair it" and a create; and a garbage manifest beside items is set aside,
never deleted (:func:`set_aside_damaged_manifest`), so that nothing is lost.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import time
from pathlib import Path

from skill_retriever.advice import command
from skill_retriever.exceptions import IndexCorruptError, IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.lock import WriterLock

log = logging.getLogger("skill_retriever")

__all__ = ["holds_items", "not_ours", "put_back_manifest", "refuse_damaged_manifest", "set_aside_damaged_manifest"]


def holds_items(path: Path) -> bool:
    """Whether ``items.sqlite`` holds written items: not the leftover of a create killed
    (or still running) before its manifest, which is no index yet ("no index at")."""
    try:
        items = ItemStore(path / mf.DATABASE, writable=False)
    except IndexOpenError:  # empty, half-created or foreign: there is no index here to recover
        return False
    try:
        return items.get_meta("version") is not None
    finally:
        items.close()


def not_ours(database: Path, *, empty_ok: bool) -> str | None:
    """Why ``database``, found without a manifest beside it, is not one an index wrote
    (None when it is, or may be): not SQLite, or SQLite of other tables. An empty file is
    what a create killed at once leaves: ours for a create (``empty_ok``), not for repair."""
    try:
        with database.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not head:
        return None if empty_ok else "an empty file"
    if head != b"SQLite format 3\x00":
        return "not an SQLite database"
    try:  # read-only: a WAL whose -shm is gone may not open so; the writer's open then judges it
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if tables and not {"meta", "nodes", "edges"} <= tables:
        return f"a database of other tables ({', '.join(sorted(tables)[:5])})"
    return None


def refuse_damaged_manifest(path: Path) -> None:
    """Raise the advice for a garbage manifest beside the items: ``repair`` rebuilds it from
    them (deleting the directory, the advice without items, would lose them).

    Raises:
        IndexCorruptError: The manifest is garbage and ``items.sqlite`` holds items.
    """
    wrong = mf.manifest_damage(path)
    if wrong and (path / mf.DATABASE).is_file() and holds_items(path):
        raise IndexCorruptError(
            f"{path / mf.MANIFEST} {wrong}, but {mf.DATABASE} beside it holds the index's items; write a new "
            f"{mf.MANIFEST} from them with `{command(['repair'], path)}` (it keeps the damaged one)"
        )


def set_aside_damaged_manifest(path: Path, lock_wait_s: float) -> Path | None:
    """For ``repair``: rename a garbage ``index.json`` beside items ``items.sqlite`` holds to
    ``index.json.bad-<UTC time>``, under the write lock (a writer may rewrite the manifest),
    so that the writer's open that follows recreates it from the items as it does a missing
    one. The path it was kept at, or None: nothing to set aside.

    Raises:
        IndexLockedError: Another process is writing the index (past ``lock_wait_s``).
        IndexCorruptError: The manifest cannot be renamed (a read-only directory).
    """
    if not (mf.manifest_damage(path) and (path / mf.DATABASE).is_file() and holds_items(path)):
        return None
    lock = WriterLock(path, lock_wait_s)
    lock.acquire()
    try:
        if not mf.manifest_damage(path):  # another writer mended it while this one waited
            return None
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        names = (f"{mf.MANIFEST}.bad-{stamp}" + (f"-{n}" if n else "") for n in itertools.count())
        aside = next(path / name for name in names if not (path / name).exists())
        try:
            (path / mf.MANIFEST).rename(aside)
        except OSError as exc:
            raise IndexCorruptError(
                f"cannot set the damaged {path / mf.MANIFEST} aside ({exc}); move it out of {path} yourself "
                f"and run `{command(['repair'], path)}` again"
            ) from exc
    finally:
        lock.release()
    log.info("[skill_retriever][index] kept the unreadable %s as %s", path / mf.MANIFEST, aside)
    return aside


def put_back_manifest(path: Path, aside: Path) -> None:
    """Undo :func:`set_aside_damaged_manifest` when the open after it failed before writing
    a new manifest: the directory is left as it was found."""
    if not (path / mf.MANIFEST).exists():
        aside.rename(path / mf.MANIFEST)
