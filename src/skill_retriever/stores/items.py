"""The source of truth of an index: nodes, edges and their vectors in one SQLite file (WAL).

Every write is one transaction that stamps its rows with the new index version (``seq``)
and records deletions as tombstones, so:

- a process killed at any moment leaves the file holding exactly the batches whose call
  returned, each with its vectors (nothing is embedded twice, nothing half-written);
- a reader in another process opens the file read-only (``mode=ro``: it can never change
  it), loads one committed state in one read transaction, and later catches up by reading
  only the rows and tombstones stamped after the version it holds.

Vectors are float32 little-endian blobs beside their rows; ``vhash`` says what text a
vector was embedded from (a node's content hash, an edge's sentence), so a stale or
missing vector is found by comparing hashes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Edge, Node

T = TypeVar("T")
Vector = NDArray[np.float32]

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (
    id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL, vector BLOB,
    seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS edges (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL, data TEXT NOT NULL,
    vhash TEXT, vector BLOB, seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS deleted (id TEXT NOT NULL, what TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS edges_source ON edges(source);
CREATE INDEX IF NOT EXISTS edges_target ON edges(target);
CREATE INDEX IF NOT EXISTS nodes_seq ON nodes(seq);
CREATE INDEX IF NOT EXISTS edges_seq ON edges(seq);
CREATE INDEX IF NOT EXISTS deleted_seq ON deleted(seq);
"""

#: Schema 1 kept vectors in Chroma only; a writer adds the columns and fills them.
_MIGRATE_1_TO_2 = """
ALTER TABLE nodes ADD COLUMN vector BLOB;
ALTER TABLE nodes ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE edges ADD COLUMN vhash TEXT;
ALTER TABLE edges ADD COLUMN vector BLOB;
ALTER TABLE edges ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
"""


@dataclass(frozen=True, slots=True)
class StoredVector:
    """A vector and the hash of the text it was embedded from."""

    vhash: str
    vector: Vector


@dataclass
class Changes:
    """What a read returned: everything (a full load) or what changed after a version."""

    version: int
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)
    node_vectors: dict[str, StoredVector] = field(default_factory=dict)
    edge_vectors: dict[str, StoredVector] = field(default_factory=dict)
    deleted_nodes: set[str] = field(default_factory=set)
    deleted_edges: set[str] = field(default_factory=set)
    calibration: str | None = None  # the stored calibration (JSON), as read with the rows


@dataclass(frozen=True, slots=True)
class NodeRow:
    """One node to write, with its vector (None keeps the stored one)."""

    node: Node
    vector: Vector | None


@dataclass(frozen=True, slots=True)
class EdgeRow:
    """One edge to write; ``vhash``/``vector`` None for an edge that has no vector."""

    edge: Edge
    vhash: str | None = None
    vector: Vector | None = None


def _blob(vector: Vector) -> bytes:
    return np.ascontiguousarray(vector, dtype="<f4").tobytes()


def _vector(blob: bytes) -> Vector:
    return np.frombuffer(blob, dtype="<f4").astype(np.float32, copy=False)


class ItemStore:
    """Nodes, edges, vectors and index metadata in ``items.sqlite``.

    Args:
        path: The database file.
        writable: Open for writing (migrate an older schema); else read-only, which SQLite
            itself enforces (``mode=ro``).
        create: Create the schema in an empty file (a new index). Without it, a file with
            no tables is damaged (truncated), never silently an empty index.
    """

    def __init__(self, path: Path, *, writable: bool, create: bool = False) -> None:
        self.path = path
        self.writable = writable
        self.create = create and writable
        self._lock = threading.RLock()
        try:
            if writable:
                self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            else:
                self._db = sqlite3.connect(
                    f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False, isolation_level=None
                )
            self._db.execute("PRAGMA busy_timeout=10000")
            self._check_schema()  # before any write: a damaged file is reported, never "fixed"
            if writable:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            self.close()
            raise IndexCorruptError(
                f"{path} is not a readable index database ({exc}); rebuild the index: delete "
                "the index directory and run `skill-retriever index` again"
            ) from exc

    def _check_schema(self) -> None:
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if not self.create:
                raise IndexCorruptError(
                    f"{self.path} is empty (no tables): the file was truncated; the index's items "
                    "are gone: delete the index directory and run `skill-retriever index` again"
                )
            self._db.executescript(_SCHEMA)
            self._set_meta("schema_version", str(SCHEMA_VERSION))
            return
        if not {"meta", "nodes", "edges"} <= tables:
            raise IndexCorruptError(
                f"{self.path} is not a skill-retriever database (tables {sorted(tables)}); "
                "point at an index directory, or delete this one and run `skill-retriever index` again"
            )
        found = self.get_meta("schema_version")
        if found == str(SCHEMA_VERSION):
            return
        if found == "1":
            if not self.writable:
                raise IndexCorruptError(
                    f"{self.path} was written by an older skill-retriever (schema 1); migrate it "
                    "once with `skill-retriever repair --index-dir <this directory>`"
                )
            self._db.executescript(_MIGRATE_1_TO_2)
            self._db.executescript(_SCHEMA)
            self._set_meta("schema_version", str(SCHEMA_VERSION))
            return
        raise IndexCorruptError(
            f"{self.path} has schema version {found}, this version reads {SCHEMA_VERSION}; "
            "re-index into a new directory with `skill-retriever index`"
        )

    def close(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()

    # -- metadata ---------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    @property
    def version(self) -> int:
        return int(self.get_meta("version") or 0)

    def data_version(self) -> int:
        """SQLite's counter of commits by *other* connections (a cheap "has it changed?")."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    # -- reads ------------------------------------------------------------------------
    def load(self, since: int | None = None) -> Changes:
        """Everything (``since`` None) or what changed after version ``since``, read in one
        transaction so it is one committed state."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                return self._read(since)
            except sqlite3.DatabaseError as exc:
                raise IndexCorruptError(
                    f"{self.path} cannot be read ({exc}); the index is damaged: delete the index "
                    "directory and run `skill-retriever index` again"
                ) from exc
            finally:
                self._db.execute("COMMIT")

    def _read(self, since: int | None) -> Changes:
        version = int((self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() or [0])[0])
        stored = self._db.execute("SELECT value FROM meta WHERE key = 'calibration'").fetchone()
        out = Changes(version, calibration=None if stored is None else str(stored[0]))
        where, args = ("WHERE seq > ?", (since,)) if since is not None else ("", ())
        for rowid, data, vhash, blob in self._db.execute(
            f"SELECT rowid, data, hash, vector FROM nodes {where} ORDER BY rowid", args
        ):
            node = self._item(Node.from_dict, "node", rowid, data)
            out.nodes[node.id] = node
            if blob is not None:
                out.node_vectors[node.id] = StoredVector(str(vhash), _vector(blob))
        for rowid, data, vhash, blob in self._db.execute(
            f"SELECT rowid, data, vhash, vector FROM edges {where} ORDER BY rowid", args
        ):
            edge = self._item(Edge.from_dict, "edge", rowid, data)
            out.edges[edge.id] = edge
            if blob is not None:
                out.edge_vectors[edge.id] = StoredVector(str(vhash), _vector(blob))
        if since is not None:
            for item_id, what in self._db.execute("SELECT id, what FROM deleted WHERE seq > ? ORDER BY seq", (since,)):
                # A later re-add wins: its row was read above, so only drop what is not back.
                if what == "node" and item_id not in out.nodes:
                    out.deleted_nodes.add(str(item_id))
                elif what == "edge" and item_id not in out.edges:
                    out.deleted_edges.add(str(item_id))
        return out

    def _item(self, parse: Callable[[Any], T], what: str, rowid: int, data: str) -> T:
        try:
            return parse(json.loads(data))
        except (ValueError, TypeError, KeyError) as exc:  # JSON errors and InvalidItemError are ValueErrors
            raise IndexCorruptError(
                f"{self.path}: {what} row {rowid} is damaged ({exc}); rebuild the index: delete "
                "the index directory and run `skill-retriever index` again"
            ) from exc

    def edge_ids_touching(self, node_ids: Iterable[str]) -> list[str]:
        ids = list(node_ids)
        out: list[str] = []
        with self._lock:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                marks = ",".join("?" * len(chunk))
                out.extend(
                    str(r[0])
                    for r in self._db.execute(
                        f"SELECT id FROM edges WHERE source IN ({marks}) OR target IN ({marks})", chunk + chunk
                    )
                )
        return out

    # -- writes -----------------------------------------------------------------------
    def write(
        self,
        version: int,
        *,
        nodes: Sequence[NodeRow] = (),
        edges: Sequence[EdgeRow] = (),
        delete_nodes: Iterable[str] = (),
        delete_edges: Iterable[str] = (),
    ) -> None:
        """Apply one batch atomically (all of it or nothing), stamped with ``version``."""
        if not self.writable:
            raise IndexCorruptError(f"{self.path} is open read-only; open the index for writing")
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.executemany(
                    "INSERT INTO nodes(id, hash, data, vector, seq) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET hash = excluded.hash, data = excluded.data, "
                    "vector = COALESCE(excluded.vector, nodes.vector), seq = excluded.seq",
                    (
                        (
                            r.node.id,
                            r.node.content_hash(),
                            json.dumps(r.node.to_dict(), allow_nan=False),
                            None if r.vector is None else _blob(r.vector),
                            version,
                        )
                        for r in nodes
                    ),
                )
                cur.executemany(
                    "INSERT OR REPLACE INTO edges(id, source, target, data, vhash, vector, seq) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        (
                            r.edge.id,
                            r.edge.source,
                            r.edge.target,
                            json.dumps(r.edge.to_dict()),
                            r.vhash,
                            None if r.vector is None else _blob(r.vector),
                            version,
                        )
                        for r in edges
                    ),
                )
                for what, ids in (("node", delete_nodes), ("edge", delete_edges)):
                    table = "nodes" if what == "node" else "edges"
                    for item_id in ids:
                        cur.execute(f"DELETE FROM {table} WHERE id = ?", (item_id,))
                        cur.execute("INSERT INTO deleted(id, what, seq) VALUES (?, ?, ?)", (item_id, what, version))
                cur.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('version', ?)", (str(version),))
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def set_vectors(self, nodes: Sequence[tuple[str, Vector]], edges: Sequence[tuple[str, str, Vector]]) -> None:
        """Fill in vectors of rows that have none (migration and repair; no version bump:
        the items themselves did not change)."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.executemany("UPDATE nodes SET vector = ? WHERE id = ?", ((_blob(v), i) for i, v in nodes))
                cur.executemany(
                    "UPDATE edges SET vhash = ?, vector = ? WHERE id = ?", ((h, _blob(v), i) for i, h, v in edges)
                )
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def set_calibration(self, calibration: str) -> None:
        """Store what the index learned about itself (JSON; no version bump: the items
        did not change). Readers in other processes read it at their next catch-up."""
        with self._lock:
            self._set_meta("calibration", calibration)

    def ids_without_vectors(self) -> Iterator[str]:
        with self._lock:
            rows = self._db.execute("SELECT id FROM nodes WHERE vector IS NULL").fetchall()
        yield from (str(r[0]) for r in rows)


__all__ = ["SCHEMA_VERSION", "Changes", "EdgeRow", "ItemStore", "NodeRow", "StoredVector"]
