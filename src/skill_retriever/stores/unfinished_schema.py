"""An ``items.sqlite`` whose schema a create began and never finished, and which holds nothing.

A version before ``items_schema.write_schema`` made the tables one autocommitted statement
at a time and wrote the schema version after them: its create killed part way (seen killing
``skill-retriever index`` 0.7 s and 1.1 s in) left some of the tables, or all of them without
a version, and no ``index.json``. Every command refused that folder, ``index`` with "a
database of other tables (meta, nodes)" or "schema version None ... re-index into a new
directory". When no table holds a row there is nothing a user could lose, so ``index``
starts it over (``stores.opening``) and the other commands say what happened
(``manifest.creation_stopped``). A file with any row is left to the refusals as before.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from skill_retriever.stores.items_schema import SCHEMA

__all__ = ["SCHEMA_TABLES", "unfinished_schema"]

#: The tables a create makes (``items_schema.SCHEMA``).
SCHEMA_TABLES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))


def unfinished_schema(database: Path) -> bool:
    """Whether ``database`` is SQLite holding some of the schema's tables and no other, with
    no row in any of them (the schema version, the first row a create writes, included).
    False when it cannot be read (read-only: this check never changes it)."""
    try:
        with database.open("rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return False
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables or not tables <= SCHEMA_TABLES:
                return False
            return not any(db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() for t in sorted(tables))
        finally:
            db.close()
    except (OSError, sqlite3.Error):
        return False
