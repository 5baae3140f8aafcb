"""The index folder's own ``flock``, which `stores.lock.WriterLock` holds beside the one on
``write.lock``: a folder cannot be deleted from under its writer as its lock file can, so
a writer whose write.lock was deleted still keeps the next one out while it lives."""

from __future__ import annotations

import errno
import os
from pathlib import Path

__all__ = ["flock_holder", "open_folder", "take_folder"]


def open_folder(directory: Path) -> int | None:
    """A descriptor of the index folder to lock, None where it cannot be opened (the
    write.lock's own lock is then all there is, as before)."""
    try:
        return os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None


def take_folder(folder: int) -> bool:
    """Lock the folder ``folder`` opens: False while another writer holds it (True too
    where the file system's folders take no ``flock``: the file's lock alone then)."""
    import fcntl

    try:
        fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno not in (errno.EAGAIN, errno.EACCES)
    return True


def flock_holder(fd: int) -> int | None:
    """The pid that holds a ``flock`` on the file ``fd`` opens, from Linux's /proc/locks
    (None elsewhere, or when it names none: a reader's probe held it for a moment)."""
    st = os.fstat(fd)
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                f = line.split()  # "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; a waiter has "->"
                if len(f) >= 6 and f[1] == "FLOCK" and f[3] == "WRITE" and f[5] == where and f[4].isdigit():
                    return int(f[4]) or None
    except OSError:  # no /proc/locks: the holder is not named
        return None
    return None
