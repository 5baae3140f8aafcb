"""``repair``'s mend for an ``index.json`` that names an embedding model which does not
load, while ``items.sqlite`` records the one the vectors were made with and that one
does: no query could be searched, and nothing but a hand edit would say why. The items'
record is what the index was built with (``opening.record_identity``), so it is put back.
A manifest whose model loads is never touched: that is the user's choice to keep.
"""

from __future__ import annotations

import logging
from pathlib import Path

from skill_retriever.exceptions import ConfigError, IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import embedder_for
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.opening import EMBEDDER_KEY

log = logging.getLogger("skill_retriever")

__all__ = ["restore_recorded_embedder"]


def _loads(name: str) -> bool:
    try:
        return embedder_for(name).dim > 0
    except ConfigError:
        return False


def restore_recorded_embedder(path: Path, lock_wait_s: float = 0.0) -> str | None:
    """Put the model ``items.sqlite`` records back into ``index.json`` when the one named
    there does not load and the recorded one does, under the write lock; what was done, or
    None when nothing was (no readable manifest or items, the same model, or one that loads)."""
    try:
        named = str(mf.read_manifest(path).get("embedder") or "")
        items = ItemStore(path / mf.DATABASE, writable=False)
    except IndexOpenError:  # the open that follows says what is wrong
        return None
    try:
        recorded = items.get_meta(EMBEDDER_KEY)
    finally:
        items.close()
    if not recorded or recorded == named or _loads(named) or not _loads(recorded):
        return None
    lock = WriterLock(path, lock_wait_s)
    lock.acquire()
    try:
        manifest = mf.read_manifest(path)  # again, under the lock: a writer may have changed it
        if str(manifest.get("embedder") or "") != named:
            return None
        mf.write_manifest(path, {**manifest, "embedder": recorded})
    finally:
        lock.release()
    return f"set {mf.MANIFEST}'s embedder {named!r}, which does not load, back to {recorded!r}, the model {mf.DATABASE} records"
