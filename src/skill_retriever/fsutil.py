"""Writing files so that a reader never sees half of one: the one atomic-write helper.

The index manifest, installed components, settings files and benchmark results all go
through :func:`write_atomic`: the bytes go to a temporary file in the same folder, which is
then renamed over the destination (``os.replace`` is atomic on POSIX and Windows, and
replaces a symbolic link at the destination instead of writing through it).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

__all__ = ["leftover_temps", "write_atomic"]


def write_atomic(dest: Path, content: bytes | str, mode: int | None = 0o644) -> None:
    """Write ``content`` to ``dest`` atomically, creating its folder.

    Args:
        dest: The file to (re)place.
        content: Bytes, or text (written as UTF-8).
        mode: Permission bits of the new file; None leaves ``mkstemp``'s 0600.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, dest)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename in (tmp, None):  # name the file meant, not the copy
            exc.filename, exc.filename2 = str(dest), None
        raise


def leftover_temps(dest: Path) -> list[Path]:
    """The temporary files that `write_atomic` left beside ``dest`` when its process was
    killed mid-write (``.<name>.<8 random characters>.tmp``, as ``mkstemp`` names them;
    a copy of a 1.5 GB file stays 1.5 GB). Only a caller that holds every writer of the
    folder off (the install target's lock) may remove them: another's may be in flight."""
    pattern = re.compile(rf"\.{re.escape(dest.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        return sorted(dest.parent / name for name in os.listdir(dest.parent) if pattern.fullmatch(name))
    except OSError:  # no folder yet, or one that cannot be listed: nothing to find
        return []
