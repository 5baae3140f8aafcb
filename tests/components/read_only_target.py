"""A folder as a read-only file system shows it to the installer's target checks: no mount
can be made here, so the OS's answers (``os.access``, ``os.statvfs``) are given instead."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.components.install import target as target_module


def mount_read_only(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``folder`` and all below it: not writable, on a file system flagged read-only."""
    real_access, real_statvfs = os.access, os.statvfs

    class ReadOnly:
        f_flag = os.ST_RDONLY

    def access(path: Any, mode: int) -> bool:
        return not Path(path).is_relative_to(folder) and real_access(path, mode)

    def statvfs(path: Any) -> Any:
        return ReadOnly() if Path(path).is_relative_to(folder) else real_statvfs(path)

    monkeypatch.setattr(target_module.os, "access", access)
    monkeypatch.setattr(target_module.os, "statvfs", statvfs)
