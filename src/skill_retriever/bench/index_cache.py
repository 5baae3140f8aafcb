"""The benchmark's index cache: each set's index built once under a cache folder, reopened
afterwards without embedding anything (``Index.open`` reconciles from disk).

An entry is ``<cache>/<key>/`` (``<cache>/<key>@<model>-<hash>/`` for a model other than the
bundled MiniLM, so that each model's indexes live side by side): the index, and ``bench-cache.json`` with the fingerprint
(sources, subset parameters, embedder) and a completion flag written after the last
write. Only complete entries with the wanted fingerprint are reused; a build that stops
(Ctrl-C, an error) takes its half-built entry back, and every rebuild says why.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.ingest.result import IngestResult
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.index import Index

__all__ = ["CACHE_FORMAT", "BuildInfo", "cached_index", "ensure_calibrated", "entry_dir"]

CACHE_FORMAT = "skill-retriever-bench-cache/2"  # 2: items and vectors in items.sqlite
#: Problems of a build kept in its entry, the first of each file, so that a run reusing it
#: can say them (`dropped_tools`, `dropped_edges`); how many each file had is kept whole.
KEPT_PROBLEMS = 50


@dataclass(frozen=True)
class BuildInfo:
    """How a dataset's index came to be."""

    nodes: int
    edges: int
    reused: bool
    ingest_s: float = 0.0
    index_s: float = 0.0
    embedded: int = 0
    #: The ingestion's problems (``"<file>: <message>"``, notes left out), the first
    #: `KEPT_PROBLEMS` of each file; None from an entry built before they were kept.
    problems: tuple[str, ...] | None = ()
    #: How many problems each file had (notes left out); None when not known (an entry
    #: built before they were counted, whose kept problems may not be all).
    problem_counts: Mapping[str, int] | None = field(default_factory=dict)

    @property
    def items_per_s(self) -> float | None:
        return self.nodes / self.index_s if self.index_s > 0 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes, "edges": self.edges, "reused": self.reused,
            "ingest_s": round(self.ingest_s, 2), "index_s": round(self.index_s, 2),
            "embedded": self.embedded,
            "items_per_s": round(self.items_per_s, 1) if self.items_per_s else None,
            "problems": list(self.problems) if self.problems is not None else None,
            "problem_counts": dict(self.problem_counts) if self.problem_counts is not None else None,
        }


def entry_dir(cache_dir: Path, key: str, model: str) -> Path:
    """The folder of ``key``'s entry built with ``model`` (an embedder's ``name``). The
    bundled MiniLM keeps the bare key (the caches of earlier runs stay valid); another
    model's name is part of the folder: with the model only in the fingerprint,
    ``--embedder X`` over the default cache rebuilt every MiniLM index in place. The hash
    keeps two names that read alike once made a folder name (``a/b``, ``a_b``) apart."""
    import hashlib

    from skill_retriever.stores.embedder import DEFAULT_MODEL

    if model == DEFAULT_MODEL:
        return cache_dir / key
    slug = "".join(c if c.isalnum() or c in "-_." else "_" for c in model)[-40:].lstrip(".")
    return cache_dir / f"{key}@{slug}-{hashlib.sha256(model.encode()).hexdigest()[:8]}"


def cached_index(
    cache_dir: Path,
    key: str,
    fingerprint: Mapping[str, Any],
    ingest: Callable[[Path], IngestResult],
    embedder: Embedder,
    log: Callable[[str], None] = print,
) -> tuple[Index, BuildInfo]:
    """Open the entry's index (`entry_dir`), building it first when missing or stale.

    A half-built entry (no completion flag: a run stopped while building it) or one built
    from other inputs is rebuilt, and the log says which; a reused one is logged too. A
    cached index that no longer opens (truncated, files missing) is rebuilt: it is only a
    cache. A build that stops takes its entry back. Only the entry's own folder is ever
    deleted.
    """
    if key in ("", ".", "..") or Path(key).name != key:  # the folder deleted below must be the entry's own
        raise ValueError(f"cache key {key!r} must be a plain folder name")
    home = entry_dir(cache_dir, key, embedder.name)
    with _entry_lock(cache_dir, home.name, log):
        return _open_or_build(home, key, fingerprint, ingest, embedder, log)


@contextmanager
def _entry_lock(cache_dir: Path, key: str, log: Callable[[str], None]) -> Iterator[None]:
    """Hold ``<cache_dir>/<key>.lock`` while an entry is checked and built: another run on
    the same cache (the same --out or --cache) read an entry in the making as half-built,
    deleted it from under its builder and built its own, which the first, failing, took
    back (``key`` is the entry's folder name). The second now waits, then reuses what the first built. The operating system
    drops the lock when its process ends, however it ends; the file stays (a lock file
    deleted while held would let a third run in)."""
    import fcntl

    cache_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(cache_dir / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 20, 0).decode("ascii", "replace").strip()
            log(f"  another run{f' (pid {pid})' if pid else ''} is building the cached index {key}; waiting for it")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        yield
    finally:
        os.close(fd)  # and with it the lock


def _open_or_build(
    home: Path,
    key: str,
    fingerprint: Mapping[str, Any],
    ingest: Callable[[Path], IngestResult],
    embedder: Embedder,
    log: Callable[[str], None],
) -> tuple[Index, BuildInfo]:
    """:func:`cached_index` under the entry's lock."""
    from skill_retriever.exceptions import IndexOpenError

    stamp_path = home / "bench-cache.json"
    wanted = {"format": CACHE_FORMAT, "embedder": embedder.name, **fingerprint}
    wanted = json.loads(json.dumps(wanted))  # normalise tuples to lists
    stamp = _read_stamp(stamp_path)
    if stamp.get("complete") and stamp.get("fingerprint") == wanted:
        try:
            index = Index.open(home / "index", embedder=embedder)
        except IndexOpenError as exc:
            # What is wrong, without the advice after ';' (how to rebuild a user's index).
            log(f"  cached index {key} cannot be opened ({str(exc).split(';')[0]}); rebuilding this cache entry")
        else:
            if not len(index):  # kept by a version that built empty indexes: the build says why
                index.close()
                log(f"  cached index {key} holds no item; rebuilding it")
            else:
                info = stamp.get("build", {})
                log(f"  reusing the cached index {key} (built in {info.get('index_s', 0.0):.0f} s; "
                    f"delete {home} to rebuild it)")
                ensure_calibrated(index, log)
                kept, counts = _kept_problems(info)
                return index, BuildInfo(len(index), len(index.snapshot().edges), True,
                                        info.get("ingest_s", 0.0), info.get("index_s", 0.0), info.get("embedded", 0),
                                        kept, counts)
    elif home.exists():
        why = ("was built from other inputs (data, subset, model or cache format changed)" if stamp.get("complete")
               else "is half-built (a run stopped while building it)")
        log(f"  cached index {key} {why}; rebuilding it")
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    try:
        return _build(home, key, wanted, ingest, embedder, log)
    except BaseException:
        # Ctrl-C or an error mid-build: the cache keeps only whole entries, so this one goes
        # (its write lock with it) rather than waiting for the next run to find it.
        _take_back(home, key, log)
        raise


def _read_stamp(path: Path) -> dict[str, Any]:
    """The entry's ``bench-cache.json``; empty when missing or unreadable (not complete)."""
    try:
        stamp = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _build(home: Path, key: str, wanted: dict[str, Any], ingest: Callable[[Path], IngestResult],
           embedder: Embedder, log: Callable[[str], None]) -> tuple[Index, BuildInfo]:
    from skill_retriever.fsutil import write_atomic
    from skill_retriever.indexing import write_result

    started = time.perf_counter()
    result = ingest(home)
    ingest_s = time.perf_counter() - started
    log(f"  building index {key}: {len(result.nodes)} nodes, {len(result.edges)} edges "
        f"(ingest {ingest_s:.1f} s, {len(result.problems)} problems)")
    for problem in result.problems[:3]:  # a count alone says nothing of what was left out
        log(f"    problem: {str(problem)[:200]}")
    if len(result.problems) > 3:
        log(f"    ... and {len(result.problems) - 3} more")
    if not result.nodes:  # measured, an empty index ends in a peer's traceback (BM25 over no document)
        from skill_retriever.exceptions import IngestError

        why = "; ".join(str(p) for p in result.problems[:3]) or "no problem reported"
        raise IngestError(f"{key}: its data read to no item to index ({why}); mend the data, or move the set "
                          "out of the data folder")
    started = time.perf_counter()
    index = Index.open(home / "index", embedder=embedder, create=True)
    try:
        reports = write_result(index, result)
        ensure_calibrated(index, log)
        index_s = time.perf_counter() - started
        embedded = sum(r.embedded for r in reports)
        problems, counts = _problems_of(result)
        build = {"ingest_s": ingest_s, "index_s": index_s, "embedded": embedded, "problems": list(problems),
                 "problem_counts": counts}
        write_atomic(home / "bench-cache.json",
                     json.dumps({"fingerprint": wanted, "complete": True, "build": build}, indent=2))
    except BaseException:
        index.close()  # drops the write lock before the entry is removed
        raise
    info = BuildInfo(len(index), len(index.snapshot().edges), False, ingest_s, index_s, embedded, problems, counts)
    log(f"  indexed {info.nodes} nodes in {index_s:.1f} s ({info.items_per_s or 0:.0f} items/s, "
        f"{embedded} texts embedded)")
    return index, info


def _problems_of(result: IngestResult) -> tuple[tuple[str, ...], dict[str, int]]:
    """A build's problems to keep, the first `KEPT_PROBLEMS` of each file (the first 50 in
    all kept none of an edges.jsonl after a tools.jsonl with 50 bad lines), and how many
    each file had."""
    kept: list[str] = []
    counts: dict[str, int] = {}
    for problem in result.problems:
        if not problem.read_whole:
            counts[problem.path] = counts.get(problem.path, 0) + 1
            if counts[problem.path] <= KEPT_PROBLEMS:
                kept.append(str(problem))
    return tuple(kept), counts


def _kept_problems(info: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, dict[str, int] | None]:
    """The problems and per-file counts a cache entry's build kept; None for what an entry
    built before it was kept lacks (its first 50 problems in all may not be all)."""
    kept, counts = info.get("problems"), info.get("problem_counts")
    return (tuple(kept) if isinstance(kept, list) else None,
            {str(k): int(v) for k, v in counts.items()} if isinstance(counts, dict) else None)


def _take_back(home: Path, key: str, log: Callable[[str], None]) -> None:
    """Remove a half-built entry, or say the next run rebuilds it when it cannot be removed."""
    try:
        shutil.rmtree(home)
    except OSError as exc:
        log(f"  stopped while building the cached index {key}; could not remove the half-built {home} "
            f"({exc.strerror or exc}): the next run rebuilds it")
    else:
        log(f"  stopped while building the cached index {key}; removed the half-built entry")


def ensure_calibrated(index: Index, log: Callable[[str], None]) -> None:
    """Calibrate a cached index as ``skill-retriever index`` would (defaults = what a user
    gets), again when its calibration is older than the index or than the algorithm."""
    from skill_retriever.calibration import ensure_calibration

    started = time.perf_counter()
    calibration, computed = ensure_calibration(index)
    if computed:
        log(f"  calibrated in {time.perf_counter() - started:.1f} s: {calibration.summary(index.version)}")
