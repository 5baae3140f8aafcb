"""Each item's BM25 term counts, kept beside it in ``items.sqlite``, so that opening an
index reads them back instead of tokenizing every item's text again (on six real skill
repositories tokenizing was about three quarters of ``Index.open``; docs/scaling.md).

A node row holds ``terms`` (its counts, :func:`encode`) and ``terms_key`` (:func:`key`:
the analyser they were counted with, ``algorithms.tokenize.bm25_analyser``, and the
content hash of the text they were counted from). A load uses them only when
``terms_key`` is what the current analyser would write for the item's current text:
counts of another tokenizer, or of a text since changed (an older skill-retriever
updates a row's text but not these columns), are counted again from the text, and so is
a blob that does not decode (damage: zlib's checksum catches it). So the counts a search
uses are always those of the text it would tokenize today, stored or not.

A writer stores the counts of every item it writes, and fills them in for the items it
loads without usable ones (:func:`missing`), so an index written before this existed is
tokenized once more, by its next writer (``index``, ``repair``, any write), and opened
fast from then on. Readers never write: they count what lacks counts, as before.

The columns are optional: ``schema_version`` stays 2, so an older release still reads
and writes an index that has them, and this one reads an index that lacks them
(:func:`select`); a writer's first write transaction adds them (:func:`add_columns`, an
``ALTER TABLE ... ADD COLUMN``, which rewrites nothing; never an open, so a damaged file
stays as it was found).
"""

from __future__ import annotations

import sqlite3
import zlib

import numpy as np

from skill_retriever.algorithms.tokenize import bm25_analyser
from skill_retriever.model import SCAFFOLD_KINDS, Node
from skill_retriever.stores.keywords import Terms

__all__ = [
    "ON_CONFLICT", "add_columns", "decode", "encode", "key", "key_of_hash", "keyword_indexed", "missing", "row_values", "select", "take",
]

_COLUMNS = (("terms", "BLOB"), ("terms_key", "TEXT"))
#: How a written row's columns change: counts written with it, else the stored ones while
#: its text (``hash``) is the same, else none (a stale count would be a wrong result).
#: (CASE, not IIF: IIF needs SQLite 3.32, and upserts work from 3.24.)
ON_CONFLICT = (
    "terms = CASE WHEN nodes.hash = excluded.hash THEN COALESCE(excluded.terms, nodes.terms) "
    "ELSE excluded.terms END, "
    "terms_key = CASE WHEN nodes.hash = excluded.hash THEN COALESCE(excluded.terms_key, nodes.terms_key) "
    "ELSE excluded.terms_key END"
)
_MAX_COUNT = 2**32 - 1


def keyword_indexed(node: Node) -> bool:
    """Entity nodes stay out of BM25: they are a few words each, and tens of thousands of
    them (spaCy entities of a passage corpus) drag the average document length down so far
    that length normalisation buries every real passage. On 2wikimultihopqa (6,119
    passages, 33,156 entities) BM25 R@5 was 55.9 with them, against the data README's
    65.6 floor for passages alone. Entities are still found by name, vectors and the graph.
    Facts stay out too: each repeats a sentence of its passage (``ingest.facts``)."""
    return node.kind not in SCAFFOLD_KINDS


def key(node: Node) -> str:
    """What ``terms_key`` holds for counts of ``node``'s text by the current analyser."""
    return key_of_hash(node.content_hash())


def key_of_hash(content_hash: str) -> str:
    """`key` for a node whose content hash is known (a row's ``hash`` column, written from
    ``node.content_hash()``): a load need not hash every node again."""
    return f"{bm25_analyser()}; text {content_hash}"


def select(db: sqlite3.Connection) -> str:
    """What a load selects after a node's vector: the key and the counts, or nothing (an
    index without the columns; asked at each load: a writer may have added them since)."""
    present = {str(r[1]) for r in db.execute("PRAGMA table_info(nodes)")}
    return "terms_key, CAST(terms AS BLOB)" if all(name in present for name, _ in _COLUMNS) else "NULL, NULL"


def add_columns(db: sqlite3.Connection | sqlite3.Cursor) -> None:
    """Give ``nodes`` the two columns when it lacks them (a writer's transaction)."""
    present = {str(r[1]) for r in db.execute("PRAGMA table_info(nodes)")}
    for name, kind in _COLUMNS:
        if name not in present:
            db.execute(f"ALTER TABLE nodes ADD COLUMN {name} {kind}")


def encode(terms: Terms) -> bytes | None:
    """``terms`` as stored: zlib of the number of terms (uint32), their counts (uint32
    each) and the terms joined by newlines (UTF-8); None when they cannot be (a term
    holding a newline, which the analyser never makes, or a count past 2**32 - 1)."""
    words, counts = terms
    joined = "\n".join(words)
    if joined.count("\n") != max(len(words) - 1, 0) or (len(words) == 1 and not words[0]):
        return None
    if len(counts) != len(words) or (len(counts) and (counts.min() < 1 or counts.max() > _MAX_COUNT)):
        return None
    head = len(words).to_bytes(4, "little") + counts.astype("<u4").tobytes()
    return zlib.compress(head + joined.encode("utf-8", "surrogatepass"))


def decode(blob: object) -> Terms | None:
    """The terms :func:`encode` stored, or None when ``blob`` is not such a value."""
    if not isinstance(blob, bytes):
        return None
    try:
        raw = zlib.decompress(blob)
        n = int.from_bytes(raw[:4], "little")
        if len(raw) < 4 + 4 * n:
            return None
        text = raw[4 + 4 * n :].decode("utf-8", "surrogatepass")
    except (zlib.error, UnicodeDecodeError):
        return None
    words = text.split("\n") if n else []
    if len(words) != n or (not n and text):
        return None
    return words, np.frombuffer(raw, dtype="<u4", count=n, offset=4).astype(np.float64)


def take(out: dict[str, Terms], node: Node, row_hash: str, stored_key: object, blob: object) -> None:
    """Put ``node``'s stored counts into ``out`` when they are usable (see the module);
    ``row_hash``: its row's ``hash`` column, the content hash of the text it holds."""
    if blob is None or not keyword_indexed(node) or stored_key != key_of_hash(row_hash):
        return
    terms = decode(blob)
    if terms is not None:
        out[node.id] = terms


def missing(nodes: dict[str, Node], terms: dict[str, Terms]) -> list[Node]:
    """The nodes BM25 indexes that have no usable stored counts."""
    return [n for i, n in nodes.items() if i not in terms and keyword_indexed(n)]


def row_values(node: Node, terms: Terms | None) -> tuple[bytes | None, str | None]:
    """The ``terms`` and ``terms_key`` values of a row holding ``node``."""
    blob = None if terms is None else encode(terms)
    return (None, None) if blob is None else (blob, key(node))
