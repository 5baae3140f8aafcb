"""An index that is hurt but not damaged, or busy, says so (and never advises deleting it):
files this user may not read, a garbled calibration or lock file, a manifest that names
another model than its items record, a run killed or under way, an unreadable run mark.

The tests run as root in CI containers, where ``chmod`` takes no rights away: permission
cases make ``os.access`` (or the read) deny, as the kernel does for another user."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cli_calls import run
from tiny_graph import build_tiny_index

from skill_retriever.calibration import calibration_of, redraw_advice, unreadable_calibration
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import IndexCorruptError, IndexLockedError, IndexNotFoundError
from skill_retriever.retriever import Retriever
from skill_retriever.stores import run_marks
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import WriterLock, lock_taken
from skill_retriever.stores.permissions import IndexPermissionError

FAST = RetrievalConfig(rerank=False)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    build_tiny_index(tmp_path / "ix").close()
    return tmp_path / "ix"


def denied(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """``os.access`` says no for ``path``, as it does for a user without the rights."""
    real = os.access

    def access(p: object, mode: int, *args: object, **kw: object) -> bool:
        return False if Path(str(p)) == path else real(p, mode, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


# -- 1. permissions ---------------------------------------------------------------------
def test_an_unreadable_database_is_a_permission_problem_not_damage(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    denied(monkeypatch, built / "items.sqlite")
    for command in ("stats", "query"):
        argv = [command, "--index-dir", built] if command == "stats" else [command, "deploy", "--index-dir", built]
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.count("\n") == 1
        assert f"permission denied on {built / 'items.sqlite'} (owner " in err and "nothing is damaged" in err
        assert "delete the index directory" not in err and "rebuild" not in err
    with pytest.raises(IndexPermissionError, match="readable and writable"):
        Index.open(built, writable=True)


def test_an_unreadable_manifest_is_a_permission_problem_not_damage(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self == built / "index.json":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    code, _, err = run(capsys, "stats", "--index-dir", built)
    assert code == 2 and f"permission denied on {built / 'index.json'}" in err
    assert "delete it" not in err and "damaged:" not in err and "nothing is damaged" in err


def test_a_lock_file_that_cannot_be_written_is_named(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.open

    def open_(path: object, flags: int, *args: object, **kw: object) -> int:
        if Path(str(path)) == built / "write.lock" and flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_)
    with pytest.raises(IndexLockedError) as err:
        Index.open(built, writable=True)
    said = str(err.value)
    assert f"permission denied on {built / 'write.lock'}" in said and "its folder cannot be written" not in said


# -- 2. a garbled calibration -------------------------------------------------------------
def test_a_garbled_calibration_answers_uncalibrated_and_says_what_redraws_it(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Index.open(built, writable=True) as index:
        index.store_meta("calibration", "{garbage")
    with Index.open(built) as index:
        snapshot = index.snapshot()
        assert calibration_of(snapshot) is None
        said = unreadable_calibration(snapshot)
        assert said is not None and f"skill-retriever repair --index-dir {built}" in said
        answer = Retriever(index, config=FAST).search("deploy the checkout service")
        assert answer.fit is None and any("calibration is unreadable" in w for w in answer.warnings)
    code, _, _ = run(capsys, "stats", "--index-dir", built)
    assert code == 0


# -- 3. a lock file of unexpected text ------------------------------------------------------
def test_a_garbled_lock_file_of_an_index_says_to_delete_it(built: Path, tmp_path: Path) -> None:
    (built / "write.lock").write_text("hello\n")
    with pytest.raises(IndexCorruptError) as err:
        Index.open(built, writable=True)
    said = str(err.value)
    assert "holds unexpected text ('hello')" in said and f"rm {built / 'write.lock'}" in said
    assert "not an index directory" not in said
    other = tmp_path / "mine"  # a folder of the user's with a file of that name: not an index
    other.mkdir()
    (other / "write.lock").write_text("notes")
    with pytest.raises(IndexCorruptError, match="is not an index directory"):
        WriterLock(other).acquire()


# -- 4. a manifest naming another model than the items record --------------------------
def test_a_model_that_does_not_load_points_at_repair(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = json.loads((built / "index.json").read_text())
    (built / "index.json").write_text(json.dumps({**manifest, "embedder": "bundled:no-such-model"}))
    code, _, err = run(capsys, "query", "deploy", "--index-dir", built)
    assert code == 2 and err.count("\n") == 1, err  # no line of sentence-transformers' before it
    assert "records 'hashing-64'" in err and f"`skill-retriever repair --index-dir {built}`" in err
    code, out, _ = run(capsys, "repair", "--index-dir", built)
    assert code == 0 and "back to 'hashing-64'" in out
    assert run(capsys, "query", "deploy", "--index-dir", built)[0] == 0


# -- 5. a killed run is not "still running" ----------------------------------------------
def test_a_killed_run_not_yet_reaped_is_stopped(built: Path) -> None:
    """Its process is a zombie until reaped (kill(pid, 0) finds it): the lock it held is
    free the moment it died, and that is what tells."""
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from skill_retriever.stores import run_marks
        from skill_retriever.stores.index import Index
        index = Index.open(Path({str(built)!r}), writable=True)
        run_marks.begin(index, "repo", Path("repo"))
        print("marked", flush=True)
        time.sleep(600)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "marked"
        with Index.open(built) as index:
            (mark,) = index.snapshot().unfinished_runs.values()
        assert run_marks.run_state(mark) == "running"
        os.kill(child.pid, signal.SIGKILL)  # not waited for: a zombie
        for _ in range(500):  # the kernel drops the lock as the process exits
            if not lock_taken(built):
                break
            time.sleep(0.01)
        os.kill(child.pid, 0)  # still there, unreaped
        assert run_marks.run_state(mark) == "stopped"
    finally:
        child.kill()
        child.wait()


# -- 6. calibration advice while a run is under way --------------------------------------
def test_the_advice_to_calibrate_waits_for_the_run_under_way(built: Path) -> None:
    with Index.open(built, writable=True) as index:
        assert "skill-retriever calibrate" in redraw_advice(index.snapshot())
        run_marks.begin(index, "repo", built.parent)  # this process holds the lock: under way
        assert redraw_advice(index.snapshot()) == "the index run under way draws it again when it ends"


# -- 7. a directory an index run is creating ----------------------------------------------
def test_a_reader_of_an_index_being_created_is_told_to_wait(tmp_path: Path) -> None:
    folder = tmp_path / "race"
    folder.mkdir()
    (folder / "items.sqlite").write_bytes(b"")  # what a create makes before its manifest
    lock = WriterLock(folder)
    lock.acquire()
    try:
        with pytest.raises(IndexNotFoundError, match="is being built by an index run under way"):
            Index.open(folder)
    finally:
        lock.release()
    with pytest.raises(IndexNotFoundError, match="was stopped before its first write"):  # the run is gone
        Index.open(folder)


# -- 8. an unreadable run mark --------------------------------------------------------------
def test_an_unreadable_run_mark_gets_advice_that_runs(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Index.open(built, writable=True) as index:
        index.store_meta("unfinished_runs", "[not an object")
    code, out, _ = run(capsys, "stats", "--index-dir", built)
    assert code == 0 and "--source-name" not in out
    advised = f"skill-retriever remove-source '(unreadable mark)' --index-dir {built}"
    assert advised in out
    assert run(capsys, "remove-source", "(unreadable mark)", "--index-dir", built)[0] == 0
    with Index.open(built) as index:
        assert not index.snapshot().unfinished_runs and len(index) > 0
