"""Open ``items.sqlite``: for the writer, or read-only for a reader.

The database is in WAL mode. SQLite reads a WAL database only where it can use (or make)
its ``-shm`` and ``-wal`` files beside it, so a reader of an index in a folder it cannot
write (a read-only mount, a copy unpacked from an archive or a checkout, which hold no
such files) failed with "unable to open database file", and was told to rebuild a healthy
index. There, with no ``-wal`` file (so every change is in the database file itself), the
file is opened ``immutable``: read as it is, which nobody can change in that folder anyway.

A file this process may not read (or, as the writer, write) is refused first with what
to change (``stores.permissions``): SQLite's own word for it, "unable to open database
file", read as damage, and the advice was to delete a healthy index.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from skill_retriever.stores.permissions import check_access

__all__ = ["connect"]


def connect(path: Path, writable: bool) -> sqlite3.Connection:
    """A connection to the database ``path`` (autocommit: transactions are explicit).

    Raises:
        IndexPermissionError: The database (or its ``-wal``/``-shm`` file, which a reader
            of a WAL database opens too) exists and this process may not use it.
    """
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        check_access(file, write=writable)
    if writable:
        return sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if _unwritable_without_wal(path):
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)


def _unwritable_without_wal(path: Path) -> bool:
    """Whether ``path``'s folder cannot be written and holds no ``-wal`` file beside it."""
    folder = path.parent
    wal = path.with_name(path.name + "-wal")
    return not os.access(folder, os.W_OK) and not wal.exists()
