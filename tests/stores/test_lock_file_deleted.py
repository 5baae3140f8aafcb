"""A writer whose ``write.lock`` was deleted (or replaced) while it held it stops writing.

flock locks the open file, not its name: a user who takes a run's ``write.lock`` for one
left behind and deletes it lets the next run make a new file and lock that, and two
writers then wrote one index (seen with `skill-retriever index` of trailofbits__skills
running: a second `index` went through, and the first ended saying the index held 333
nodes where it held 347, then stored its calibration over the second's). The first
writer now finds its lock gone at its next write, says so and stores nothing."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.calibration.compute import calibrate_index
from skill_retriever.exceptions import IndexLockedError
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import LOCK_FILE, lock_taken


def node(name: str) -> Node:
    return Node(id=f"skill:{name}", kind="skill", name=name, text=f"{name} writes structured logs")


def test_a_writer_whose_lock_file_was_deleted_stores_nothing_and_says_so(tmp_path: Path) -> None:
    writer = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    writer.add(node("alpha"))
    (tmp_path / "idx" / LOCK_FILE).unlink()
    with pytest.raises(IndexLockedError) as caught:
        writer.add(node("beta"))
    message = str(caught.value)
    assert message.startswith(f"the write lock {tmp_path / 'idx' / LOCK_FILE} was deleted or replaced while this process held it")
    assert "another process may be writing" in message and "nothing of this write was stored" in message
    with pytest.raises(IndexLockedError, match="was deleted or replaced while this process held it"):
        writer.delete("skill:alpha")
    with pytest.raises(IndexLockedError, match="was deleted or replaced while this process held it"):
        calibrate_index(writer)  # its result is stored as the index's own: a write too
    writer.close()
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder()) as reader:
        assert set(reader.nodes) == {"skill:alpha"}
        assert reader.snapshot().calibration_json is None


def test_a_second_writer_is_refused_while_the_first_whose_lock_file_was_deleted_lives(tmp_path: Path) -> None:
    """The second writer made a new write.lock, locked it and wrote (the first noticed only at
    its next batch): the writer holds its folder's lock too, which no `rm` of a file takes away."""
    first = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    first.add(node("alpha"))
    (tmp_path / "idx" / LOCK_FILE).unlink()
    with pytest.raises(IndexLockedError) as caught:
        Index.open(tmp_path / "idx", embedder=HashingEmbedder(), writable=True)
    assert caught.value.holder == os.getpid() and caught.value.directory == str(tmp_path / "idx")
    assert f"another handle in this process (pid {os.getpid()}) is writing the index at {tmp_path / 'idx'}" in str(caught.value)
    second = Index.open(tmp_path / "idx", embedder=HashingEmbedder())
    with pytest.raises(IndexLockedError, match="is writing the index"):
        second.add(node("beta"))
    with pytest.raises(IndexLockedError, match="another process may be writing the index"):
        first.add(node("gamma"))  # the first still stops: an older writer may hold the new file
    assert lock_taken(tmp_path / "idx") is True  # a run is alive, though its lock file is gone
    first.close()
    assert lock_taken(tmp_path / "idx") is False
    second.add(node("delta"))  # the first gone, the second writes
    assert set(second.nodes) == {"skill:alpha", "skill:delta"}
    second.close()


def _hold(path: str, ready: Any, done: Any) -> None:
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as index:
        index.add(node("alpha"))
        ready.set()
        done.wait(60)


def test_another_process_is_refused_while_the_writer_whose_lock_file_was_deleted_lives(tmp_path: Path) -> None:
    Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True).close()
    ctx = multiprocessing.get_context("spawn")
    ready, done = ctx.Event(), ctx.Event()
    child = ctx.Process(target=_hold, args=(str(tmp_path / "idx"), ready, done))
    child.start()
    try:
        assert ready.wait(120)
        (tmp_path / "idx" / LOCK_FILE).unlink()
        with pytest.raises(IndexLockedError) as caught:
            Index.open(tmp_path / "idx", embedder=HashingEmbedder(), writable=True)
        assert caught.value.holder == child.pid, str(caught.value)
        assert f"process {child.pid} is writing the index" in str(caught.value)
    finally:
        done.set()
        child.join(60)
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), writable=True) as index:  # its run ended
        index.add(node("beta"))
        assert set(index.nodes) == {"skill:alpha", "skill:beta"}
