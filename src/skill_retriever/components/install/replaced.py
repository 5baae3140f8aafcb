"""Keep what ``install --force`` replaces that was the user's own, for uninstall to put
back.

Forcing an install over a file or an ``.mcp.json`` server entry the user made must not
lose it: the file is copied under the record's backup folder (`inventory.backup_path`)
and its SHA-256 recorded, the server's old entry is recorded whole. Nothing is kept of
what an install wrote itself, nor twice of one version. Forcing again over a later
version of the user's (an edit of the installed copy) keeps that one too, as the one
uninstall puts back, and moves the copy kept before aside: to ``<backup>.~N~`` for a
file, to ``mcp-servers/<server>.~N~.json`` in the backup folder for a server (a
snippet of ``.mcp.json``), recorded in the component's ``earlier`` copies. Nothing the
user wrote is ever overwritten without a copy.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from skill_retriever.components.install.inventory import (
    InstallRecord,
    RecordEntry,
    backup_path,
    sha256,
)
from skill_retriever.components.install.layout import BACKUP_DIR, MCP_FILE
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.settings import write_json
from skill_retriever.fsutil import write_atomic

__all__ = ["keep_file", "keep_server"]

#: Where the earlier entries of replaced servers go, below the backup folder.
SERVERS_DIR = f"{BACKUP_DIR}/mcp-servers"


def keep_file(record: InstallRecord, entry: RecordEntry, rel: str, dest: Path) -> None:
    """Before ``force`` overwrites ``dest``: keep a copy when it is the user's own (no
    install wrote exactly it), for uninstall to put back. A different copy kept before
    (an earlier version of theirs) is moved aside first, never overwritten."""
    if not dest.is_file():
        return
    data = dest.read_bytes()
    digest = sha256(data)
    if record.owns_file(rel, digest):
        return
    backup = safe_destination(record.root, backup_path(rel))
    if not (backup.is_file() and sha256(backup.read_bytes()) == digest):
        if backup.exists():
            earlier = _free_name(record, backup_path(rel), "")
            os.replace(backup, safe_destination(record.root, earlier))
            entry.earlier[earlier] = rel
        write_atomic(backup, data, dest.stat().st_mode & 0o777)
    for other in record.components.values():  # one copy to put back: the latest
        other.replaced_files.pop(rel, None)
    entry.replaced_files[rel] = digest


def keep_server(record: InstallRecord, entry: RecordEntry, name: str, old: Any) -> None:
    """Before ``force`` replaces server ``name``: keep the user's own entry in the record,
    for uninstall to put back. A different entry kept before (an earlier version of
    theirs) is written to a file of the backup folder first."""
    if record.owns_server(name, old):
        return
    for other in record.components.values():  # one entry to put back: the latest
        kept = other.replaced_servers.pop(name, None)
        if kept is not None and kept != old:
            earlier = _free_name(record, f"{SERVERS_DIR}/{quote(name, safe='')}", ".json")
            write_json(record.root, earlier, {"mcpServers": {name: kept}}, mode=0o600)
            entry.earlier[earlier] = f"{MCP_FILE}#{name}"
    entry.replaced_servers[name] = old


def _free_name(record: InstallRecord, base: str, suffix: str) -> str:
    """``<base>.~N~<suffix>`` with the lowest ``N`` neither on disk nor recorded."""
    taken = {path for e in record.components.values() for path in e.earlier}
    n = 1
    while True:
        name = f"{base}.~{n}~{suffix}"
        if name not in taken and not safe_destination(record.root, name).exists():
            return name
        n += 1
