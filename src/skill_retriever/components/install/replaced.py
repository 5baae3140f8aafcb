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
user wrote is ever overwritten without a copy. Each copy kept or moved is noted
(`KeptCopy`), so that an install that then fails before writing anything takes them back
(`undo_kept`) along with its record: the target is left exactly as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from skill_retriever.components.install.as_before import prune_empty
from skill_retriever.components.install.filled_in import filled_in
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

__all__ = ["KeptCopy", "keep_file", "keep_server", "undo_kept"]

#: Where the earlier entries of replaced servers go, below the backup folder.
SERVERS_DIR = f"{BACKUP_DIR}/mcp-servers"


@dataclass(frozen=True)
class KeptCopy:
    """A copy keeping wrote (``made``), and where the copy kept before was moved from and
    to (``moved``: the earlier version of the user's, set aside)."""

    made: Path
    moved: tuple[Path, Path] | None = None


def undo_kept(root: Path, kept: list[KeptCopy]) -> None:
    """Take back the copies an install kept, latest first: each written copy goes and each
    copy moved aside returns where it was (the install then wrote nothing, and its record
    is put back as it was, which names those)."""
    for copy in reversed(kept):
        copy.made.unlink(missing_ok=True)
        if copy.moved is not None:
            os.replace(copy.moved[1], copy.moved[0])
        prune_empty(root, copy.made.parent)


def keep_file(
    record: InstallRecord, entry: RecordEntry, rel: str, dest: Path, kept: list[KeptCopy]
) -> None:
    """Before ``force`` overwrites ``dest``: keep a copy when it is the user's own (no
    install wrote exactly it), for uninstall to put back. A different copy kept before
    (an earlier version of theirs) is moved aside first, never overwritten. What it does
    on disk joins ``kept``."""
    if not dest.is_file():
        return
    data = dest.read_bytes()
    digest = sha256(data)
    if record.owns_file(rel, digest):
        return
    backup = safe_destination(record.root, backup_path(rel))
    if not (backup.is_file() and sha256(backup.read_bytes()) == digest):
        moved = None
        if backup.exists():
            earlier = _free_name(record, backup_path(rel), "")
            moved = (backup, safe_destination(record.root, earlier))
            os.replace(*moved)
            entry.earlier[earlier] = rel
        kept.append(KeptCopy(backup, moved))  # before the write: should it fail, the move is undone
        write_atomic(backup, data, dest.stat().st_mode & 0o777)
    for other in record.components.values():  # one copy to put back: the latest
        other.replaced_files.pop(rel, None)
    entry.replaced_files[rel] = digest


def keep_server(
    record: InstallRecord, entry: RecordEntry, name: str, old: Any, kept: list[KeptCopy]
) -> None:
    """Before ``force`` replaces server ``name``: keep the user's own entry in the record,
    for uninstall to put back. A different entry kept before (an earlier version of
    theirs) is written to a file of the backup folder first (joining ``kept``). An entry
    an install wrote is no one's to put back, also when the user only filled in the values
    it left to fill (a new version replaces it, those values carried: `server_action`)."""
    mine = entry.mcp.get(name)
    if record.owns_server(name, old) or (mine is not None and filled_in(mine, old) is not None):
        return
    for other in record.components.values():  # one entry to put back: the latest
        before = other.replaced_servers.pop(name, None)
        if before is not None and before != old:
            earlier = _free_name(record, f"{SERVERS_DIR}/{quote(name, safe='')}", ".json")
            write_json(record.root, earlier, {"mcpServers": {name: before}}, mode=0o600)
            kept.append(KeptCopy(safe_destination(record.root, earlier)))
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
