"""The source of truth for nodes and edges: one SQLite file in WAL mode.

Every write is one transaction, so a process killed at any moment leaves the file holding
exactly the batches whose call returned. The vector store and the in-memory stores are
rebuilt or reconciled from here when an index opens.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Edge, Node

T = TypeVar("T")

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS edges_source ON edges(source);
CREATE INDEX IF NOT EXISTS edges_target ON edges(target);
"""


class ItemStore:
    """Nodes, edges and index metadata in ``items.sqlite``.

    One connection shared under a lock: SQLite serialises writers anyway, and a single
    connection keeps reads consistent with this process's own last write.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            found = self.get_meta("schema_version")
        except sqlite3.DatabaseError as exc:
            raise IndexCorruptError(
                f"{path} is not a readable index database ({exc}); "
                "delete the index directory and index again"
            ) from exc
        if found is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
        elif found != str(SCHEMA_VERSION):
            raise IndexCorruptError(
                f"{path} has schema version {found}, this version reads {SCHEMA_VERSION}; "
                "re-index into a new directory"
            )
        self._lock = threading.RLock()

    def close(self) -> None:
        self._db.close()

    # -- metadata ---------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # -- writes -----------------------------------------------------------------------
    def write(
        self,
        *,
        upsert_nodes: Iterable[Node] = (),
        upsert_edges: Iterable[Edge] = (),
        delete_nodes: Iterable[str] = (),
        delete_edges: Iterable[str] = (),
        version: int | None = None,
    ) -> None:
        """Apply one batch atomically (all of it or nothing)."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.executemany(
                    "INSERT OR REPLACE INTO nodes(id, hash, data) VALUES (?, ?, ?)",
                    ((n.id, n.content_hash(), json.dumps(n.to_dict())) for n in upsert_nodes),
                )
                cur.executemany(
                    "INSERT OR REPLACE INTO edges(id, source, target, data) VALUES (?, ?, ?, ?)",
                    ((e.id, e.source, e.target, json.dumps(e.to_dict())) for e in upsert_edges),
                )
                cur.executemany("DELETE FROM nodes WHERE id = ?", ((i,) for i in delete_nodes))
                cur.executemany("DELETE FROM edges WHERE id = ?", ((i,) for i in delete_edges))
                if version is not None:
                    cur.execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES ('version', ?)", (str(version),)
                    )
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    # -- reads ------------------------------------------------------------------------
    def node_hashes(self) -> dict[str, str]:
        return {str(i): str(h) for i, h in self._db.execute("SELECT id, hash FROM nodes")}

    def iter_nodes(self) -> Iterator[Node]:
        for rowid, data in self._rows("nodes"):
            yield self._item(Node.from_dict, "node", rowid, data)

    def iter_edges(self) -> Iterator[Edge]:
        for rowid, data in self._rows("edges"):
            yield self._item(Edge.from_dict, "edge", rowid, data)

    def _rows(self, table: str) -> Iterator[tuple[int, str]]:
        try:
            yield from self._db.execute(f"SELECT rowid, data FROM {table} ORDER BY rowid")
        except sqlite3.DatabaseError as exc:
            raise IndexCorruptError(
                f"{self.path}: the {table} table cannot be read ({exc}); "
                "delete the index directory and index again"
            ) from exc

    def _item(self, parse: Callable[[Any], T], what: str, rowid: int, data: str) -> T:
        try:
            return parse(json.loads(data))
        except (ValueError, TypeError, KeyError) as exc:  # JSON errors and InvalidItemError are ValueErrors
            raise IndexCorruptError(
                f"{self.path}: {what} row {rowid} is damaged ({exc}); "
                "delete the index directory and index again"
            ) from exc

    def edge_ids_touching(self, node_ids: Iterable[str]) -> list[str]:
        ids = list(node_ids)
        out: list[str] = []
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            out.extend(
                str(r[0])
                for r in self._db.execute(
                    f"SELECT id FROM edges WHERE source IN ({marks}) OR target IN ({marks})",
                    chunk + chunk,
                )
            )
        return out
