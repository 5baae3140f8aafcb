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
missing vector is found by comparing hashes. A blob that is not ``dim`` finite float32s
(damaged) is read as *unusable*: its item stays, without a vector, and the writer embeds
it again from the stored text (``stores.repair``).

An error of the database file never escapes as ``sqlite3``'s own: it becomes a one-line
`IndexCorruptError`, and ending the failed transaction never hides it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from skill_retriever.advice import Placeholder, command
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Edge, Node
from skill_retriever.stores import stored_terms, term_ids
from skill_retriever.stores.file_identity import FileIdentity
from skill_retriever.stores.index_words import point_at
from skill_retriever.stores.items_schema import MIGRATE_1_TO_2, SCHEMA, SCHEMA_VERSION, write_schema
from skill_retriever.stores.rows import (
    Changes,
    EdgeRow,
    NodeRow,
    StoredVector,
    Vector,
    encode_vector,
    keep_most_common_length,
    parse_row,
    take_vector,
)
from skill_retriever.stores.sqlite_connect import connect

#: sqlite3 errors that are a bug of the caller, not the state of the file: never reworded.
_BUGS = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)
#: SQLite error names of a file that is fine but cannot be used now (disk full, read-only, busy).
_ENVIRONMENT = (
    "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_PERM",
)


def environment_error(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's word for a file that is fine but cannot be used now
    (a full disk, no rights, busy), not damage."""
    return isinstance(exc, sqlite3.Error) and str(getattr(exc, "sqlite_errorname", "")).startswith(_ENVIRONMENT)


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
        self._file = FileIdentity(path)
        try:
            self._db = connect(path, writable)
            self._term_ids = term_ids.WriterIds()  # what this writer knows of terms_vocab
            self._db.execute("PRAGMA busy_timeout=10000")
            self._check_schema()  # before any write: a damaged file is reported, never "fixed"
            if writable:
                # Deleted and replaced rows are overwritten, not left in free pages: a
                # deleted private item or a secret redacted since must not stay readable
                # in the file (`repair` redacts secrets an older ingest kept).
                self._db.execute("PRAGMA secure_delete=ON")
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            self.close()
            raise IndexCorruptError(
                f"{path} is not a readable index database ({exc}); run `{command(['repair'], path.parent)}`: "
                "it salvages what it can (keeping the damaged file) or names the sources to index again"
            ) from exc
        except BaseException:
            self.close()
            raise

    def _check_schema(self) -> None:
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if not self.create:
                raise IndexCorruptError(
                    f"{self.path} is empty (no tables): the file was truncated; the index's items "
                    f"are gone: delete the index directory and run `{command(['index', Placeholder('<sources>')], self.path.parent)}` again"
                )
            write_schema(self._db, SCHEMA)
            return
        if not {"meta", "nodes", "edges"} <= tables:
            raise IndexCorruptError(
                f"{self.path} is not a skill-retriever database (tables {sorted(tables)}): that folder is "
                f"not an index, and nothing there was changed; {point_at('an index, or at a new folder')}"
            )
        found = self.get_meta("schema_version")
        if found == str(SCHEMA_VERSION):
            return
        if found == "1":
            if not self.writable:
                raise IndexCorruptError(
                    f"{self.path} was written by an older skill-retriever (schema 1); migrate it "
                    f"once with `{command(['repair'], self.path.parent)}`"
                )
            write_schema(self._db, MIGRATE_1_TO_2 + SCHEMA)
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
        with self._lock, self._database_errors("cannot be read"):
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def set_meta(self, key: str, value: str) -> None:
        """Store one metadata value (its own transaction; no version bump)."""
        if not self.writable:
            raise IndexCorruptError(f"{self.path} is open read-only; open the index for writing")
        self._file.check()  # as `write`: never into a file deleted since the open
        with self._lock, self._database_errors("cannot be written"):
            self._set_meta(key, value)

    @property
    def version(self) -> int:
        return int(self.get_meta("version") or 0)

    def check_file(self) -> None:
        """Raises IndexNotFoundError when the database file was deleted or replaced since."""
        self._file.check()

    def data_version(self) -> int:
        """SQLite's counter of commits by *other* connections (a cheap "has it changed?")."""
        self._file.check()  # a file deleted or replaced since the open: never read on
        with self._lock, self._database_errors("cannot be read"):
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    # -- reads ------------------------------------------------------------------------
    def load(self, since: int | None = None, *, dim: int = 0) -> Changes:
        """Everything (``since`` None) or what changed after version ``since``, read in one
        transaction so it is one committed state.

        Args:
            dim: The index's vector length; a stored vector of another length (or with a
                non-finite value) is reported in ``unusable_*``, not returned. 0 (not known
                yet): the most common length wins.
        """
        with self._lock, self._database_errors("cannot be read"):
            self._db.execute("BEGIN")
            try:
                out = self._read(since, dim)
                self._db.execute("COMMIT")
            except BaseException as exc:
                self._end_failed(exc)
                raise
        if self.writable:  # the writer stores the term counts its load lacked
            self._fill_terms(out, full=since is None)
        return out

    @contextlib.contextmanager
    def _database_errors(self, what: str) -> Iterator[None]:
        """Turn an error of the database file into a one-line `IndexCorruptError`."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, _BUGS):
                raise
            if environment_error(exc):
                # a write says what of it was stored in ``what``: the writes before it stay
                # (an index run's first batches), so not "nothing was changed"
                kept = "the writes before it are kept" if what.startswith("cannot be written") else "nothing was changed"
                advice = f"{kept}; check the disk (space, permissions) and try again"
            else:  # repair salvages what can be read and keeps the damaged file: nothing more is lost
                advice = (
                    f"the index is damaged: run `{command(['repair'], self.path.parent)}` (it salvages "
                    "what it can, keeps the damaged file and names the sources to index again)"
                )
            raise IndexCorruptError(f"{self.path} {what} ({exc}); {advice}") from exc

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Cursor]:
        """One write transaction: all of it or nothing (an error said as ``what``). It adds
        the BM25 term columns a file may lack: a write's act, never an open's."""
        with self._lock, self._database_errors(what):
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                stored_terms.add_columns(cur)
                term_ids.add_schema(cur)
                yield cur
                cur.execute("COMMIT")
            except BaseException as exc:
                self._end_failed(exc)
                raise

    def _end_failed(self, exc: BaseException) -> None:
        """Roll back the transaction ``exc`` broke off. Should that fail too (a damaged
        file often refuses both), ``exc`` stays the error raised, with this one as a note:
        an error while ending a transaction must never hide why it failed."""
        if not self._db.in_transaction:
            return
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error as end:
            exc.add_note(f"rolling the transaction back failed too: {end}")

    def _read(self, since: int | None, dim: int) -> Changes:
        version = int((self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() or [0])[0])
        stored = self._db.execute("SELECT value FROM meta WHERE key = 'calibration'").fetchone()
        runs = self._db.execute("SELECT value FROM meta WHERE key = 'unfinished_runs'").fetchone()
        seen = self._db.execute("SELECT value FROM meta WHERE key = 'seen_versions'").fetchone()
        out = Changes(version, calibration=None if stored is None else str(stored[0]),
                      unfinished_runs="{}" if runs is None else str(runs[0]), seen_versions=None if seen is None else str(seen[0]))
        where, args = ("WHERE seq > ?", (since,)) if since is not None else ("", ())
        # CAST: a vector column damaged into text (even bad UTF-8) is read as bytes, never fails the read.
        terms = f"{stored_terms.select(self._db)}, {term_ids.select(self._db)}"  # BM25 terms, when the file has them
        vocab = term_ids.read_vocabulary(self._db) if since is None else None  # a catch-up reads the words
        out.vocab = [] if vocab is None else vocab.terms
        for rowid, item_id, data, vhash, blob, key, counts, ids_key, ids, seq in self._db.execute(
            f"SELECT rowid, id, data, hash, CAST(vector AS BLOB), {terms}, seq FROM nodes {where} ORDER BY rowid", args
        ):
            if (node := parse_row(Node.from_dict, "node", rowid, item_id, data, out.damaged_nodes)) is None:
                continue
            out.nodes[node.id], out.node_seqs[node.id] = node, int(seq)
            take_vector(out, out.node_vectors, out.unusable_nodes, node.id, vhash, blob, dim, required=True)
            if not term_ids.take(out.term_ids, node, str(vhash), vocab, ids_key, ids):
                stored_terms.take(out.terms, node, str(vhash), key, counts)
        for rowid, item_id, data, vhash, blob in self._db.execute(
            f"SELECT rowid, id, data, vhash, CAST(vector AS BLOB) FROM edges {where} ORDER BY rowid", args
        ):
            if (edge := parse_row(Edge.from_dict, "edge", rowid, item_id, data, out.damaged_edges)) is None:
                continue
            out.edges[edge.id] = edge
            take_vector(out, out.edge_vectors, out.unusable_edges, edge.id, vhash, blob, dim)
        if dim <= 0:
            keep_most_common_length(out)
        if since is not None:
            for item_id, what in self._db.execute("SELECT id, what FROM deleted WHERE seq > ? ORDER BY seq", (since,)):
                # A later re-add wins: its row was read above, so only drop what is not back.
                if what == "node" and item_id not in out.nodes:
                    out.deleted_nodes.add(str(item_id))
                elif what == "edge" and item_id not in out.edges:
                    out.deleted_edges.add(str(item_id))
        return out

    def edge_ids_touching(self, node_ids: Iterable[str]) -> list[str]:
        ids = list(node_ids)
        out: list[str] = []
        with self._lock, self._database_errors("cannot be read"):
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
        meta: Mapping[str, str] | None = None,
    ) -> None:
        """Apply one batch atomically (all of it or nothing), stamped with ``version``;
        ``meta`` is stored with it (`stores.seen_versions`)."""
        if not self.writable:
            raise IndexCorruptError(f"{self.path} is open read-only; open the index for writing")
        self._file.check()  # a deleted file takes a write and loses it when the process ends
        delete_nodes = list(delete_nodes)
        with self._transaction(f"cannot be written (version {version}, nothing of it stored)") as cur:
            replacing = bool(delete_nodes) or term_ids.any_stored(cur, [r.node.id for r in nodes])
            cur.executemany(
                "INSERT INTO nodes(id, hash, data, vector, seq, terms, terms_key) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET hash = excluded.hash, data = excluded.data, "
                f"vector = COALESCE(excluded.vector, nodes.vector), seq = excluded.seq, {stored_terms.ON_CONFLICT}",
                (
                    (
                        r.node.id,
                        r.node.content_hash(),
                        json.dumps(r.node.to_dict(), allow_nan=False),
                        None if r.vector is None else encode_vector(r.vector),
                        version,
                        *stored_terms.row_values(r.node, r.terms),
                    )
                    for r in nodes
                ),
            )
            term_ids.store(cur, self._term_ids, ((r.node, r.terms) for r in nodes))
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
                        None if r.vector is None else encode_vector(r.vector),
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
            if replacing:  # a replaced or deleted item's terms leave terms_vocab
                term_ids.prune(cur, self._term_ids)
            cur.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('version', ?)", (str(version),))
            cur.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (meta or {}).items())

    def set_vectors(self, nodes: Sequence[tuple[str, Vector]], edges: Sequence[tuple[str, str, Vector]]) -> None:
        """Fill in missing or unusable vectors (migration, repair; items unchanged: no version bump)."""
        with self._transaction("cannot be written (no vector of this repair stored)") as cur:
            cur.executemany("UPDATE nodes SET vector = ? WHERE id = ?", ((encode_vector(v), i) for i, v in nodes))
            cur.executemany(
                "UPDATE edges SET vhash = ?, vector = ? WHERE id = ?", ((h, encode_vector(v), i) for i, h, v in edges)
            )

    def _fill_terms(self, out: Changes, full: bool) -> None:
        """Count and store the BM25 terms of the loaded nodes that lack usable stored ones
        (an index an older version wrote; a text it changed since), and after a ``full``
        load their ids where not stored (``stores.term_ids``); no version bump."""
        term_ids.fill(out, full, self._term_ids, lambda: self._transaction("cannot be written (no term count of this load stored)"))

    def set_calibration(self, calibration: str) -> None:
        """Store what the index learned about itself (JSON; no version bump); readers catch up."""
        self.set_meta("calibration", calibration)

    def ids_without_vectors(self) -> Iterator[str]:
        with self._lock, self._database_errors("cannot be read"):
            rows = self._db.execute("SELECT id FROM nodes WHERE vector IS NULL").fetchall()
        yield from (str(r[0]) for r in rows)


__all__ = ["SCHEMA_VERSION", "Changes", "EdgeRow", "ItemStore", "NodeRow", "StoredVector", "environment_error"]
