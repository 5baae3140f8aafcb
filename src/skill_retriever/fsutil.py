"""Writing files so that a reader never sees half of one: the one atomic-write helper.

The index manifest, installed components, settings files and benchmark results all go
through :func:`write_atomic`: the bytes go to a temporary file in the same folder, which is
then renamed over the destination (``os.replace`` is atomic on POSIX and Windows, and
replaces a symbolic link at the destination instead of writing through it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


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
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
