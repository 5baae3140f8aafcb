"""An index run that never finished shows (`stores.run_marks`): a process killed after its
first batch leaves its source marked; `stats`, every answer and the JSON status say so; the
next complete run of that source takes the mark off and says it completed it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.config import RetrievalConfig
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores import run_marks
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

FAST = RetrievalConfig(rerank=False)


def skills(folder: Path, count: int) -> Path:
    for i in range(count):
        path = folder / "skills" / f"skill-{i}" / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nname: skill-{i}\ndescription: formats logs {i}\n---\n\nbody {i}\n", encoding="utf-8")
    return folder


def killed_after_first_batch(index_dir: Path, source: Path) -> None:
    """Index ``source`` in batches of 2 in another process that kills itself (no cleanup,
    as SIGKILL) once its first batch is committed."""
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from skill_retriever import indexing
        from skill_retriever.stores.embedder import HashingEmbedder
        from skill_retriever.stores.index import Index
        indexing.BATCH = 2
        index = Index.open(Path({str(index_dir)!r}), embedder=HashingEmbedder(), create=True)
        def factory(total, label):
            return lambda n: os._exit(9)
        indexing.index_sources(index, [Path({str(source)!r})], progress_factory=factory, calibrate=False)
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    return skills(tmp_path / "repo", 6)


def test_a_killed_run_is_marked_and_the_next_run_completes_it(tmp_path: Path, source: Path, capsys) -> None:
    index_dir = tmp_path / "ix"
    killed_after_first_batch(index_dir, source)
    with Index.open(index_dir) as index:  # a reader in another process than the writer
        assert len(index) == 2  # the first batch only
        marks = index.status()["unfinished_runs"]
        assert list(marks) == ["repo"] and marks["repo"]["path"] == str(source)
        answer = Retriever(index, config=FAST).search("format logs")
        assert any("have not finished" in w for w in answer.warnings)

    assert main(["stats", "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert "warning: unfinished index runs: repo (started" in out and f"`skill-retriever index {source} --source-name repo --index-dir " in out
    assert f"`skill-retriever remove-source repo --index-dir {index_dir}`" in out

    assert main(["index", str(source), "--index-dir", str(index_dir)]) == 0
    assert "completed the run of it started" in capsys.readouterr().out
    with Index.open(index_dir) as index:
        assert len(index) == 6 and "unfinished_runs" not in index.status()
        answer = Retriever(index, config=FAST).search("format logs")
        assert not any("have not finished" in w for w in answer.warnings)


def test_a_complete_run_leaves_no_mark_and_writes_none_when_there_is_none(tmp_path: Path, source: Path) -> None:
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        run = index_sources(index, [source], calibrate=False)
        assert not run.completed and "unfinished_runs" not in index.status()
        assert run.to_dict()["completed_unfinished_runs"] == {}


def test_a_run_of_an_unchanged_source_writes_nothing(tmp_path: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing to write, nothing to remove: no mark put on and taken off either, so
    items.sqlite stays as it was (a backup or a reader sees no change); a file gone is
    still removed, marked while it is."""
    index_dir = tmp_path / "ix"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
    before = (index_dir / "items.sqlite").read_bytes()
    with Index.open(index_dir, writable=True) as index:
        run = index_sources(index, [source], calibrate=False)
        assert sum(w.nodes_unchanged for w in run.writes) == 6 and not run.removed
    assert (index_dir / "items.sqlite").read_bytes() == before
    marked: list[str] = []
    begin = run_marks.begin
    (source / "skills" / "skill-5" / "SKILL.md").unlink()
    monkeypatch.setattr(run_marks, "begin", lambda *a: marked.append(a[1]) or begin(*a))
    with Index.open(index_dir, writable=True) as index:
        run = index_sources(index, [source], calibrate=False)
        assert run.removed == {str(source): ["repo/skills/skill-5/SKILL.md"]} and marked == ["repo"]
        assert len(index) == 5 and "unfinished_runs" not in index.status()


def test_a_read_of_nothing_leaves_an_earlier_mark(tmp_path: Path, source: Path) -> None:
    """A second run that reads no item writes and removes nothing: the partial state stays,
    and so must its mark."""
    index_dir = tmp_path / "ix"
    killed_after_first_batch(index_dir, source)
    (source / "skills").rename(tmp_path / "elsewhere")  # the folder now holds nothing it reads
    with Index.open(index_dir, writable=True) as index:
        run = index_sources(index, [source], calibrate=False)
        assert not run.sources[0].nodes and len(index) == 2
        assert list(index.status()["unfinished_runs"]) == ["repo"]


def test_removing_the_source_takes_its_mark_off(tmp_path: Path, source: Path, capsys) -> None:
    index_dir = tmp_path / "ix"
    killed_after_first_batch(index_dir, source)
    assert main(["remove-source", "repo", "--index-dir", str(index_dir)]) == 0
    with Index.open(index_dir) as index:
        assert len(index) == 0 and "unfinished_runs" not in index.status()


def test_a_damaged_mark_is_reported_not_fatal_and_the_next_run_clears_it(tmp_path: Path, source: Path) -> None:
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
        index.store_meta("unfinished_runs", "[not an object")
        assert list(index.status()["unfinished_runs"]) == [run_marks.UNREADABLE]
        assert run_marks.stats_line(index.snapshot().unfinished_runs) is not None
        index_sources(index, [source], calibrate=False)
        assert "unfinished_runs" not in index.status()
        assert json.loads(index._items.get_meta("unfinished_runs") or "{}") == {}


def test_a_cached_answer_is_not_served_once_the_marks_or_the_calibration_change(tmp_path: Path, source: Path) -> None:
    """Marks and the calibration are stored without a new version: the answer cache must
    still tell the states apart (`IndexSnapshot.stamp`), or a long-lived retriever (the MCP
    server) keeps answering as before they changed."""
    from skill_retriever.calibration import ensure_calibration

    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
        retriever = Retriever(index, config=FAST)
        assert retriever.search("format logs").fit is None  # never calibrated
        ensure_calibration(index)
        assert retriever.search("format logs").fit is not None
        run_marks.begin(index, "repo", source)
        assert any("index run" in w for w in retriever.search("format logs").warnings)
        run_marks.end(index, "repo")
        assert not any("index run" in w for w in retriever.search("format logs").warnings)


def marked_by_a_process_that_died(index_dir: Path, name: str, folder: str) -> None:
    """A run of ``name`` that marked the index and died before writing an item (killed
    while it embedded), started from ``index_dir``'s parent with ``folder`` as typed."""
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from skill_retriever.stores import run_marks
        from skill_retriever.stores.index import Index
        index = Index.open(Path({str(index_dir)!r}), writable=True)
        run_marks.begin(index, {name!r}, Path({folder!r}))
        os._exit(9)
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True,
                          timeout=120, cwd=index_dir.parent)
    assert done.returncode == 9, done.stderr


def test_a_run_that_died_before_its_first_write_is_cleared_by_remove_source(
    tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its folder gone, the source cannot be indexed again, and the index holds no item of
    it: remove-source is the way out (it said "no source named ..." and the warning stayed
    on every answer)."""
    index_dir = tmp_path / "ix"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
    marked_by_a_process_that_died(index_dir, "tob", "tob")
    with Index.open(index_dir) as index:
        (mark,) = index.status()["unfinished_runs"].values()
        assert mark["path"] == str(tmp_path / "tob")  # absolute: "from tob" named no folder
        assert run_marks.run_state(mark) == "stopped"
        (said,) = [w for w in Retriever(index, config=FAST).search("format logs").warnings if "index run" in w]
        assert "have not finished (stopped)" in said and "remove-source" in said
    assert main(["stats", "--index-dir", str(index_dir)]) == 0
    assert "no longer running" in capsys.readouterr().out
    assert main(["remove-source", "tob", "--index-dir", str(index_dir), "--dry-run"]) == 0
    assert "would take off the mark of its index run started" in capsys.readouterr().out
    assert main(["remove-source", "tob", "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert "tob: removed 0 item(s)" in out and "took off the mark of its index run started" in out
    with Index.open(index_dir) as index:
        assert "unfinished_runs" not in index.status() and len(index) == 6
    assert main(["remove-source", "tob", "--index-dir", str(index_dir)]) != 0  # nothing of it left now
    assert "holds no source named 'tob'" in capsys.readouterr().err


def test_a_run_under_way_is_said_to_be_under_way(tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run going on (here: this process's own mark) is not told to be run again."""
    index_dir = tmp_path / "ix"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
        run_marks.begin(index, "repo", source)
        (said,) = [w for w in Retriever(index, config=FAST).search("format logs").warnings if "index run" in w]
        assert "are under way" in said and "index the source again" not in said
        # while the writer holds the index (its lock is how a live run is told from a dead one)
        assert main(["stats", "--index-dir", str(index_dir)]) == 0
        assert ", still running, from" in capsys.readouterr().out
    assert main(["stats", "--index-dir", str(index_dir)]) == 0  # its writer closed: the run stopped
    assert "no longer running" in capsys.readouterr().out


def test_an_index_being_filled_for_the_first_time_says_so(tmp_path: Path) -> None:
    """A query while the first run still embeds: not "add some with skill-retriever index"."""
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        run_marks.begin(index, "repo", tmp_path / "repo")  # this process: a run under way
        warnings = Retriever(index, config=FAST).search("format logs").warnings
        assert any("holds no items yet: an index run is filling it" in w for w in warnings)
        assert not any("add some with" in w for w in warnings)
        run_marks.end(index, "repo")
        assert any("add some with" in w for w in Retriever(index, config=FAST).search("format logs").warnings)


def test_an_answer_that_names_a_run_under_way_is_not_served_from_the_cache(tmp_path: Path, source: Path) -> None:
    """The run's process ends without a write the cache's key would see: an answer kept
    from before would go on saying "under way" after it stopped."""
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [source], calibrate=False)
        retriever = Retriever(index, config=FAST)
        run_marks.begin(index, "repo", source)
        first = retriever.search("format logs")
        assert any("are under way" in w for w in first.warnings)
        again = retriever.search("format logs")
        assert "cache" not in again.stats and any("are under way" in w for w in again.warnings)


def test_indexing_another_source_says_that_a_killed_run_is_left(tmp_path: Path, source: Path, capsys) -> None:
    """A run of another source (one that waited with --lock-wait for the killed one, say)
    neither completes the killed run nor may pass over it: it says so as `stats` does."""
    index_dir = tmp_path / "ix"
    killed_after_first_batch(index_dir, source)
    other = skills(tmp_path / "other", 2)
    assert main(["index", str(other), "--index-dir", str(index_dir)]) == 0
    captured = capsys.readouterr()
    assert "completed the run" not in captured.out
    assert "warning: unfinished index runs: repo (started" in captured.err
    assert f"`skill-retriever index {source} --source-name repo --index-dir {index_dir}`" in captured.err

    assert main(["index", str(source), "--index-dir", str(index_dir)]) == 0
    captured = capsys.readouterr()
    assert "completed the run of it started" in captured.out and "warning" not in captured.err
