"""A disk that fills part way through an index run (SQLite's own SQLITE_FULL).

The run's batches are one transaction each: those before the full disk stay, the one it
broke off stores nothing. The error said "nothing was changed; check the disk ... and try
again", while the index held the first batches of the source and an unfinished-run mark
(seen on a 60 MB tmpfs: 768 of davila7's 1886 items stored, `stats` naming the source as
unfinished). It now says that what the run stored before is kept, and what completes it.

SQLite is made to refuse the second batch by ``PRAGMA max_page_count`` (the file may
grow no further), which fails as a full disk does, with "database or disk is full".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_calls import indexed_graph, run

from skill_retriever.stores.index import Index
from skill_retriever.stores.items import ItemStore


def _graph(prefix: str, n: int) -> dict[str, Any]:
    words = "deploy rollback postgres migration lint format audit trace cache queue".split()
    return {"nodes": [{"id": f"{prefix}{i}", "kind": "skill", "name": f"{prefix}{i}",
                       "description": f"{words[i % 10]} {words[(i * 3) % 10]} helper number {i}"} for i in range(n)],
            "edges": []}


def test_a_disk_full_after_the_first_batches_says_they_are_kept_and_what_completes_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    index_dir = indexed_graph(tmp_path, _graph("a", 5))
    big = tmp_path / "big" / "big.json"
    big.parent.mkdir()
    big.write_text(json.dumps(_graph("b", 600)), encoding="utf-8")  # three batches of nodes
    real_write = ItemStore.write
    calls = 0

    def write_until_full(self: ItemStore, version: int, **kw: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:  # the disk is full from the second batch on
            pages = self._db.execute("PRAGMA page_count").fetchone()[0]
            self._db.execute(f"PRAGMA max_page_count = {pages}")
        real_write(self, version, **kw)

    monkeypatch.setattr(ItemStore, "write", write_until_full)
    argv = ["index", str(big), "--index-dir", str(index_dir), "--embedder", "hashing-64"]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "database or disk is full" in err, err
    assert "nothing was changed" not in err, err  # the first batch was
    assert "stored before it is kept" in err and f"skill-retriever index {big} --index-dir {index_dir} --embedder hashing-64" in err, err
    with Index.open(index_dir) as index:
        held = {n for n in index.nodes if n.startswith("b")}
        assert 0 < len(held) < 600  # what the error says: part of the source
        assert "big" in index.snapshot().unfinished_runs

    monkeypatch.setattr(ItemStore, "write", real_write)  # room again: the same command completes it
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    with Index.open(index_dir) as index:
        assert len(index.nodes) == 605
        assert not index.snapshot().unfinished_runs
