"""Keep what ``install --force`` replaces that was the user's own, for uninstall to put
back.

Forcing an install over a file or an ``.mcp.json`` server entry the user made must not
lose it: the file is copied under the record's backup folder (`inventory.backup_path`)
and its SHA-256 recorded, the server's old entry is recorded whole. Only the first copy
of a path is kept (forcing again would otherwise keep the install's own version), and
nothing is kept of what an install wrote itself. `uninstall` restores both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skill_retriever.components.install.inventory import (
    InstallRecord,
    RecordEntry,
    backup_path,
    sha256,
)
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.fsutil import write_atomic

__all__ = ["keep_file", "keep_server"]


def keep_file(record: InstallRecord, entry: RecordEntry, rel: str, dest: Path) -> None:
    """Before ``force`` overwrites ``dest``: keep a copy when it is the user's own (no
    install wrote exactly it) and no earlier copy of that path is kept, for uninstall to
    put back."""
    if not dest.is_file():
        return
    data = dest.read_bytes()
    digest = sha256(data)
    backup = safe_destination(record.root, backup_path(rel))
    if record.owns_file(rel, digest) or rel in entry.replaced_files or backup.exists():
        return
    write_atomic(backup, data, dest.stat().st_mode & 0o777)
    entry.replaced_files[rel] = digest


def keep_server(record: InstallRecord, entry: RecordEntry, name: str, old: Any) -> None:
    """Before ``force`` replaces server ``name``: keep the user's own entry in the record."""
    if not record.owns_server(name, old) and name not in entry.replaced_servers:
        entry.replaced_servers[name] = old
