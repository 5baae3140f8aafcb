"""A writer whose ``write.lock`` was deleted (or replaced) while it held it stops writing.

flock locks the open file, not its name: a user who takes a run's ``write.lock`` for one
left behind and deletes it lets the next run make a new file and lock that, and two
writers then wrote one index (seen with `skill-retriever index` of trailofbits__skills
running: a second `index` went through, and the first ended saying the index held 333
nodes where it held 347, then stored its calibration over the second's). The first
writer now finds its lock gone at its next write, says so and stores nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.calibration.compute import calibrate_index
from skill_retriever.exceptions import IndexLockedError
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import LOCK_FILE


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


def test_a_second_writer_that_took_a_new_lock_file_writes_and_the_first_stops(tmp_path: Path) -> None:
    first = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    first.add(node("alpha"))
    (tmp_path / "idx" / LOCK_FILE).unlink()
    second = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), writable=True)  # a new file, free to lock
    second.add(node("beta"))
    with pytest.raises(IndexLockedError, match="another process may be writing the index"):
        first.add(node("gamma"))
    first.close()
    second.add(node("delta"))  # the handle that holds the lock file of that name goes on
    assert set(second.nodes) == {"skill:alpha", "skill:beta", "skill:delta"}
    second.close()
