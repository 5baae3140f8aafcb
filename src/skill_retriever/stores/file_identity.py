"""Whether a path still names the file that was opened.

A reader's SQLite connection keeps reading the file it opened, even after that file is
deleted: an index directory removed and built again under the same path would go on
being served from the old, deleted database (an item made private since, still shown).
The device and inode of the path, taken at open and compared on each catch-up, tell.
Either way the index is not damaged (the one opened is whole where it now is, or another
stands in its place): an `IndexNotFoundError`, never the `IndexCorruptError` that sends a
caller to repair or rebuild.
"""

from __future__ import annotations

import os
from pathlib import Path

from skill_retriever.exceptions import IndexNotFoundError

__all__ = ["FileIdentity"]


class FileIdentity:
    """The identity of the file at ``path`` when this was made (or first seen)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen = _identity(path)

    def replaced(self) -> bool:
        """The path is gone, or names another file than the one seen first."""
        now = _identity(self.path)
        if self._seen is None:  # not there when opened (a new index): this is the one
            self._seen = now
            return False
        return now != self._seen

    def check(self) -> None:
        """Raises:
        IndexNotFoundError: The file was deleted or replaced since (see `replaced`)."""
        if self.replaced():
            raise IndexNotFoundError(
                f"{self.path} was deleted or replaced since the index was opened; open the "
                "index again (an MCP server: restart it)"
            )


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino
