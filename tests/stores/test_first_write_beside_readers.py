"""An index opened for reading becomes the writer at its first write, and swaps its
read-only database connection for a writable one: a query in another thread of the
same process, catching up on that connection at that moment, must not have it closed
under it (seen sharing one `Retriever` between asyncio searches and a thread that
upserts: `sqlite3.ProgrammingError: Cannot operate on a closed database`)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Self

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot


class WatchedLock:
    """A lock that says (``contended``) when a thread has to wait for it."""

    def __init__(self, contended: threading.Event) -> None:
        self._lock = threading.Lock()
        self._contended = contended

    def __enter__(self) -> Self:
        if not self._lock.acquire(blocking=False):
            self._contended.set()
            self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def test_a_reader_catching_up_keeps_its_connection_while_another_thread_becomes_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_tiny_index(tmp_path / "ix").close()
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder())
    assert not index.writable
    reader_in, go, progress, writer_done = (threading.Event() for _ in range(4))
    read_store = index._items
    check_for_changes = read_store.data_version

    def paused_check() -> int:  # the reader stops inside its catch-up, on the read-only connection
        reader_in.set()
        assert go.wait(30)
        return check_for_changes()

    monkeypatch.setattr(read_store, "data_version", paused_check)
    monkeypatch.setattr(index, "_refresh_lock", WatchedLock(progress))
    out: dict[str, IndexSnapshot | BaseException] = {}

    def read() -> None:
        try:
            out["reader"] = index.snapshot()
        except BaseException as exc:  # noqa: BLE001 -- handed to the test, which asserts on it
            out["reader"] = exc

    def write() -> None:
        assert reader_in.wait(30)
        try:
            index.upsert(Node(id="skill:new", kind=NodeKind.SKILL, name="quokka feeder", text="feeds quokkas"))
        except BaseException as exc:  # noqa: BLE001 -- handed to the test, which asserts on it
            out["writer"] = exc
        writer_done.set()
        progress.set()

    threads = [threading.Thread(target=read), threading.Thread(target=write)]
    for t in threads:
        t.start()
    # Let the reader go on once the writer has finished, or waits for the reader: either
    # way, whatever the writer does before it waits has been done.
    assert progress.wait(30)
    go.set()
    for t in threads:
        t.join(30)
    assert writer_done.is_set()
    assert "writer" not in out, out.get("writer")
    assert isinstance(out["reader"], IndexSnapshot), repr(out["reader"])
    assert index.writable
    assert "skill:new" in index.snapshot()
    index.close()
