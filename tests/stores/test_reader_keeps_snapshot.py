"""A reader keeps its snapshot (and the views and per-item caches built on it) when another
process's commit changed nothing it holds.

An `index` run of sources that did not change writes no item, but marks each source as
under way and takes the mark off again (`stores.run_marks`): two commits that leave the
index as it was. Every reader took them for a change and dropped its snapshot, so an MCP
server's next queries rebuilt every per-item cache (seen on the six real skill repos: 20
queries 2.8 s warm, 13.6 s after a no-change `index` run by another process).
"""

from __future__ import annotations

from pathlib import Path

from tiny_graph import build_tiny_index

from skill_retriever.model import Node
from skill_retriever.stores import run_marks
from skill_retriever.stores.index import Index


def test_a_mark_put_on_and_taken_off_leaves_a_readers_snapshot_as_it_was(tmp_path: Path) -> None:
    writer = build_tiny_index(tmp_path / "ix")
    reader = Index.open(tmp_path / "ix")
    try:
        before = reader.snapshot()
        run_marks.begin(writer, "tiny", tmp_path)
        run_marks.end(writer, "tiny")
        assert reader.snapshot() is before
    finally:
        reader.close()
        writer.close()


def test_a_reader_still_sees_a_mark_left_on_and_each_real_write(tmp_path: Path) -> None:
    writer = build_tiny_index(tmp_path / "ix")
    reader = Index.open(tmp_path / "ix")
    try:
        before = reader.snapshot()
        run_marks.begin(writer, "tiny", tmp_path)
        marked = reader.snapshot()
        assert marked is not before and "tiny" in marked.unfinished_runs
        run_marks.end(writer, "tiny")
        unmarked = reader.snapshot()
        assert unmarked is not marked and not unmarked.unfinished_runs
        writer.upsert([Node(id="x:1", kind="skill", name="fresh", text="written after the reader opened")])
        written = reader.snapshot()
        assert written is not unmarked and "x:1" in written
        writer.store_meta("calibration", "{}")
        assert reader.snapshot() is not written and reader.snapshot().calibration_json == "{}"
    finally:
        reader.close()
        writer.close()
