"""BM25 term counts stored in items.sqlite (`stores.stored_terms`): an index reopens with
the BM25 answers of counting every item's text again, whether its counts are stored, absent
(an index an older version wrote) or unusable (stale, another analyser, damaged), and a
write that changes an item's text changes its stored counts (HashingEmbedder)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index, tiny_nodes

from skill_retriever.algorithms.tokenize import bm25_terms
from skill_retriever.filters import Filters
from skill_retriever.model import Node
from skill_retriever.stores import keywords, stored_terms
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.keywords import BM25Index, analyse

QUERIES = [
    "postgres migrations",
    "checkout-api deploy rollback",
    "pytest fixtures ruff",
    "INC-1043 latency",
    "autogenerate revision downgrade",
    "zebrafish imaging napari",
]
ALEMBIC = "skill:alembic"
NEW_TEXT = "Zebrafish imaging pipelines: segment embryos with napari and export the masks."


def answers(index: Index) -> dict[str, list[tuple[str, float]]]:
    """Every BM25 hit of each query, with its exact score."""
    snap = index.snapshot()
    return {q: [(h.id, h.score) for h in snap.search_keywords(q, 100, Filters.everything())] for q in QUERIES}


def counted_afresh(nodes: list[Node]) -> dict[str, list[tuple[str, float]]]:
    """The answers of a BM25 index that counts the nodes' texts itself."""
    fresh = BM25Index(tokenizer=lambda text: bm25_terms(text))  # not bm25_terms itself: nothing stored
    fresh.upsert((n.id, n.embedding_text()) for n in nodes)
    return {q: [(h.id, h.score) for h in fresh.search(q, 100)] for q in QUERIES}


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts tokenized for BM25 from now on (every path counts through term_counts)."""
    texts: list[str] = []
    real = keywords.term_counts

    def spy(text: str, tokenizer: Callable[[str], list[str]] = bm25_terms) -> Counter[str]:
        texts.append(text)
        return real(text, tokenizer)

    monkeypatch.setattr(keywords, "term_counts", spy)
    return texts


def open_index(path: Path, *, writable: bool = False) -> Index:
    return Index.open(path, embedder=HashingEmbedder(), writable=writable)


def rows(path: Path) -> dict[str, tuple[object, object]]:
    with closing(sqlite3.connect(path / "items.sqlite")) as db:
        return {str(i): (k, b) for i, k, b in db.execute("SELECT id, terms_key, terms FROM nodes")}


def columns(path: Path) -> set[str]:
    with closing(sqlite3.connect(path / "items.sqlite")) as db:
        return {str(r[1]) for r in db.execute("PRAGMA table_info(nodes)")}


def sql(path: Path, statement: str, *args: object) -> None:
    with closing(sqlite3.connect(path / "items.sqlite")) as db, db:
        db.execute(statement, args)


def test_stored_counts_are_the_counts_of_the_text(tmp_path: Path) -> None:
    build_tiny_index(tmp_path / "index").close()
    stored = rows(tmp_path / "index")
    assert len(stored) == len(tiny_nodes())
    for node in tiny_nodes():
        key, blob = stored[node.id]
        assert key == stored_terms.key(node)
        terms = stored_terms.decode(blob)
        assert terms is not None
        want = analyse(node.embedding_text())
        assert terms[0] == want[0] and terms[1].tolist() == want[1].tolist()


def test_reopening_reads_the_counts_back_with_the_answers_of_counting_again(tmp_path: Path, counting: list[str]) -> None:
    index = build_tiny_index(tmp_path / "new")
    expected = answers(index)
    index.close()
    assert expected == counted_afresh(tiny_nodes())
    assert any(expected.values())
    counting.clear()
    with open_index(tmp_path / "new") as new:
        assert answers(new) == expected
    assert counting == []  # read back, nothing tokenized

    # The same index as an older version wrote it: no such columns at all (nor the term
    # ids of stores.term_ids, read in place of the words where present).
    shutil.copytree(tmp_path / "new", tmp_path / "old")
    for column in ("terms", "terms_key", "term_ids", "term_ids_key"):
        sql(tmp_path / "old", f"ALTER TABLE nodes DROP COLUMN {column}")
    sql(tmp_path / "old", "DROP TABLE terms_vocab")
    with open_index(tmp_path / "old") as old:
        assert answers(old) == expected
    assert len(counting) == len(tiny_nodes())  # counted from the text, as before
    assert "terms" not in columns(tmp_path / "old")  # a reader writes nothing

    # Its next writer stores them: the file then holds what the new version wrote.
    open_index(tmp_path / "old", writable=True).close()
    assert rows(tmp_path / "old") == rows(tmp_path / "new")
    counting.clear()
    with open_index(tmp_path / "old") as old:
        assert answers(old) == expected
    assert counting == []


def test_a_changed_text_changes_its_stored_counts(tmp_path: Path, counting: list[str]) -> None:
    index = build_tiny_index(tmp_path / "index")
    before = rows(tmp_path / "index")[ALEMBIC]
    changed = replace(next(n for n in tiny_nodes() if n.id == ALEMBIC), text=NEW_TEXT)
    index.upsert([changed])
    live = answers(index)
    index.close()
    after = rows(tmp_path / "index")[ALEMBIC]
    assert after != before and after[0] == stored_terms.key(changed)
    counting.clear()
    with open_index(tmp_path / "index") as again:
        reopened = answers(again)
        nodes = list(again.snapshot().nodes.values())
    assert counting == []
    assert reopened == live == counted_afresh(nodes)
    assert ALEMBIC in [i for i, _ in reopened["zebrafish imaging napari"]]
    assert ALEMBIC not in [i for i, _ in reopened["autogenerate revision downgrade"]]


def test_counts_an_older_writer_left_stale_are_counted_again(tmp_path: Path, counting: list[str]) -> None:
    build_tiny_index(tmp_path / "index").close()
    changed = replace(next(n for n in tiny_nodes() if n.id == ALEMBIC), text=NEW_TEXT)
    # What an older version's upsert does: text and hash change, the counts stay as they were.
    sql(tmp_path / "index", "UPDATE nodes SET data = ?, hash = ? WHERE id = ?",
        json.dumps(changed.to_dict()), changed.content_hash(), ALEMBIC)  # fmt: skip
    counting.clear()
    with open_index(tmp_path / "index") as reader:
        got = answers(reader)
        nodes = list(reader.snapshot().nodes.values())
    assert counting == [changed.embedding_text()]  # only the stale one
    assert got == counted_afresh(nodes)
    assert ALEMBIC in [i for i, _ in got["zebrafish imaging napari"]]
    assert ALEMBIC not in [i for i, _ in got["autogenerate revision downgrade"]]

    open_index(tmp_path / "index", writable=True).close()  # the writer refreshes them
    key, blob = rows(tmp_path / "index")[ALEMBIC]
    assert key == stored_terms.key(changed)
    assert stored_terms.decode(blob)[0] == analyse(changed.embedding_text())[0]  # type: ignore[index]
    counting.clear()
    with open_index(tmp_path / "index") as reader:
        assert answers(reader) == got
    assert counting == []


@pytest.mark.parametrize("damage", ["analyser", "blob"])
def test_unusable_counts_are_counted_again(
    tmp_path: Path, counting: list[str], monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    index = build_tiny_index(tmp_path / "index")
    expected = answers(index)
    index.close()
    if damage == "analyser":  # a tokenizer or stemmer other than the one that counted them
        monkeypatch.setattr(stored_terms, "bm25_analyser", lambda: "bm25 2; another stemmer")
        wanted = len(tiny_nodes())
    else:
        sql(tmp_path / "index", "UPDATE nodes SET terms = X'789c0102' WHERE id = ?", ALEMBIC)
        # and no usable ids, read in place of the words (stores.term_ids; tests/stores/test_term_ids.py)
        sql(tmp_path / "index", "UPDATE nodes SET term_ids = NULL WHERE id = ?", ALEMBIC)
        wanted = 1
    counting.clear()
    with open_index(tmp_path / "index") as reader:
        assert answers(reader) == expected
    assert len(counting) == wanted


def test_a_change_that_keeps_the_text_keeps_the_counts(tmp_path: Path, counting: list[str]) -> None:
    index = build_tiny_index(tmp_path / "index")
    before = rows(tmp_path / "index")[ALEMBIC]
    node = next(n for n in tiny_nodes() if n.id == ALEMBIC)
    counting.clear()
    index.upsert([replace(node, tags=("db", "python", "migrations"))])
    entity = Node(id="entity:alembic", kind="entity", name="Alembic", text="Alembic")  # type: ignore[arg-type]
    index.add([entity])
    index.close()
    assert counting == []  # neither text is counted: one unchanged, one not BM25's
    stored = rows(tmp_path / "index")
    assert stored[ALEMBIC] == before
    assert stored["entity:alembic"] == (None, None)


def test_a_new_text_left_out_of_bm25_drops_the_old_counts(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "index")
    node = next(n for n in tiny_nodes() if n.id == ALEMBIC)
    index.upsert([replace(node, kind="entity", text=NEW_TEXT)])
    index.close()
    assert rows(tmp_path / "index")[ALEMBIC] == (None, None)  # the old text's words are not kept


def test_encode_and_decode() -> None:
    for text in ("", "a the of", "Deploying the checkout-api services; deploy-v3.5.0 INC-1043 café ＦＵＬＬ", "x " * 70000):
        terms = analyse(text)
        back = stored_terms.decode(stored_terms.encode(terms))
        assert back is not None
        assert back[0] == terms[0] and back[1].tolist() == terms[1].tolist()
    assert stored_terms.encode((["a\nb"], analyse("a")[1])) is None
    for blob in (None, b"", b"junk", "text", b"x\x9c\x03\x00\x00\x00\x00\x01"):
        assert stored_terms.decode(blob) is None
