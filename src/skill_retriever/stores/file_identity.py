"""Whether a path still names the file that was opened, and if not, what happened to it.

A reader's SQLite connection keeps reading the file it opened, even after that file is
deleted: an index directory removed and built again under the same path would go on
being served from the old, deleted database (an item made private since, still shown).
The device and inode of the path, taken at open and compared on each catch-up, tell.
Either way the index is not damaged (the one opened is whole where it now is, or another
stands in its place): an `IndexNotFoundError`, never the `IndexCorruptError` that sends a
caller to repair or rebuild.

What happened is read from the file opened, through SQLite's own descriptor of it (found
by its identity among this process's open files; none is opened here, as closing one
would drop SQLite's locks on the file): no link left is deleted, a link elsewhere is moved
(where to, on Linux and macOS), and so what to do: open it there, open it again, build it
again. Where the descriptor cannot be read, the message names all three.
"""

from __future__ import annotations

import os
from pathlib import Path

from skill_retriever.advice import Placeholder, command
from skill_retriever.exceptions import IndexNotFoundError

__all__ = ["FileIdentity"]

_FD_FOLDERS = ("/proc/self/fd", "/dev/fd")  # Linux, then macOS and the BSDs
_RESTART = "(an MCP server: restart it)"


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
        IndexNotFoundError: The file was moved, deleted or replaced since (see `replaced`)."""
        if self.replaced():
            raise IndexNotFoundError(self._what_happened())

    def _what_happened(self) -> str:
        path, since = self.path, "since the index was opened"
        opened = _opened(self._seen) if self._seen is not None else None
        if opened is None:
            return (f"{path} was moved, deleted or replaced {since}; open the index again where it is now, "
                    f"or build it again {_RESTART}")
        links, now_at = opened
        there = os.path.exists(path)  # another file at the path
        if links and now_at is not None and not there:
            return (f"{path} was moved to {now_at} {since}; open the index at {now_at.parent} "
                    "(an MCP server: restart it with that folder)")
        if links and now_at is not None:
            return (f"{path} was replaced by another file {since}, and the one opened is now at {now_at}; "
                    f"open the index again to read the new one, or open {now_at.parent} {_RESTART}")
        if not links and there:
            return f"{path} was deleted and another index built in its place {since}; open the index again to read the new one {_RESTART}"
        if not links:
            build = command(["index", Placeholder("<sources>")], path.parent)
            return (f"{path} was deleted {since} (a move to another disk copies it and deletes it here); "
                    f"build the index again with `{build}` or open it where a copy is {_RESTART}")
        return f"{path} was moved or replaced {since}; open the index again where it is now {_RESTART}"


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def _opened(seen: tuple[int, int]) -> tuple[int, Path | None] | None:
    """The links left to the open file of identity ``seen`` and the path it has now
    (None when unknown), or None when no descriptor of it is found."""
    for folder in _FD_FOLDERS:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            try:
                st = os.stat(f"{folder}/{name}")
            except OSError:  # the listing's own descriptor, closed since, among others
                continue
            if (st.st_dev, st.st_ino) == seen:
                return st.st_nlink, _path_of(f"{folder}/{name}", int(name)) if st.st_nlink else None
        return None
    return None


def _path_of(link: str, fd: int) -> Path | None:
    """The path an open file has now: the link's target on Linux, fcntl's F_GETPATH on macOS."""
    try:
        target = os.readlink(link)
    except OSError:
        target = ""
    get_path = None
    if not target.startswith("/"):
        import fcntl

        get_path = getattr(fcntl, "F_GETPATH", None)
    if get_path is not None:
        try:
            target = fcntl.fcntl(fd, get_path, bytes(1024)).split(b"\0", 1)[0].decode()
        except OSError:
            return None
    return Path(target) if target.startswith("/") else None
