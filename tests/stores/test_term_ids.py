"""BM25 term ids stored in items.sqlite (`stores.term_ids`): an index opens from them with
the keyword index that reading its stored words gives, column for column and score for
score; an index without them (an older version's) opens as before and its next writer
stores them; ids made unusable (a text changed by an older writer, another vocabulary
table, an id out of range) are left for the words; a reader's catch-up reads words
(HashingEmbedder)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_stored_terms import (
    ALEMBIC,
    NEW_TEXT,
    QUERIES,
    answers,
    columns,
    counted_afresh,
    open_index,
    sql,
)
from tiny_graph import build_tiny_index, tiny_nodes

from skill_retriever.model import Node
from skill_retriever.stores import stored_terms, term_ids
from skill_retriever.stores.index import Index
from skill_retriever.stores.keywords import BM25Index, Terms, analyse


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The stored words read back from now on (`stored_terms.decode`)."""
    blobs: list[object] = []
    real: Callable[[object], Terms | None] = stored_terms.decode

    def spy(blob: object) -> Terms | None:
        blobs.append(blob)
        return real(blob)

    monkeypatch.setattr(stored_terms, "decode", spy)
    return blobs


def keyword_index(index: Index) -> tuple[dict[str, int], dict[str, tuple[list[int], list[float]]]]:
    """The keyword index's vocabulary and each document's columns and counts."""
    kw = index.snapshot().keywords
    return dict(kw._vocab), {i: (c.tolist(), t.tolist()) for i, (c, t) in kw._docs.items()}


def words_only(path: Path) -> None:
    """The index as the version before term ids wrote it."""
    for column in ("term_ids", "term_ids_key"):
        sql(path, f"ALTER TABLE nodes DROP COLUMN {column}")
    sql(path, "DROP TABLE terms_vocab")


def stored_ids(path: Path) -> dict[str, object]:
    with closing(sqlite3.connect(path / "items.sqlite")) as db:
        return {str(i): b for i, b in db.execute("SELECT id, term_ids FROM nodes")}


def test_an_open_reads_ids_and_builds_what_the_words_build(tmp_path: Path, decoded: list[object]) -> None:
    index = build_tiny_index(tmp_path / "new")
    live = answers(index), keyword_index(index)
    index.close()
    assert all(isinstance(b, bytes) for b in stored_ids(tmp_path / "new").values())
    decoded.clear()
    with open_index(tmp_path / "new") as new:
        assert (answers(new), keyword_index(new)) == live
    assert decoded == []  # no word read back
    assert live[0] == counted_afresh(tiny_nodes())

    shutil.copytree(tmp_path / "new", tmp_path / "old")
    words_only(tmp_path / "old")
    with open_index(tmp_path / "old") as old:
        assert (answers(old), keyword_index(old)) == live
    assert len(decoded) == len(tiny_nodes())  # read as words, as before
    assert "term_ids" not in columns(tmp_path / "old")  # a reader writes nothing

    open_index(tmp_path / "old", writable=True).close()  # its next writer stores the ids
    assert all(isinstance(b, bytes) for b in stored_ids(tmp_path / "old").values())
    decoded.clear()
    with open_index(tmp_path / "old") as old:
        assert (answers(old), keyword_index(old)) == live
    assert decoded == []


def test_ids_of_a_text_an_older_writer_changed_are_not_used(tmp_path: Path, decoded: list[object]) -> None:
    build_tiny_index(tmp_path / "index").close()
    changed = replace(next(n for n in tiny_nodes() if n.id == ALEMBIC), text=NEW_TEXT)
    # The version before term ids: text, hash and words change, the ids stay as they were.
    sql(tmp_path / "index", "UPDATE nodes SET data = ?, hash = ?, terms = ?, terms_key = ? WHERE id = ?",
        json.dumps(changed.to_dict()), changed.content_hash(),
        *stored_terms.row_values(changed, analyse(changed.embedding_text())), ALEMBIC)  # fmt: skip
    decoded.clear()
    with open_index(tmp_path / "index") as reader:
        got = answers(reader)
        nodes = list(reader.snapshot().nodes.values())
    assert len(decoded) == 1  # its words, the others' ids
    assert got == counted_afresh(nodes)
    assert ALEMBIC in [i for i, _ in got["zebrafish imaging napari"]]
    assert ALEMBIC not in [i for i, _ in got["autogenerate revision downgrade"]]

    open_index(tmp_path / "index", writable=True).close()  # the writer stores its ids again
    decoded.clear()
    with open_index(tmp_path / "index") as reader:
        assert answers(reader) == got
    assert decoded == []


@pytest.mark.parametrize("damage", ["new table", "id out of range", "odd length", "gap in the table"])
def test_unusable_ids_leave_the_words(tmp_path: Path, decoded: list[object], damage: str) -> None:
    index = build_tiny_index(tmp_path / "index")
    expected = answers(index), keyword_index(index)
    index.close()
    path = tmp_path / "index"
    if damage == "new table":  # made again (salvage, by hand): its generation is another
        sql(path, "DROP TABLE terms_vocab")
        with closing(sqlite3.connect(path / "items.sqlite")) as db, db:
            term_ids.add_schema(db)
        wanted = len(tiny_nodes())
    elif damage == "id out of range":
        sql(path, "UPDATE nodes SET term_ids = ? WHERE id = ?", np.array([10**6, 1], dtype="<u4").tobytes(), ALEMBIC)
        wanted = 1
    elif damage == "odd length":
        sql(path, "UPDATE nodes SET term_ids = X'01020304' WHERE id = ?", ALEMBIC)
        wanted = 1
    else:  # only the rows naming the missing term read their words
        sql(path, "DELETE FROM terms_vocab WHERE id = 3")
        wanted = sum(3 in np.frombuffer(b, dtype="<u4", count=len(b) // 8) for b in stored_ids(path).values())  # type: ignore[arg-type]
        assert 0 < wanted < len(tiny_nodes())
    decoded.clear()
    with open_index(path) as reader:
        assert (answers(reader), keyword_index(reader)) == expected
    assert len(decoded) == wanted


def test_a_reader_catches_up_with_new_terms_by_their_words(tmp_path: Path) -> None:
    writer = build_tiny_index(tmp_path / "index")
    reader = open_index(tmp_path / "index")
    try:
        reader.snapshot()
        changed = replace(next(n for n in tiny_nodes() if n.id == ALEMBIC), text=NEW_TEXT)
        extra = Node(id="skill:napari", kind="skill", name="napari",  # type: ignore[arg-type]
                     text="napari viewer plugins for zebrafish microscopy stacks")
        writer.upsert([changed, extra])
        got = answers(reader)
        assert got == answers(writer)
        assert got == counted_afresh(list(reader.snapshot().nodes.values()))
        assert "skill:napari" in [i for i, _ in got["zebrafish imaging napari"]]
    finally:
        reader.close()
        writer.close()
    with open_index(tmp_path / "index") as again:  # the ids the writer stored for them
        assert answers(again) == got


def test_upsert_ids_into_a_filled_index_numbers_as_the_words_do() -> None:
    vocab = ["\ngeneration x", "postgres", "migrat", "alembic", "zebrafish"]
    docs = [("a", (np.array([3, 1], dtype=np.uint32), np.array([1.0, 2.0]))),
            ("b", (np.array([4, 2, 1], dtype=np.uint32), np.array([1.0, 1.0, 3.0])))]
    by_ids, by_words = BM25Index(), BM25Index()
    for kw in (by_ids, by_words):
        kw.upsert_terms([("z", (["zebrafish", "napari"], np.array([1.0, 1.0])))])
    by_ids.upsert_ids(docs, vocab)
    by_words.upsert_terms([(i, term_ids.as_terms(d, vocab)) for i, d in docs])
    assert by_ids._vocab == by_words._vocab
    for query in [*QUERIES, "postgres alembic", "zebrafish"]:
        assert by_ids.search(query, 10) == by_words.search(query, 10)
    fresh = BM25Index()
    fresh.upsert_ids(docs, vocab)
    assert fresh._vocab == {"alembic": 0, "postgres": 1, "zebrafish": 2, "migrat": 3}  # first seen, first numbered


def test_a_rolled_back_write_is_forgotten_by_the_writer(tmp_path: Path) -> None:
    with closing(sqlite3.connect(tmp_path / "t.sqlite", isolation_level=None)) as db:
        db.execute("CREATE TABLE nodes (id TEXT PRIMARY KEY)")
        cur = db.cursor()
        known = term_ids.WriterIds()
        term_ids.add_schema(cur)
        known.refresh(cur)
        cur.execute("BEGIN")
        cur.execute("INSERT INTO terms_vocab(id, term) VALUES (1, 'lost')")
        known.refresh(cur)
        assert known.ids == {"lost": 1}
        cur.execute("ROLLBACK")
        known.refresh(cur)
        assert known.ids == {} and known.last == 0


def vocabulary(path: Path) -> set[str]:
    with closing(sqlite3.connect(path / "items.sqlite")) as db:
        return {str(r[0]) for r in db.execute("SELECT term FROM terms_vocab WHERE id > 0")}


def test_the_terms_of_a_replaced_or_deleted_item_leave_the_file(tmp_path: Path) -> None:
    """A replaced text's words may be a secret that repair redacted: no row names them
    now, so the vocabulary drops them, and secure_delete overwrites them on disk."""
    index = build_tiny_index(tmp_path / "index")
    secret = "hunter2-sk-live-0123456789"
    node = next(n for n in tiny_nodes() if n.id == ALEMBIC)
    index.upsert([replace(node, text=f"{node.text} token {secret}")])
    assert secret in vocabulary(tmp_path / "index")
    index.upsert([node])  # the secret taken out again
    assert secret not in vocabulary(tmp_path / "index")
    extra = Node(id="skill:x", kind="skill", name="x", text="quetzalcoatl-passphrase")  # type: ignore[arg-type]
    index.upsert([extra])
    assert "quetzalcoatl-passphrase" in vocabulary(tmp_path / "index")
    index.delete(["skill:x"])
    expected = answers(index)
    index.close()
    held = vocabulary(tmp_path / "index")
    assert "quetzalcoatl-passphrase" not in held and "alemb" in held  # (stemmed)
    raw = b"".join(p.read_bytes() for p in (tmp_path / "index").iterdir() if p.name.startswith("items.sqlite"))
    assert secret.encode() not in raw and b"quetzalcoatl" not in raw
    with open_index(tmp_path / "index") as reader:
        assert answers(reader) == expected == counted_afresh(tiny_nodes())
