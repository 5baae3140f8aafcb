"""Each item's BM25 terms as numbers into a vocabulary kept in ``items.sqlite``, so that
opening an index builds its keyword index from arrays instead of strings.

``stores.stored_terms`` keeps each item's terms as words; reading them back still makes
a Python string per (item, term) and looks each up in BM25's vocabulary, most of what an
open spends on BM25. Here a writer also stores, per node row, ``term_ids`` (the row's
terms as ids into the ``terms_vocab`` table, then their counts: uint32 each) and
``term_ids_key``. A full load reads the vocabulary once and the ids as arrays
(`BM25Index.upsert_ids`); a reader's catch-up, a few rows, reads the words as before.

Safety, as for the words: ids are used only when ``term_ids_key`` is what this code would
write for the row's text now (the ``stored_terms`` key: the analyser and the text's hash)
under this vocabulary, whose row 0 holds a random generation made with the table (a
table made again, by ``repair``'s salvage or by hand, has another; a row copied from
before names the old one). Otherwise, or when an id is not in the table, the row's words
are read, or its text counted. A writer keeps in the table only the terms that rows' usable
ids name (`prune`): a replaced or deleted item's words, which may be a secret ``repair``
redacted, do not stay on disk; an id freed so is named by no row when it is given again.

An older skill-retriever reads and writes an index that has these (it knows neither);
when it changes a row's text, the row's hash changes and the ids go unused until the
next writer of this version stores them again (`ItemStore`'s load fills in what lacks them).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from skill_retriever.model import Node
from skill_retriever.stores import stored_terms
from skill_retriever.stores.keywords import Terms, analyse
from skill_retriever.stores.rows import Changes

__all__ = ["StoredIds", "Vocabulary", "WriterIds", "add_schema", "any_stored", "as_terms", "fill", "prune", "read_vocabulary", "select", "store", "take"]

TABLE = "terms_vocab"
_COLUMNS = (("term_ids", "BLOB"), ("term_ids_key", "TEXT"))
_MAX = 2**32 - 1
#: A document's terms as vocabulary ids (uint32), with their counts (float64), aligned.
StoredIds = tuple[NDArray[np.uint32], NDArray[np.float64]]


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """``terms_vocab`` as read: ``terms[i]`` is the term of id ``i`` (``terms[0]`` the
    generation), where ``present[i]`` (ids of pruned terms are gaps)."""

    terms: list[str]
    present: NDArray[np.bool_]

    @property
    def generation(self) -> str:
        return self.terms[0]

    def key(self, content_hash: str) -> str:
        return f"{self.generation.strip()}; {stored_terms.key_of_hash(content_hash)}"


def add_schema(db: sqlite3.Connection | sqlite3.Cursor) -> None:
    """The table and the two node columns, where missing (a writer's transaction)."""
    present = {str(r[1]) for r in db.execute("PRAGMA table_info(nodes)")}
    for name, kind in _COLUMNS:
        if name not in present:
            db.execute(f"ALTER TABLE nodes ADD COLUMN {name} {kind}")
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).fetchone() is None:
        db.execute(f"CREATE TABLE {TABLE} (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE)")
        # A newline starts it: no term holds one (``stored_terms.encode``).
        db.execute(f"INSERT INTO {TABLE}(id, term) VALUES (0, ?)", (f"\ngeneration {uuid.uuid4().hex}",))


def select(db: sqlite3.Connection) -> str:
    """What a load selects for them: the two columns, or NULLs where the file lacks them."""
    present = {str(r[1]) for r in db.execute("PRAGMA table_info(nodes)")}
    return "term_ids_key, CAST(term_ids AS BLOB)" if all(n in present for n, _ in _COLUMNS) else "NULL, NULL"


def _has_table(db: sqlite3.Connection | sqlite3.Cursor) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).fetchone() is not None


def read_vocabulary(db: sqlite3.Connection) -> Vocabulary | None:
    """The whole table, or None when there is none, it has no generation, or its ids
    are too sparse to be worth an array (then no stored ids are used)."""
    if not _has_table(db):
        return None
    # A row that is not text is left out: an id naming it is not used.
    rows = db.execute(f"SELECT id, term FROM {TABLE} WHERE typeof(term) = 'text' ORDER BY id").fetchall()
    if not rows or rows[0][0] != 0 or not str(rows[0][1]).startswith("\ngeneration ") or not _dense(rows[-1][0], len(rows)):
        return None
    if rows[-1][0] == len(rows) - 1:
        terms = [r[1] for r in rows]
    else:
        terms = [""] * (rows[-1][0] + 1)
        for i, t in rows:
            terms[i] = t
    present = np.zeros(len(terms), dtype=bool)
    present[np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))] = True
    present[0] = False
    return Vocabulary(terms, present)


def _dense(top: int, count: int) -> bool:
    """Whether ids up to ``top``, ``count`` of them used, are few gaps enough to read."""
    return top < 2 * count + 1024


def take(out: dict[str, StoredIds], node: Node, row_hash: str, vocab: Vocabulary | None, key: object, blob: object) -> bool:
    """Put ``node``'s stored ids into ``out`` when they are usable (see the module)."""
    if vocab is None or not isinstance(blob, bytes) or len(blob) % 8 or not stored_terms.keyword_indexed(node):
        return False
    if key != vocab.key(row_hash):
        return False
    n = len(blob) // 8
    ids = np.frombuffer(blob, dtype="<u4", count=n)
    counts = np.frombuffer(blob, dtype="<u4", count=n, offset=4 * n)
    if n and (int(ids.max()) >= len(vocab.terms) or not vocab.present[ids].all() or int(counts.min()) < 1):
        return False
    out[node.id] = (ids.astype(np.uint32), counts.astype(np.float64))
    return True


def as_terms(stored: StoredIds, vocab: Sequence[str]) -> Terms:
    """The words of ``stored``: what ``stored_terms`` would have read for the row."""
    ids, counts = stored
    return list(map(vocab.__getitem__, ids.tolist())), counts


class WriterIds:
    """A writer's map of the table (one per open file), kept between transactions: only rows past the last id
    it knows are read again; the whole of it when the generation is another or the table
    is shorter than it knows (a transaction that added terms was rolled back)."""

    def __init__(self) -> None:
        self.generation = ""
        self.ids: dict[str, int] = {}
        self.last = 0

    def refresh(self, cur: sqlite3.Cursor) -> None:
        row = cur.execute(f"SELECT term FROM {TABLE} WHERE id = 0").fetchone()
        generation = "" if row is None else str(row[0])
        top = int(cur.execute(f"SELECT coalesce(max(id), 0) FROM {TABLE}").fetchone()[0])
        if generation != self.generation or top < self.last:  # another table, or our inserts rolled back
            self.generation, self.ids, self.last = generation, {}, 0
        for i, t in cur.execute(f"SELECT id, term FROM {TABLE} WHERE id > ? ORDER BY id", (self.last,)):
            self.ids[str(t)] = self.last = int(i)


def store(cur: sqlite3.Cursor, known: WriterIds, rows: Iterable[tuple[Node, Terms | None]]) -> None:
    """Store the ids of each ``(node, terms)`` whose terms ``stored_terms`` stores (new
    terms join the table); a row left out keeps what it had (its key tells if usable)."""
    todo = [(n, t) for n, t in rows if t is not None and stored_terms.encode(t) is not None]
    if not todo:
        return
    add_schema(cur)
    known.refresh(cur)
    if not known.generation:
        return
    new = [t for t in dict.fromkeys(w for _, (words, _) in todo for w in words) if t not in known.ids]
    start = known.last + 1
    if start + len(new) > _MAX:
        return
    cur.executemany(f"INSERT INTO {TABLE}(id, term) VALUES (?, ?)", ((start + i, t) for i, t in enumerate(new)))
    known.ids.update(zip(new, range(start, start + len(new)), strict=True))
    known.last = start + len(new) - 1
    vocab_key = f"{known.generation.strip()}; "
    cur.executemany(
        "UPDATE nodes SET term_ids = ?, term_ids_key = ? WHERE id = ?",
        (
            (
                np.fromiter(map(known.ids.__getitem__, words), dtype="<u4", count=len(words)).tobytes()
                + counts.astype("<u4").tobytes(),
                vocab_key + stored_terms.key(node),
                node.id,
            )
            for node, (words, counts) in todo
        ),
    )


def fill(out: Changes, full: bool, known: WriterIds, transaction: Callable[[], AbstractContextManager[sqlite3.Cursor]]) -> None:
    """A writer's load: count and store the terms of the nodes of ``out`` that lack usable
    stored ones (``stored_terms``), and after a ``full`` load (not a catch-up, which reads
    words only) the ids of those whose words were read: an index written before ids were
    stored is upgraded by its next writer."""
    todo = [n for n in stored_terms.missing(out.nodes, out.terms) if n.id not in out.term_ids]
    without_ids = [n for n in out.nodes.values() if n.id in out.terms] if full else []
    if not todo and not without_ids and not full:
        return
    counted = {n.id: analyse(n.embedding_text()) for n in todo}
    with transaction() as cur:
        cur.executemany(
            "UPDATE nodes SET terms = ?, terms_key = ? WHERE id = ?",
            ((*stored_terms.row_values(n, counted[n.id]), n.id) for n in todo),
        )
        store(cur, known, ((n, counted.get(n.id) or out.terms.get(n.id)) for n in [*without_ids, *todo]))
        if full:  # what an older version changed or deleted leaves no term behind
            prune(cur, known)
    out.terms.update(counted)


def any_stored(cur: sqlite3.Cursor, ids: Sequence[str]) -> bool:
    """Whether a node row of one of ``ids`` is there already (a write replaces it)."""
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        if cur.execute(f"SELECT 1 FROM nodes WHERE id IN ({','.join('?' * len(chunk))}) LIMIT 1", chunk).fetchone():
            return True
    return False


def prune(cur: sqlite3.Cursor, known: WriterIds) -> None:
    """Keep in ``terms_vocab`` only the terms a row's usable ids name. A replaced or
    deleted item's terms go (they may be secrets ``repair`` redacted: ``secure_delete``
    then overwrites them on disk), and so do the ids of rows an older version changed
    (their key is not their text's) and ids that name no term. A table left too sparse is
    made again, empty, under a new generation; the next writer's open fills it."""
    if not _has_table(cur):
        return
    row = cur.execute(f"SELECT term FROM {TABLE} WHERE id = 0").fetchone()
    if row is None:
        return
    prefix = f"{str(row[0]).strip()}; {stored_terms.key_of_hash('')}"  # + the row's hash: its key
    cur.execute("UPDATE nodes SET term_ids = NULL, term_ids_key = NULL WHERE term_ids IS NOT NULL "
                "AND (term_ids_key IS NULL OR term_ids_key != ? || hash)", (prefix,))  # fmt: skip
    held = np.fromiter((r[0] for r in cur.execute(f"SELECT id FROM {TABLE}")), dtype=np.int64)
    there = np.zeros(int(held.max()) + 1, dtype=bool)
    there[held] = True
    named = np.zeros_like(there)  # the ids some row's usable ids name
    bad: list[int] = []  # rows whose ids name no term, or are not ids at all
    for rowid, blob in cur.execute("SELECT rowid, CAST(term_ids AS BLOB) FROM nodes WHERE term_ids IS NOT NULL"):
        ids = np.frombuffer(blob, dtype="<u4", count=len(blob) // 8) if isinstance(blob, bytes) and len(blob) % 8 == 0 else None
        if ids is None or (len(ids) and (int(ids.max()) >= len(there) or not there[ids].all() or not int(ids.min()))):
            bad.append(int(rowid))
        else:
            named[ids] = True
    cur.executemany("UPDATE nodes SET term_ids = NULL, term_ids_key = NULL WHERE rowid = ?", ((r,) for r in bad))
    gone = held[(held > 0) & ~named[held]]
    cur.executemany(f"DELETE FROM {TABLE} WHERE id = ?", ((int(i),) for i in gone))
    if len(gone):
        known.generation = ""  # read the table afresh at the next write
    left = len(held) - len(gone)
    if not _dense(int(held[named[held] | (held == 0)].max()), left):
        cur.execute(f"DROP TABLE {TABLE}")
        cur.execute("UPDATE nodes SET term_ids = NULL, term_ids_key = NULL WHERE term_ids IS NOT NULL")
        add_schema(cur)
