"""One writer per index directory, across processes: an exclusive ``flock`` on ``write.lock``,
and one on the index folder itself.

``flock`` locks the open file, not its name: once a writer's ``write.lock`` was deleted (a
user taking it for one left behind, a cleanup job), the next writer made a new file, locked
it and wrote beside the first, which noticed only at its next write (`WriterLock.check`).
The folder cannot be deleted from under a writer the same way, so its lock keeps the next
writer out while the first lives. A file system whose folders take no ``flock`` (NFS
emulates it with locks a read-only descriptor cannot take) keeps the file's lock alone.

The operating system drops the lock when its process ends, however it ends (``kill -9``
included), so a crashed writer never leaves the index locked. Readers never take it: they
open the database read-only and see the last committed state. A writer told to wait for
another says so once, when it starts waiting (logged on `WAIT_LOG`; nothing is printed).
"""

from __future__ import annotations

import errno
import logging
import os
import shlex
import time
from pathlib import Path

from skill_retriever.exceptions import IndexCorruptError, IndexLockedError, IndexNotFoundError
from skill_retriever.stores.folder_lock import flock_holder, open_folder, take_folder
from skill_retriever.stores.index_words import point_at
from skill_retriever.stores.permissions import denied_message

LOCK_FILE = "write.lock"
#: How long a writer that would fail at once still tries, for a reader's probe (`lock_taken`)
#: that holds the lock for a moment.
_PROBE_GRACE_S = 0.2


class WriterLock:
    """The exclusive write lock of one index directory.

    Args:
        directory: The index directory.
        wait_s: How long :meth:`acquire` waits for another writer to finish; 0 = fail at once.
    """

    def __init__(self, directory: Path, wait_s: float = 0.0) -> None:
        self.path = directory / LOCK_FILE
        self.wait_s = wait_s
        self._fd: int | None = None
        self._folder_fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, waiting up to ``wait_s``.

        Raises:
            IndexLockedError: Another process holds it (the message names its pid), or
                another handle of this process does (the message says so: waiting helps
                only when another thread closes that handle).
        """
        if self._fd is not None:
            return
        import fcntl

        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError as exc:
            if self.path.exists():  # the file's rights, not the folder's: name the file
                raise IndexLockedError(
                    f"cannot take the writer's lock: {denied_message(self.path, write=True)} (reading the index, "
                    "with query or stats, works as it is)"
                ) from exc
            raise self._unwritable(exc) from exc
        except FileNotFoundError as exc:  # not a folder that cannot be written: one that is gone
            raise IndexNotFoundError(
                f"the index folder {self.path.parent} is gone (deleted or moved since the index was opened), "
                "so nothing can be written there; open the index again where it now is, or "
                "Index.open(path, create=True) for a new one"
            ) from exc
        except OSError as exc:  # a read-only folder or file system
            raise self._unwritable(exc) from exc
        # A reader that asks whether a run is alive (`lock_taken`) holds a shared lock for a
        # moment: a writer that would fail at once tries for that moment longer.
        deadline = time.monotonic() + max(self.wait_s, _PROBE_GRACE_S)
        folder = open_folder(self.path.parent)
        said = False
        while True:
            holder: int | None = None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if folder is None or take_folder(folder):
                    break
                # the folder's writer lives though this write.lock is not the one it holds
                holder = flock_holder(folder)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    _close(fd, folder)
                    raise
                holder = _read_pid(fd)
            if not said and self.wait_s > 0:  # a wait of minutes must not look like a hang
                said = True
                _say_waiting(self.path.parent, holder, self.wait_s)
            if time.monotonic() >= deadline:
                _close(fd, folder)
                directory = str(self.path.parent)
                raise IndexLockedError(
                    locked_message(directory, holder, self.wait_s, PYTHON_WAIT, "index directory"),
                    directory, holder, self.wait_s,
                ) from None
            time.sleep(0.01 if self.wait_s <= 0 else 0.05)
        if text := _foreign(fd):  # a file of the user's by that name: never overwrite it
            _close(fd, folder)
            raise IndexCorruptError(_foreign_message(self.path, text))
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd, self._folder_fd = fd, folder
        _HELD_HERE.add(_identity(fd))
        if folder is not None:
            _HELD_HERE.add(_identity(folder))

    def check(self) -> None:
        """Before a write: the lock file is still the one this lock holds.

        Raises:
            IndexLockedError: It was deleted or replaced meanwhile: flock locks the open
                file, not its name, so the next writer made a new file and may hold that.
        """
        if self._fd is None:
            return
        try:
            st = os.stat(self.path)
            now: tuple[int, int] | None = (st.st_dev, st.st_ino)
        except FileNotFoundError:
            now = None
        if now != _identity(self._fd):
            raise IndexLockedError(
                f"the write lock {self.path} was deleted or replaced while this process held it, so "
                f"another process may be writing the index at {self.path.parent} too; nothing of this "
                "write was stored. Let any other run end, then open the index again and write again "
                "(a `skill-retriever index` run: run it again), and leave write.lock in place: it "
                "stays after every run, and the kernel frees it when its run ends"
            )

    def _unwritable(self, exc: OSError) -> IndexLockedError:
        """The lock file cannot be made: its folder (or file system) cannot be written."""
        return IndexLockedError(
            f"cannot take the writer's lock {self.path} ({exc.strerror or exc}): this command writes "
            f"the index, and its folder cannot be written; make it writable, or copy the index "
            f"somewhere writable (reading it, with query or stats, works as it is)"
        )

    def release(self) -> None:
        fd, self._fd = self._fd, None
        folder, self._folder_fd = self._folder_fd, None
        for held in (fd, folder):
            if held is not None:
                _HELD_HERE.discard(_identity(held))
                os.close(held)  # closing the descriptor drops the flock

    def __del__(self) -> None:
        # An Index dropped without close() must not keep the directory locked for the
        # rest of the process (the kernel would drop it only at exit).
        self.release()


def _close(*fds: int | None) -> None:
    for fd in fds:
        if fd is not None:
            os.close(fd)


def _say_waiting(directory: Path, holder: int | None, wait_s: float) -> None:
    """Log, at INFO on `WAIT_LOG`, that this writer waits for another: the CLI shows
    that logger to a command given ``--lock-wait`` (`cliargs.lock_wait_of`); a library
    caller sees it only through its own logging set-up."""
    who = f"process {holder}" if holder else "another process"
    logging.getLogger(WAIT_LOG).info(
        "waiting up to %g s for %s, which is writing the index at %s", wait_s, who, directory
    )


#: The logger a writer that waits for another says so on.
WAIT_LOG = "skill_retriever.lock"
#: How a Python caller waits for the other writer (the CLI names its ``--lock-wait``).
PYTHON_WAIT = "open it with Index.open(..., lock_wait_s=SECONDS)"


def locked_message(directory: str, holder: int | None, waited_s: float, how_to_wait: str | None, place: str) -> str:
    """What a writer that found the index locked is told: who writes, and what to do.

    Args:
        directory: The index directory.
        holder: The writing process's pid, None when it cannot be read.
        waited_s: How long this writer waited already.
        how_to_wait: What the caller does to wait (e.g. "pass --lock-wait SECONDS"), None
            when it has no way: then it is told to run again once the other finishes.
        place: What the caller calls another index ("--index-dir" for the CLI).
    """
    waited = f" (waited {waited_s:g} s for it)" if waited_s > 0 else ""
    longer = " longer" if waited_s > 0 else ""
    if _held_here(directory, holder):  # flock is per open file: this process's other handle holds it
        who = f"another handle in this process (pid {holder})"
        if how_to_wait is None:
            wait = "close that handle (or write through it) and run this again"
        else:  # nothing ends it but a close, which only another thread can make meanwhile
            wait = (f"close that handle or write through it (waiting helps only when another thread "
                    f"closes it: {how_to_wait} to wait{longer} for it)")
    else:
        who = f"process {holder}" if holder else "another process"
        if how_to_wait is None:
            wait = "wait for it to finish and run this again"
        else:
            wait = f"wait for it to finish ({how_to_wait} to wait{longer} for it)"
    return f"{who} is writing the index at {directory}{waited}; {wait}, or write to another {place}"


#: The lock files (device, inode) this process holds, so that a lock found taken is known
#: to be held by another handle of this process: its pid alone could be another
#: container's process of the same number, on a folder both mount.
_HELD_HERE: set[tuple[int, int]] = set()


def _identity(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


def _held_here(directory: str, holder: int | None) -> bool:
    """Whether the lock of ``directory`` is held by a `WriterLock` of this process."""
    if holder != os.getpid():
        return False
    for path in (Path(directory) / LOCK_FILE, Path(directory)):  # the folder: its lock file deleted
        try:
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in _HELD_HERE:
            return True
    return False


def _foreign(fd: int) -> str:
    """The text the lock file holds when it is not a process id, else "" (the lock writes
    only its holder's pid; an empty file is a lock never written, or one a crash cut short)."""
    try:
        raw = os.pread(fd, 64, 0)
    except OSError:
        return ""
    text = raw.decode("ascii", "replace").strip()
    return text if text and not text.isdigit() else ""


def _foreign_message(path: Path, text: str) -> str:
    """What a writer is told of a lock file that holds ``text``, not a pid. Beside an
    index's manifest and items it is that index's lock, garbled (an editor, a stray
    ``echo``): deleting it when no run uses the index is the fix. Elsewhere it may be a
    file of the user's that happens to bear the name: the folder is no index."""
    folder = path.parent
    shown = text[:40] + ("..." if len(text) > 40 else "")
    if (folder / "index.json").is_file() and (folder / "items.sqlite").is_file():
        return (
            f"{path} holds unexpected text ({shown!r}) where the lock keeps the writing process's id; "
            f"nothing else was changed: if no skill-retriever run is using the index at {folder}, delete it "
            f"(`rm {shlex.quote(str(path))}`) and run this again"
        )
    return (
        f"{path} holds something other than a process id: it is not skill-retriever's lock, "
        f"so {folder} is not an index directory, and nothing there was changed; "
        f"{point_at('an index, or at a new folder')}"
    )


def lock_taken(directory: Path) -> bool | None:
    """Whether a writer holds the lock of the index at ``directory`` now: the kernel drops
    it when the writer's process ends, however it ends, so this tells a live run from a
    killed one whose process is not reaped yet (a zombie, which ``kill(pid, 0)`` still
    finds) or whose pid another process has taken since; a writer whose write.lock was
    deleted still holds its folder's lock. None where it cannot be told (the file cannot be
    opened, or the file system has no ``flock``).

    It asks with a shared lock held for a moment, never waiting: a live writer's lock
    makes it fail at once, and a writer taking the lock in that moment tries again
    (`WriterLock.acquire`)."""
    try:
        fd = os.open(directory / LOCK_FILE, os.O_RDONLY)
    except FileNotFoundError:  # a writer makes it before it takes the lock; or it was deleted
        taken: bool | None = False
    except OSError:
        taken = None
    else:
        taken = _probe(fd)
    if taken:
        return True
    folder = open_folder(directory)  # held by a writer whose write.lock was deleted
    if folder is not None and _probe(folder):
        return True
    return taken


def _probe(fd: int) -> bool | None:
    """Whether an exclusive ``flock`` holds the file ``fd`` opens (None: cannot be told);
    closes ``fd``."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return True if exc.errno in (errno.EAGAIN, errno.EACCES) else None
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def holder_alive(directory: Path) -> bool:
    """Whether the lock file of ``directory`` names a process of this machine that exists
    (the pid a writer wrote there; it stays after the writer ends)."""
    try:
        raw = (directory / LOCK_FILE).read_bytes()[:32].decode("ascii", "replace").strip()
    except OSError:
        return False
    return raw.isdigit() and pid_exists(int(raw)) is True


def pid_exists(pid: int) -> bool | None:
    """Whether process ``pid`` exists on this machine (a zombie does, until reaped); None
    when the system will not say."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user's process
        return True
    except OSError:
        return None
    return True


def _read_pid(fd: int) -> int | None:
    try:
        raw = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(raw) if raw.isdigit() else None


__all__ = [
    "LOCK_FILE", "PYTHON_WAIT", "WAIT_LOG", "WriterLock", "holder_alive", "lock_taken", "locked_message", "pid_exists",
]
