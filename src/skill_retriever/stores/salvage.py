"""``repair`` of a damaged ``items.sqlite``: a fresh file of every row that can still be
read, the damaged one kept beside it, and an account of what was lost.

Damaged pages (a disk error, a file overwritten in part) make every command fail on the
file, and the list of sources to index again lives in it. :func:`salvage_items` reads it
table by table (``stores.salvage_read``), writes the rows into a fresh file made by the
same code that makes a new index's (``ItemStore(create=True)``), checks that file, and
only then swaps it in: the damaged file is kept, bytes unchanged, as
``items.sqlite.bad-<UTC time>`` (with its ``-wal``, if any, as ``...-wal``). Vectors and
term counts the salvage dropped are rebuilt from the text by the writer's open that
follows (``stores.repair``). A file whose header or schema cannot be read holds nothing
SQLite can salvage; the sources it records are still named, read from its raw bytes.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import re
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.advice import Placeholder, command
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.held_sources import HeldSource
from skill_retriever.stores import stored_terms
from skill_retriever.stores.cut_short import cut_short, readable_copy
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.manifest import DATABASE, MANIFEST
from skill_retriever.stores.salvage_read import (
    ReadTable,
    columns_of,
    damage_of,
    open_damaged,
    read_table,
    rows_in,
)

__all__ = ["Salvage", "salvage_items"]

#: The tables salvaged and the column that names each row (None: rows have no name).
_TABLES = {"meta": "key", "nodes": "id", "edges": "id", "deleted": None}
#: Meta rows the fresh file writes itself (copying an older file's would mislabel it).
_OWN_META = frozenset({"schema_version"})
_WORDS = {"nodes": "item", "edges": "relation"}
#: How an item's source is written in its stored JSON (``ingest.provenance``).
_SOURCE_RE = re.compile(rb'"source_root": ("(?:[^"\\]|\\.){0,4096}"), "source_name": ("(?:[^"\\]|\\.){0,512}")')


@dataclass
class Salvage:
    """What :func:`salvage_items` did: the file it kept, what it read back and lost per
    table, and the sources the index records (``lost``: source name -> lost rows)."""

    path: Path
    damage: str
    kept: Path
    tables: dict[str, ReadTable]
    sources: list[HeldSource]
    lost: Counter[str] = field(default_factory=Counter)
    unattributed: list[str] = field(default_factory=list)

    def mended(self) -> str:
        """One line: what was read back, and where the damaged file is."""
        counts = [_read_back(t, _WORDS[name]) for name, t in self.tables.items() if name in _WORDS]
        partial = sum(t.partial for t in self.tables.values())
        without = f" ({partial} without a vector or term counts, rebuilt from their text)" if partial else ""
        return (f"salvaged the damaged {DATABASE} ({self.damage}): read back {' and '.join(counts)}{without}; "
                f"the damaged file is kept as {self.kept.name}")

    def left(self) -> list[str]:
        """What the salvage could not read back, and the commands that write it again."""
        lines = []
        for source in self.sources:
            if n := self.lost[source.name]:
                lines.append(f"{n} row(s) of source {source.name} could not be read back; index it again: "
                             f"`{source.command(self.path)}`")
        if self.unattributed:
            again = "; ".join(f"`{s.command(self.path)}`" for s in self.sources)
            lines.append(f"{len(self.unattributed)} row(s) that name no source could not be read back (first: "
                         f"{self.unattributed[0]!r}); write them again (items added through the API)"
                         + (f", or index the sources that held them again ({again})" if again else ""))
        if unnamed := sum(t.lost_unnamed for t in self.tables.values()):
            lines.append(f"{unnamed} more row(s) could not be read back and their ids are unknown; {self.kept.name} "
                         "keeps them; indexing every source again writes back what they held")
        if past := [f"{_WORDS[n]}s" for n, t in self.tables.items() if n in _WORDS and t.lost_past_end]:
            lines.append(f"the end of the file cannot be read, so more {' and '.join(past)} may be lost, how many is "
                         f"unknown; {self.kept.name} keeps them; indexing every source again writes back what they held")
        return lines

    def recorded(self) -> str:
        """The sources the index records, for the user who must index some again."""
        named = ", ".join(f"{s.name} ({s.root})" for s in self.sources) or "none (its items were written through the API)"
        return f"the index records these sources: {named}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "damage": self.damage, "kept": str(self.kept),
            "tables": {name: {"recovered": len(t.rows), "lost": self._lost_in(t), "partial": t.partial,
                              "lost_past_end": t.lost_past_end}
                       for name, t in self.tables.items()},
            "sources": [{"name": s.name, "root": str(s.root), "lost": self.lost[s.name], "command": s.command(self.path)}
                        for s in self.sources],
            "unattributed": len(self.unattributed),
        }

    @staticmethod
    def _lost_in(table: ReadTable) -> int:
        return len(table.lost_ids) + table.lost_unnamed


def _read_back(table: ReadTable, word: str) -> str:
    """``N of M item(s)``, or, when rows past the last one read may be lost, how many is unknown."""
    lost = Salvage._lost_in(table)
    if not table.lost_past_end:
        return f"{len(table.rows)} of {len(table.rows) + lost} {word}(s)"
    return f"{len(table.rows)} {word}(s) ({f'{lost} lost and ' if lost else ''}an unknown number lost at the file's end)"


def salvage_items(path: Path, lock_wait_s: float = 0.0) -> Salvage | None:
    """Replace a damaged ``items.sqlite`` in the index directory ``path`` with a fresh file
    of every row that can be read, keeping the damaged one; None when there is nothing to
    salvage (no such file, a sound one, an empty or foreign one: the open judges those).

    Raises:
        IndexLockedError: Another process is writing the index (past ``lock_wait_s``).
        IndexCorruptError: The file's header or schema cannot be read: nothing in it can
            be salvaged (the message names the sources it records); nothing was changed.
    """
    database = path / DATABASE
    if not database.is_file() or database.stat().st_size == 0 or _read_damaged(path, database, probe=True) is None:
        return None  # judged before the lock: a folder not an index's gets no write.lock
    lock = WriterLock(path, lock_wait_s)
    lock.acquire()
    try:
        read = _read_damaged(path, database)
        if read is None:
            return None
        damage, tables = read
        fresh = _write_fresh(path, tables)
        kept = _swap(database, fresh)
    finally:
        lock.release()
    return _account(path, damage, kept, tables)


def _read_damaged(path: Path, database: Path, *, probe: bool = False) -> tuple[str, dict[str, ReadTable]] | None:
    """What the damage is and every table's readable rows (``probe``: no rows, only
    whether there is damage); None when the file is sound or not an index's."""
    try:
        db = open_damaged(database)
    except sqlite3.Error as exc:
        if not _corrupt(exc):
            return None  # permissions, a read-only folder, a busy file: the open says which
        raise _nothing_to_salvage(path, database, exc) from exc
    try:
        try:
            present = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            if not _corrupt(exc):
                # A sound file SQLite cannot open here (a WAL file in a read-only folder
                # cannot make its -shm; no read permission): no damage, nothing to salvage.
                return None
            if not (path / MANIFEST).exists() and not _has_sqlite_header(database):
                return None  # not an index's file: the open says what it is
            if (short := cut_short(database)) is None:
                raise _nothing_to_salvage(path, database, exc) from exc
            with readable_copy(database, short) as copy:  # a file cut short reads as one damaged at its end
                read = _read_damaged(path, copy, probe=probe)
            return None if read is None else (f"{short.words()}; {read[0]}", read[1])
        if not {"meta", "nodes", "edges"} <= present:
            return None
        damage = damage_of(db)
        if damage is None or probe:
            return None if damage is None else (damage, {})
        return damage, {t: read_table(db, t, columns_of(db, t), key) for t, key in _TABLES.items() if t in present}
    finally:
        db.close()


def _corrupt(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file's bytes are bad (``SQLITE_CORRUPT``,
    ``SQLITE_NOTADB``), not that it could not open or lock a sound file."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _has_sqlite_header(database: Path) -> bool:
    with database.open("rb") as fh:
        return fh.read(16) == b"SQLite format 3\x00"


def _nothing_to_salvage(path: Path, database: Path, exc: BaseException) -> IndexCorruptError:
    """The error for a file SQLite cannot open at all, naming the sources its bytes record."""
    sources = [HeldSource(n, Path(r)) for n, r in sorted(_sources_in_bytes([database, _side(database, "-wal")]))]
    again = "; ".join(f"`{s.command(path)}`" for s in sources)
    what = (f"it records these sources: {', '.join(f'{s.name} ({s.root})' for s in sources)}; move {path} "
            f"aside (keep it: the file still holds the items' bytes) and index them again: {again}" if sources else
            f"no source can be read from it either; move {path} aside and index your sources again with "
            f"`{command(['index', Placeholder('<sources>')], path)}`")
    return IndexCorruptError(f"{database}: its header or schema cannot be read ({exc}), so nothing in it can be "
                             f"salvaged and nothing was changed; {what}")


def _sources_in_bytes(files: Iterable[Path]) -> set[tuple[str, str]]:
    """(name, root) of every source recorded in the raw bytes of ``files``, found by how an
    item's JSON writes them: what can be named when SQLite reads nothing."""
    found: set[tuple[str, str]] = set()
    for file in files:
        if not file.is_file() or file.stat().st_size == 0:
            continue
        with file.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            for m in _SOURCE_RE.finditer(data):
                with contextlib.suppress(ValueError):  # a match cut by a damaged page: not a name
                    found.add((json.loads(m.group(2)), json.loads(m.group(1))))
    return found


def _write_fresh(path: Path, tables: dict[str, ReadTable]) -> Path:
    """A new database at a temporary name holding ``tables``' rows, checked whole.

    Raises:
        IndexCorruptError: It cannot be written (disk full) or fails SQLite's check; the
            temporary file is removed and the damaged one left as it is.
    """
    fresh = path / f"{DATABASE}.salvage-tmp"
    _remove_with_sides(fresh)
    try:
        ItemStore(fresh, writable=True, create=True).close()  # the schema a new index gets
        db = sqlite3.connect(str(fresh), isolation_level=None)
        try:
            cur = db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            stored_terms.add_columns(cur)
            for table in tables.values():
                _insert(cur, table)
            # the version a lost meta row held: no row can be newer than it
            cur.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('version', ?)", (str(_newest(tables)),))
            cur.execute("COMMIT")
            checked = [str(r[0]) for r in db.execute("PRAGMA integrity_check(5)")]
        finally:
            db.close()
        if checked != ["ok"]:
            raise IndexCorruptError(f"the salvaged copy of {path / DATABASE} fails SQLite's check ({checked[0]}); "
                                    "nothing was changed; rebuild the index into a new directory")
        with fresh.open("rb") as fh:
            os.fsync(fh.fileno())
    except (sqlite3.Error, OSError) as exc:
        _remove_with_sides(fresh)
        raise IndexCorruptError(f"cannot write the salvaged copy of {path / DATABASE} ({exc}); nothing was "
                                "changed; free some space or make the folder writable and run repair again") from exc
    except BaseException:
        _remove_with_sides(fresh)
        raise
    return fresh


def _newest(tables: dict[str, ReadTable]) -> int:
    """The largest ``seq`` among the rows read back (0: none)."""
    newest = 0
    for table in tables.values():
        if "seq" in table.columns:
            at = table.columns.index("seq") + 1
            newest = max([newest, *(int(r[at]) for r in table.rows if isinstance(r[at], int))])  # type: ignore[call-overload]
    return newest


def _insert(cur: sqlite3.Cursor, table: ReadTable) -> None:
    """Write ``table``'s rows into the fresh file's table of that name (the columns both have)."""
    have = {str(r[1]) for r in cur.execute(f"PRAGMA table_info({table.name})")}
    keep = [i for i, c in enumerate(table.columns) if c in have]
    names = ", ".join(table.columns[i] for i in keep)
    rows: Iterable[tuple[object, ...]] = rows_in(table)
    if table.name == "meta":
        rows = (r for r in rows if r[table.columns.index("key")] not in _OWN_META)
    cur.executemany(f"INSERT OR IGNORE INTO {table.name} ({names}) VALUES ({', '.join('?' * len(keep))})",
                    (tuple(r[i] for i in keep) for r in rows))


def _swap(database: Path, fresh: Path) -> Path:
    """Keep the damaged file (and its ``-wal`` and ``-shm``) as ``<name>.bad-<time>``, then
    put ``fresh`` in its place. The damaged bytes are kept under the new name before
    anything is replaced (a hard link, else a copy), so no moment loses them."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    names = (f"{database.name}.bad-{stamp}" + (f"-{n}" if n else "") for n in itertools.count())
    kept = next(database.with_name(n) for n in names if not database.with_name(n).exists())
    try:
        try:
            os.link(database, kept)
        except OSError:  # a file system without hard links
            shutil.copy2(database, kept)
        for side in ("-wal", "-shm"):  # the old WAL must never be read as the fresh file's
            if _side(database, side).exists():
                os.replace(_side(database, side), _side(kept, side))
        os.replace(fresh, database)
    except OSError as exc:
        raise IndexCorruptError(f"cannot put the salvaged copy in place of {database} ({exc}); the salvaged file is "
                                f"{fresh} and the damaged one {kept}: move the salvaged one to {database} yourself") from exc
    return kept


def _side(database: Path, suffix: str) -> Path:
    return database.with_name(database.name + suffix)


def _remove_with_sides(database: Path) -> None:
    for file in (database, _side(database, "-wal"), _side(database, "-shm"), _side(database, "-journal")):
        file.unlink(missing_ok=True)


def _account(path: Path, damage: str, kept: Path, tables: dict[str, ReadTable]) -> Salvage:
    """Who lost what: the sources recorded by the items read back (and, for sources whose
    every item was lost, by the damaged file's bytes), and each lost row's source, known
    from its id (a skills repository's ids begin with its name)."""
    recorded = set(_sources_in_bytes([kept, _side(kept, "-wal")]))
    nodes = tables.get("nodes")
    if nodes is not None and "data" in nodes.columns:
        at = nodes.columns.index("data") + 1
        for row in nodes.rows:
            with contextlib.suppress(ValueError, TypeError, AttributeError):  # a damaged row names no source
                attrs = json.loads(str(row[at])).get("attrs") or {}
                if isinstance(attrs.get("source_name"), str) and isinstance(attrs.get("source_root"), str):
                    recorded.add((attrs["source_name"], attrs["source_root"]))
    out = Salvage(path, damage, kept, tables, [HeldSource(n, Path(r)) for n, r in sorted(recorded)])
    names = sorted({s.name for s in out.sources}, key=len, reverse=True)
    for name in ("nodes", "edges"):
        for lost in tables[name].lost_ids if name in tables else ():
            owner = next((n for n in names if lost.startswith(f"{n}/")), None)
            if owner is None:
                out.unattributed.append(lost)
            else:
                out.lost[owner] += 1
    return out
