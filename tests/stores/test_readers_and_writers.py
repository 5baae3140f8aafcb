"""One writer per index directory, readers that never change it, and one snapshot per query.

The cross-process test (a real `skill-retriever index` with reader processes querying
beside it) lives in tests/reliability/test_reader_processes.py.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from pathlib import Path

import pytest
from tiny_graph import PRIVATE_ID, build_tiny_index, tiny_nodes

from skill_retriever.calibration.compute import calibrate_index
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError, IndexCorruptError, IndexLockedError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

#: SQLite's own coordination files: a read-only connection may create them empty.
SQLITE_SIDE_FILES = {"items.sqlite-wal", "items.sqlite-shm"}


def digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name not in SQLITE_SIDE_FILES
    }


def test_a_second_writer_gets_a_one_line_error(tiny_index: Index) -> None:
    other = Index.open(tiny_index.path)
    try:
        assert not other.writable
        with pytest.raises(IndexLockedError) as err:
            other.upsert([Node(id="x:1", kind="skill", name="x", text="x")])
        message = str(err.value)
        assert "\n" not in message and "is writing the index" in message
        assert "lock_wait_s=SECONDS" in message and "another index directory" in message  # Python's terms
        assert "x:1" not in other.snapshot() and "x:1" not in tiny_index.snapshot()
    finally:
        other.close()


def test_a_waiting_writer_writes_once_the_first_closes(tmp_path: Path) -> None:
    first = build_tiny_index(tmp_path / "ix")
    second = Index.open(tmp_path / "ix", lock_wait_s=30)
    threading.Timer(0.3, first.close).start()
    second.upsert([Node(id="x:1", kind="skill", name="late writer", text="written after the first closed")])
    assert second.writable and "x:1" in second.snapshot()
    second.close()


def test_readers_see_each_committed_write_and_never_change_the_index(tmp_path: Path) -> None:
    writer = build_tiny_index(tmp_path / "ix")
    reader = Index.open(tmp_path / "ix")
    try:
        before_version = reader.snapshot().version
        writer.upsert([Node(id="x:1", kind="skill", name="fresh", text="a skill written after the reader opened")])
        snap = reader.snapshot()
        assert "x:1" in snap and snap.version == before_version + 1
        assert [h.id for h in snap.search_keywords("fresh skill written", 1)] == ["x:1"]
        writer.delete(["x:1"])
        assert "x:1" not in reader.snapshot()
        writer.close()
        untouched = digest(tmp_path / "ix")
        for query in ("postgres migrations", "checkout-api"):
            Retriever(reader, reranker=None).search(query)
        reader.status()
        assert digest(tmp_path / "ix") == untouched
        assert not reader.writable
    finally:
        reader.close()


def test_an_empty_database_file_is_damage_not_an_empty_index(tmp_path: Path) -> None:
    build_tiny_index(tmp_path / "ix").close()
    for side in SQLITE_SIDE_FILES:
        (tmp_path / "ix" / side).unlink(missing_ok=True)
    (tmp_path / "ix" / "items.sqlite").write_bytes(b"")
    kept = digest(tmp_path / "ix")
    for writable in (False, True):
        with pytest.raises(IndexCorruptError, match=r"items.sqlite is empty.*skill-retriever index") as err:
            Index.open(tmp_path / "ix", writable=writable)
        assert "\n" not in str(err.value)
    assert digest(tmp_path / "ix") == kept  # nothing created, nothing deleted


def test_a_missing_database_file_is_named(tmp_path: Path) -> None:
    build_tiny_index(tmp_path / "ix").close()
    (tmp_path / "ix" / "items.sqlite").unlink()
    with pytest.raises(IndexCorruptError, match=r"items.sqlite is missing"):
        Index.open(tmp_path / "ix")


class BlockingReranker:
    """Holds a query inside the rerank phase until released (to force an interleaving)."""

    name = "blocking"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def score(self, query: str, texts: list[str]) -> list[float]:
        self.entered.set()
        assert self.release.wait(30)
        return [0.0] * len(texts)


def test_a_query_reads_one_snapshot_and_its_answer_never_outlives_a_write(tmp_path: Path) -> None:
    """A query pinned before a write and finished after it answers from the state it
    started on, and its cached answer is never served once the write has returned."""
    index = build_tiny_index(tmp_path / "ix")
    reranker = BlockingReranker()
    retriever = Retriever(index, RetrievalConfig(k=20), reranker=reranker)
    query = "alembic migrations revision scripts"
    out: dict[str, object] = {}
    worker = threading.Thread(target=lambda: out.setdefault("r", retriever.search(query)))
    worker.start()
    assert reranker.entered.wait(30)
    # While the query is inside a phase: make a public item private to team-b.
    alembic = index.get("skill:alembic")
    index.upsert([alembic.with_changes(access=("team-b",), description="renamed while a query ran")])
    reranker.release.set()
    worker.join(30)
    early = out["r"]
    assert "skill:alembic" in early.ids  # type: ignore[attr-defined]
    assert early.snapshot_version == index.version - 1  # type: ignore[attr-defined]
    later = retriever.search(query)
    assert "skill:alembic" not in later.ids
    assert "cache" not in later.stats
    assert later.snapshot_version == index.version
    assert PRIVATE_ID not in later.ids
    index.close()


def test_every_phase_of_a_query_reads_the_snapshot_it_pinned(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix", HashingEmbedder())
    deleted: list[str] = []

    class DeletingReranker:
        name = "deleting"

        def score(self, query: str, texts: list[str]) -> list[float]:
            if not deleted:  # a concurrent writer removes every result of this query
                ids = [n.id for n in tiny_nodes() if n.id in index]
                index.delete(ids[:5])
                deleted.extend(ids[:5])
            return [1.0] * len(texts)

    resp = Retriever(index, RetrievalConfig(k=10), reranker=DeletingReranker()).search("postgres checkout deploy")
    assert deleted and set(deleted) & set(resp.ids)  # the results still come from the pinned state
    assert not resp.warnings
    assert all(i not in index for i in deleted)
    index.close()


def test_editing_an_answer_never_edits_the_answer_the_cache_serves_next(tiny_index: Index) -> None:
    """Each caller gets its own copy, the first one included: editing a result's channels,
    a phase's stats, the fit or the lists changes nothing a later caller is served."""
    calibrate_index(tiny_index)  # so each answer carries a fit to edit
    retriever = Retriever(tiny_index, RetrievalConfig(k=5), reranker=None)
    query = "alembic migrations revision scripts"
    first = retriever.search(query)
    assert first.results and first.fit is not None

    def served(answer: object) -> dict[str, object]:
        """The answer without its timings: a hit's phases report none (it ran none)."""
        out = copy.deepcopy(answer.to_output())  # type: ignore[attr-defined]
        out["stats"].pop("cache", None)
        out["stats"] = {name: {k: v for k, v in st.items() if k != "ms"} for name, st in out["stats"].items()}
        return out

    expected = served(first)

    def vandalise(answer: object) -> None:
        assert hasattr(answer, "results")
        answer.results[0].channels["keyword"] = 999  # type: ignore[attr-defined,index]
        answer.stats["plan_query"]["route"] = "edited"  # type: ignore[attr-defined]
        answer.fit["nothing_fits"] = not answer.fit["nothing_fits"]  # type: ignore[attr-defined,index]
        answer.warnings.append("edited")  # type: ignore[attr-defined]
        answer.results.clear()  # type: ignore[attr-defined]

    vandalise(first)
    second = retriever.search(query)
    assert second.stats["cache"]["hit"] is True
    assert served(second) == expected
    vandalise(second)
    assert served(retriever.search(query)) == expected


def test_a_search_reads_the_snapshot_it_is_given(tiny_index: Index, tmp_path: Path) -> None:
    """``search(snapshot=...)`` answers from that version even after a write, so what a
    caller builds from the answer can come from the same snapshot; a snapshot of another
    index is refused."""
    retriever = Retriever(tiny_index, RetrievalConfig(k=20), reranker=None)
    query = "alembic migrations revision scripts"
    pinned = tiny_index.snapshot()
    tiny_index.delete(["skill:alembic"])
    assert "skill:alembic" not in retriever.search(query).ids
    answer = retriever.search(query, snapshot=pinned)
    assert "skill:alembic" in answer.ids and answer.snapshot_version == pinned.version
    other = build_tiny_index(tmp_path / "other")
    with pytest.raises(ConfigError, match="snapshot must be one this retriever's index gave"):
        retriever.search(query, snapshot=other.snapshot())
    other.close()
