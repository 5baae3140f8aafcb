"""Reading what can still be read from a damaged ``items.sqlite``, table by table.

SQLite stops a whole scan at the first page it cannot read, so one bad page hides every
row after it. Here a table is scanned in rowid order; where the scan breaks, the next
rowid is read alone (a point lookup seeks from the root, so it skips the broken page),
and the scan resumes after it. A row whose full read fails is read column by column:
a vector or term-count blob on a damaged overflow page is dropped (the writer embeds or
counts it again from the text), while a row missing a column that cannot be rebuilt
(its id, its text) is lost. The ids of lost rows come from the table's id index, which
lives on other pages, so a lost item can be named and counted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["OPTIONAL_COLUMNS", "ReadTable", "damage_of", "open_damaged", "read_table"]

#: Columns the writer rebuilds from a row's text (vectors, term counts) or that a fresh file
#: does not need (``seq``: readers of a new file load it whole): a row that lost only these
#: is kept without them.
OPTIONAL_COLUMNS = frozenset({"vector", "vhash", "terms", "terms_key", "seq"})
#: How far past the last readable rowid lookups go when the table's largest rowid cannot
#: be read (its last page is the damaged one).
_PROBE_PAST = 10_000
_LOWEST = -(2**63)


@dataclass
class ReadTable:
    """What was read of one table: its rows (rowid first, then ``columns``), how many of
    them lost an optional column, and the ids (from the id index) of the rows not read."""

    name: str
    columns: tuple[str, ...]
    rows: list[tuple[object, ...]] = field(default_factory=list)
    partial: int = 0
    lost_ids: list[str] = field(default_factory=list)
    #: Rows that could not be read and whose id is not known (the id index is damaged too).
    lost_unnamed: int = 0
    #: Whether rows past the last one read may be lost, how many unknown: the table's end
    #: cannot be read, and a lookup there fails whether or not a row was there.
    lost_past_end: bool = False


def open_damaged(path: Path) -> sqlite3.Connection:
    """A read-only connection to the damaged file (``mode=ro``: nothing here writes it)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    db.execute("PRAGMA cell_size_check=ON")  # a garbled page is an error, not rows of garbage
    return db


def damage_of(db: sqlite3.Connection) -> str | None:
    """What SQLite's own check finds wrong with the file (its first complaint), None when
    nothing: a page the load never reads (an index) breaks the next write all the same."""
    try:
        found = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if found == ["ok"]:
        return None
    # its first complaint, without the "*** in database main ***" heading it starts with
    said = [line for text in found for line in text.splitlines() if line.strip() and not line.startswith("***")]
    return f"{said[0] if said else 'damaged'}{f' and {len(said) - 1} more' if len(said) > 1 else ''}"


def columns_of(db: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The table's columns in the damaged file (read from its schema page)."""
    return tuple(str(r[1]) for r in db.execute(f"PRAGMA table_info({table})"))


def read_table(db: sqlite3.Connection, table: str, columns: Sequence[str], id_column: str | None) -> ReadTable:
    """Every row of ``table`` that can be read; see the module docstring."""
    out = ReadTable(table, tuple(columns))
    known = _ids_by_rowid(db, table, id_column) if id_column else ({}, False)
    ids, complete = known
    top = largest = _largest_rowid(db, table)
    if ids:
        top = max(top or _LOWEST, max(ids))
    failed: list[int] = []
    pos = _LOWEST
    last_good = 0
    while True:
        try:
            for row in db.execute(f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid", (pos,)):
                out.rows.append(tuple(row))
                pos = last_good = int(row[0])
            break
        except sqlite3.DatabaseError:
            pos = pos + 1 if pos != _LOWEST else 1  # SQLite numbers rows from 1
            limit = top if top is not None else last_good + _PROBE_PAST
            if pos > limit:
                break
            row, whole = _one_row(db, table, columns, pos)
            if row is None and not whole:
                failed.append(pos)
            elif row is not None:
                out.rows.append(row)
                out.partial += not whole
                last_good = pos
    read = {r[0] for r in out.rows}
    out.lost_ids = sorted(i for rowid, i in ids.items() if rowid not in read)
    if not complete:  # a failed lookup is a lost row only where the id index cannot say it was a gap
        # with the table's largest rowid unreadable, lookups past the last row known only probe
        end = largest if largest is not None else max([last_good, *ids])
        out.lost_unnamed = sum(rowid not in ids and rowid <= end for rowid in failed)
        out.lost_past_end = largest is None
    return out


def _one_row(db: sqlite3.Connection, table: str, columns: Sequence[str], rowid: int) -> tuple[tuple[object, ...] | None, bool]:
    """The row at ``rowid`` and whether it was read whole: (None, True) when there is no
    such row, (None, False) when it cannot be read, (row, False) when it lost an optional
    column (None in its place)."""
    try:
        found = db.execute(f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
        return (None if found is None else tuple(found)), True
    except sqlite3.DatabaseError:
        pass  # read it column by column below: a damaged overflow page may hold only its vector
    values: list[object] = [rowid]
    for column in columns:
        try:
            cell = db.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            if column not in OPTIONAL_COLUMNS:
                return None, False
            cell = (None,)
        if cell is None:
            return None, False
        values.append(cell[0])
    return tuple(values), False


def _ids_by_rowid(db: sqlite3.Connection, table: str, id_column: str | None) -> tuple[dict[int, str], bool]:
    """rowid -> id of every row the table's id index names, and whether the index was
    read whole. It is read up from the start and down from the end, so one damaged index
    page hides only the ids on it."""
    index = _id_index(db, table, id_column)
    if index is None:
        return {}, False
    found: dict[int, str] = {}
    whole = True
    for order in ("ASC", "DESC"):
        try:
            for rowid, item_id in db.execute(
                f"SELECT rowid, {id_column} FROM {table} INDEXED BY {index} ORDER BY {id_column} {order}"
            ):
                found[int(rowid)] = str(item_id)
            break  # read whole going up: no need to come down
        except sqlite3.DatabaseError:
            whole = False
    return found, whole


def _id_index(db: sqlite3.Connection, table: str, column: str | None) -> str | None:
    """The name of the unique index on ``table(column)`` (a primary key's), if any."""
    for _, name, unique, *_ in db.execute(f"PRAGMA index_list({table})"):
        cols = [str(r[2]) for r in db.execute(f"PRAGMA index_info({name})")]
        if unique and cols == [column]:
            return str(name)
    return None


def _largest_rowid(db: sqlite3.Connection, table: str) -> int | None:
    try:
        row = db.execute(f"SELECT max(rowid) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None or row[0] is None else int(row[0])


def rows_in(table: ReadTable) -> Iterator[tuple[object, ...]]:
    """The rows as they are written back (without their rowid: the fresh file numbers them)."""
    return (row[1:] for row in table.rows)
