"""What advice naming `repair` adds while a process holds the index's write lock.

A reader that finds its server without the index's vectors (collections deleted, the data
wiped, entries lost) told the user to run `repair`, which exits 75 at once while a writer
lives (a long-running app that indexes and queries, an `index` run): the advice led to a
refusal. It now names that writer, how to wait for it, and that it makes collections gone
from the server again itself at its next write or search (``stores.writer_search``).
"""

from __future__ import annotations

from pathlib import Path

from skill_retriever.stores.lock import LOCK_FILE, lock_taken

__all__ = ["while_writing"]


def while_writing(index_dir: str | Path) -> str:
    """" once process N ... is done (...)" while a writer holds the lock of the index at
    ``index_dir``, else "" (asks the kernel, so a writer killed since is not named)."""
    directory = Path(index_dir)
    if not lock_taken(directory):
        return ""
    try:
        raw = (directory / LOCK_FILE).read_bytes()[:32].decode("ascii", "replace").strip()
    except OSError:  # held through the folder's lock, its file deleted: no pid to name
        raw = ""
    who = f"process {raw}" if raw.isdigit() else "the process"
    return (
        f" once {who}, which is writing the index, is done (`--lock-wait SECONDS` waits for it; that process "
        "makes collections gone from the server again itself, at its next write or search)"
    )
