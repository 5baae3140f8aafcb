"""Drop the install record once nothing is recorded, keeping its folder out of git while
anything stays in it.

An uninstall that takes back the last component deletes the record; but what it does
not take back stays in the record's folder: the earlier copies of the user's files and
server entries that ``install --force`` replaced (``backups/<path>.~N~``,
``backups/mcp-servers/<server>.~N~.json``, which may hold a server's keys). The
folder's ``.gitignore`` is what keeps those out of ``git add -A``, so it goes only with
the last file there, and is written again if it is missing while one stays.
"""

from __future__ import annotations

from pathlib import Path

from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import RECORD_FILE, RECORD_IGNORE, RECORD_IGNORE_TEXT
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.fsutil import write_atomic

__all__ = ["drop_record"]


def drop_record(record: InstallRecord) -> None:
    """Delete ``record``'s file (nothing is recorded any more); its folder, and the
    ``.gitignore`` there, only when nothing else is left in it."""
    try:
        path = safe_destination(record.root, RECORD_FILE)
        ignore = safe_destination(record.root, RECORD_IGNORE)
    except UnsafePathError:
        return
    if not _left(path.parent, {path, ignore}):
        record.remove()
        return
    path.unlink(missing_ok=True)
    if not ignore.exists():
        write_atomic(ignore, RECORD_IGNORE_TEXT)


def _left(folder: Path, ours: set[Path]) -> bool:
    """Whether ``folder`` holds anything but ``ours`` and empty folders (which go)."""
    if not folder.is_dir():
        return False
    below = sorted(folder.rglob("*"), key=lambda p: -len(p.parts))  # deepest first
    for item in below:
        if item in ours:
            continue
        if item.is_dir() and not item.is_symlink():
            try:
                item.rmdir()
            except OSError:  # it holds something: that says so below
                continue
            continue
        return True
    return False
