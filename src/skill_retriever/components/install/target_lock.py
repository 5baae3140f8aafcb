"""One install or uninstall at a time per target.

An install reads the record and ``settings.json``, merges, and writes both back; two at
once (agents calling the MCP ``install_components`` tool in parallel) would each write
what it read, and one's hooks and record entries would be lost. So both take an exclusive
``flock`` for the whole plan-and-write. It is held on the folder that holds the root (the
project folder's parent, or the home folder's), not on a file in it: the root may not
exist yet, and a lock file would be left in the user's tree. The lock goes with the
process, so one killed never leaves a target locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from skill_retriever.components.install.plan import InstallError

__all__ = ["WAIT_S", "holding"]

#: How long an install waits for another one into the same place before giving up.
WAIT_S = 30.0


@contextlib.contextmanager
def holding(root: Path, wait_s: float | None = None) -> Iterator[None]:
    """Hold the install lock of ``root`` (waiting up to ``wait_s``, `WAIT_S` by default,
    for another install).
    A root whose parent is missing or cannot be opened is not locked: nothing can be
    written there, and the install says why when it tries.

    Raises:
        InstallError: Another install or uninstall held it for ``wait_s``.
    """
    try:
        fd = os.open(root.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield
        return
    wait_s = WAIT_S if wait_s is None else wait_s
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise InstallError(
                        f"another install or uninstall into {root} is running (waited "
                        f"{wait_s:g} s); try again once it is done; nothing written"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # (which releases the lock)
