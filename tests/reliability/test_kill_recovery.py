"""Nothing lost: an indexing process killed with SIGKILL at a random moment leaves an index
that opens, holds every item whose write returned (and none whose delete returned), has
as many vectors as items, and a resumed run completes.

The writer (index_writer.py) prints what each call acknowledged; each run opens the index
left by the killed one (items and vectors are committed together, so there is nothing to
reconcile) and reports what it
found. Trials: ``RELIABILITY_KILL_TRIALS``, else 5 in the ci profile and 24 in full.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reliability_support import FULL, count

WRITER = Path(__file__).with_name("index_writer.py")
TRIALS = int(os.environ.get("RELIABILITY_KILL_TRIALS", "24" if FULL else "5"))
BATCH = 6
SPAN = 10  # batches per run


@dataclass
class Ledger:
    """The last acknowledged event per id: "added", "deleting" (in flight) or "deleted"."""

    last: dict[str, str] = field(default_factory=dict)
    last_batch: int = -1

    def read(self, line: str) -> None:
        word, *rest = line.split()
        if word == "ADDED":
            for i in rest:
                self.last[i] = "added"
            self.last_batch = max(self.last_batch, int(rest[0][1:4]))
        elif word == "DELETING":
            self.last[rest[0]] = "deleting"
        elif word == "DELETED":
            self.last[rest[0]] = "deleted"

    def check(self, opened: dict[str, object], trial: int) -> None:
        ids = set(opened["ids"])  # type: ignore[arg-type]
        lost = sorted(i for i, s in self.last.items() if s == "added" and i not in ids)
        revived = sorted(i for i, s in self.last.items() if s == "deleted" and i in ids)
        assert not lost, f"trial {trial}: acknowledged items missing after the kill: {lost[:5]}"
        assert not revived, f"trial {trial}: acknowledged deletes undone after the kill: {revived[:5]}"
        vectors = opened["vectors"]
        assert vectors == {"nodes": opened["nodes"], "edges": opened["embedded_edges"]}, f"trial {trial}: {opened}"
        assert opened["dangling"] == 0


def expected_ids(end: int) -> set[str]:
    """What the plan leaves after batches 0..end-1 ran (see index_writer.py)."""
    made = {f"b{b:03d}-{j:02d}" for b in range(end) for j in range(BATCH)}
    gone = {f"b{b - 2:03d}-00" for b in range(end) if b % 4 == 3}
    return made - gone


def spawn(path: Path, start: int, end: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(path), str(start), str(end), str(BATCH)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def run_until_killed(proc: subprocess.Popen[str], rng: random.Random, ledger: Ledger, trial: int) -> bool:
    """Read the writer's lines until a random moment, then SIGKILL it. The OPENED line
    (what the previous kill left) is checked against the ledger as it arrives; returns
    whether the run got that far."""
    assert proc.stdout is not None
    early = rng.random() < 0.25  # kill during start-up, open or reconcile
    started = time.monotonic()
    deadline = started + rng.uniform(0.3, 3.0) if early else None
    opened = False
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buffer = ""
    while True:
        if deadline is not None and time.monotonic() >= deadline:
            break
        wait = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
        if sel.select(timeout=wait):
            chunk = os.read(proc.stdout.fileno(), 65536).decode()
            if not chunk:
                break  # the writer finished (or died) before the kill
            buffer += chunk
            *complete, buffer = buffer.split("\n")
            for line in complete:
                if line.startswith("OPENED "):
                    ledger.check(json.loads(line[7:]), trial)
                    opened = True
                    deadline = time.monotonic() + rng.uniform(0.0, 1.5)
                elif line:
                    ledger.read(line)
        if time.monotonic() - started > 120:
            pytest.fail("the writer did not start within 120 s")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    sel.close()
    rest = buffer + proc.stdout.read()  # lines written before the kill are acknowledged too
    for line in rest.splitlines():
        if line.startswith("OPENED "):
            ledger.check(json.loads(line[7:]), trial)
            opened = True
        elif line:
            ledger.read(line)
    return opened


def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("RELIABILITY_SEED", "20261120")))
    path = tmp_path / "index"
    ledger = Ledger()
    start, end = 0, SPAN
    checked = 0
    for trial in range(TRIALS):
        proc = spawn(path, start, end)
        acks = sum(1 for s in ledger.last.values() if s != "deleting"), ledger.last_batch
        if run_until_killed(proc, rng, ledger, trial):
            checked += 1  # it opened what the previous kill left, and found it whole
        elif proc.returncode not in (-signal.SIGKILL, 0):
            err = proc.stderr.read() if proc.stderr else ""
            pytest.fail(f"trial {trial}: the writer failed before opening the index:\n{err[-3000:]}")
        count("kill_trials")
        if (sum(1 for s in ledger.last.values() if s != "deleting"), ledger.last_batch) != acks:
            count("kills_after_acknowledged_writes")
        start = max(start, ledger.last_batch)  # resume at the last acknowledged batch
        end = max(end, start + SPAN)
    # A last run opens what the last kill left, checks it, and completes the plan.
    proc = spawn(path, start, end)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    lines = out.splitlines()
    ledger.check(json.loads(next(l for l in lines if l.startswith("OPENED "))[7:]), TRIALS)
    finished = json.loads(next(l for l in lines if l.startswith("FINISHED "))[9:])
    assert set(finished["ids"]) == expected_ids(end)
    assert finished["vectors"] == {"nodes": finished["nodes"], "edges": finished["embedded_edges"]}
    assert checked >= TRIALS // 2, "too few runs got as far as opening the index"
