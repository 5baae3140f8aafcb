"""The tables of ``items.sqlite`` (``stores.items``), and their creation or migration as one
transaction.

Each statement of a script used to commit on its own (the connection autocommits) and the
schema version was written after them: a new index's create killed part way (seen killing
``skill-retriever index`` 0.7 s and 1.1 s in) left some of the tables and no version, a file
every later run, ``index`` and ``repair`` included, refused until it was deleted by hand.
"""

from __future__ import annotations

import sqlite3

__all__ = ["MIGRATE_1_TO_2", "SCHEMA", "SCHEMA_VERSION", "write_schema"]

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (
    id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL, vector BLOB,
    seq INTEGER NOT NULL DEFAULT 0, terms BLOB, terms_key TEXT);
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
MIGRATE_1_TO_2 = """
ALTER TABLE nodes ADD COLUMN vector BLOB;
ALTER TABLE nodes ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE edges ADD COLUMN vhash TEXT;
ALTER TABLE edges ADD COLUMN vector BLOB;
ALTER TABLE edges ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
"""


def write_schema(db: sqlite3.Connection, script: str) -> None:
    """Run ``script`` and record the schema version, all or nothing."""
    try:
        db.executescript(
            f"BEGIN IMMEDIATE;\n{script}\n"
            f"INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '{SCHEMA_VERSION}');\nCOMMIT;"
        )
    except BaseException:
        if db.in_transaction:
            db.rollback()
        raise
