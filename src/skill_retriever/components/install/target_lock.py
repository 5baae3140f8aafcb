"""One install or uninstall at a time per set of files written.

An install reads the record and ``settings.json``, merges, and writes both back; two at
once (agents calling the MCP ``install_components`` tool in parallel) would each write
what it read, and one's hooks and record entries would be lost. So both take an exclusive
``flock`` for the whole plan-and-write. It is held on folders, not on a file in one: the
root may not exist yet, and a lock file would be left in the user's tree. The lock goes
with the process, so one killed never leaves a target locked.

Which folders (`lock_folders`): the one holding the root (links resolved: ``.mcp.json``
lies in the root), and the one holding the folder its Claude folder lies in, wherever
that ``.claude`` leads. Projects in different folders whose ``.claude`` links to one
shared folder write one ``settings.json`` and one record: each takes the lock of the
folder above the shared one, so they run one after the other; so does the project that
holds the shared ``.claude`` as its own (its root's parent is that folder). A root
without a link locks its parent only, as before. Several folders are locked in one fixed
order (by device and inode), so two installs never wait on each other; where a
``.claude`` link changed while the locks were taken, they are let go and taken again.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from skill_retriever.components.install.claude_folder import claude_folder
from skill_retriever.components.install.plan import InstallError

__all__ = ["WAIT_S", "holding", "lock_folders"]

#: How long an install waits for another one into the same place before giving up.
WAIT_S = 30.0


def lock_folders(root: Path) -> list[Path]:
    """The folders an install into ``root`` locks (see the module): existing ones only,
    each once (two paths to one folder are one lock: a second ``flock`` of it from this
    process would wait on the first), in the order they are taken."""
    real_root = _resolved(root) or root.absolute()
    claude = claude_folder(root)
    # (a link loop is refused where it is written into: its root's lock is enough till then)
    real_claude = _resolved(claude) if claude != root else real_root
    if real_claude is None:
        real_claude = real_root / claude.name
    # The root's own Claude folder (``$CLAUDE_CONFIG_DIR``) is the root: the folder above
    # its parent is what a project linking its .claude to it locks.
    return _unique([real_root.parent, real_claude.parent.parent])


def _resolved(path: Path) -> Path | None:
    """``path`` with its links resolved; None for a link loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop, to Python before 3.13
        return None


def _unique(folders: list[Path]) -> list[Path]:
    """The existing ones of ``folders``, each folder once, by device and inode."""
    found: dict[tuple[int, int], Path] = {}
    for folder in folders:
        try:
            st = os.stat(folder)
        except OSError:  # nothing there to write into: the install says why when it tries
            continue
        found.setdefault((st.st_dev, st.st_ino), folder)
    return [found[k] for k in sorted(found)]


@contextlib.contextmanager
def holding(root: Path, wait_s: float | None = None) -> Iterator[None]:
    """Hold the install lock of ``root`` (waiting up to ``wait_s``, `WAIT_S` by default,
    for another install): every folder of `lock_folders`. A folder that is missing or
    cannot be opened is not locked: nothing can be written there, and the install says
    why when it tries.

    Raises:
        InstallError: Another install or uninstall held one of them for ``wait_s``.
    """
    wait_s = WAIT_S if wait_s is None else wait_s
    deadline = time.monotonic() + wait_s
    with contextlib.ExitStack() as held:
        folders = lock_folders(root)
        while True:
            for folder in folders:
                _lock(held, folder, root, wait_s, deadline)
            now = lock_folders(root)
            if set(now) <= set(folders):
                break
            # a .claude link made or changed meanwhile: take the new set, in its order
            held.close()
            folders = _unique([*folders, *now])
        yield


def _lock(held: contextlib.ExitStack, folder: Path, root: Path, wait_s: float, deadline: float) -> None:
    """Take ``folder``'s lock (its release registered on ``held``) by ``deadline``."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    held.callback(os.close, fd)  # (closing it releases the lock)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise InstallError(
                    f"another install or uninstall into {root} is running (waited "
                    f"{wait_s:g} s); try again once it is done; nothing written"
                ) from None
            time.sleep(0.05)
