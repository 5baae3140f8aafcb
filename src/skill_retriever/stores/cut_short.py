"""A copy of an ``items.sqlite`` cut short (a disk that filled, a copy or download stopped
halfway) that SQLite can read.

SQLite's header counts the file's pages (bytes 28-31); when the file holds fewer, SQLite
trusts the count, and every read, the schema's first, fails as "malformed", so a file that
still holds most of its rows looked like one with nothing to salvage. A copy whose header
counts the pages the file holds reads as a file with damaged pages at its end, which
``stores.salvage_read`` salvages row by row. The damaged file itself is never written.
"""

from __future__ import annotations

import contextlib
import shutil
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CutShort", "cut_short", "readable_copy"]

_HEADER = b"SQLite format 3\x00"
#: Where the header keeps its page size (2 bytes) and its count of pages (4 bytes).
_PAGE_SIZE_AT = 16
_PAGE_COUNT_AT = 28


@dataclass(frozen=True, slots=True)
class CutShort:
    """How much of the file is left: the pages it holds of those its header counts."""

    held: int
    counted: int

    def words(self) -> str:
        return f"cut short: it holds {self.held} of the {self.counted} pages its header counts"


def cut_short(database: Path) -> CutShort | None:
    """The pages ``database`` holds and counts when it holds fewer than its header counts,
    else None (a sound length, or no SQLite header to read a count from)."""
    with database.open("rb") as fh:
        head = fh.read(100)
    if len(head) < 100 or not head.startswith(_HEADER):
        return None
    (size,) = struct.unpack(">H", head[_PAGE_SIZE_AT:_PAGE_SIZE_AT + 2])
    size = 65536 if size == 1 else size  # the format writes 64 KiB pages as 1
    (counted,) = struct.unpack(">I", head[_PAGE_COUNT_AT:_PAGE_COUNT_AT + 4])
    held = database.stat().st_size // size if size >= 512 else 0
    return CutShort(held, counted) if 0 < held < counted else None


@contextlib.contextmanager
def readable_copy(database: Path, short: CutShort) -> Iterator[Path]:
    """A copy of ``database`` (and its ``-wal``, whose frames it may need) beside it whose
    header counts the pages the file holds; removed when the block ends."""
    copy = database.with_name(f"{database.name}.salvage-read")
    wal = database.with_name(f"{database.name}-wal")
    try:
        shutil.copyfile(database, copy)
        if wal.is_file():
            shutil.copyfile(wal, copy.with_name(f"{copy.name}-wal"))
        with copy.open("r+b") as fh:
            fh.seek(_PAGE_COUNT_AT)
            fh.write(struct.pack(">I", short.held))
        yield copy
    finally:
        for file in (copy, *(copy.with_name(copy.name + s) for s in ("-wal", "-shm", "-journal"))):
            file.unlink(missing_ok=True)
