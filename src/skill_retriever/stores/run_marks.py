"""Which index runs are under way, kept in the index so that a run that never finished shows.

An index run writes a source in batches, each its own transaction (``indexing.write_result``),
then removes what the source no longer has. A run killed in between (Ctrl-C, an out-of-memory
kill, a full disk) leaves the batches it wrote: part of the source's new version beside items
the source no longer has. Nothing is damaged, but nothing said so either. So a run marks its
source in ``items.sqlite`` (meta ``unfinished_runs``, a JSON object keyed by source name)
before its first write, and takes the mark off once the source is complete. A mark that stays
names a run that is still going or was stopped; ``stats`` and every answer say which (the
mark names the machine, the process and the index directory, `run_state`), and the next
complete run of that source takes it off, as does ``remove-source`` (also for a source whose
run stopped before it wrote an item, so that the index holds nothing of it).

A run holds the index's write lock from its first write (the mark) to its end, and the
kernel drops that lock the moment its process dies: so the lock, not the process id, tells
a live run from a killed one. A killed process stays findable by its pid until its parent
reaps it (a container without an init reaps nothing), and its pid may be another
process's by then; the pid is read only where the lock cannot tell.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from skill_retriever.advice import Placeholder, Word, command
from skill_retriever.stores.lock import lock_taken, pid_exists


class _Snapshot(Protocol):
    @property
    def unfinished_runs(self) -> dict[str, dict[str, Any]]: ...

    path: Path


class Index(Protocol):
    """What marking needs of `stores.index.Index` (named here without importing it: the
    index's snapshot module reads the marks)."""

    def snapshot(self) -> _Snapshot: ...

    def store_meta(self, key: Literal["calibration", "unfinished_runs"], value: str | Callable[[str], str]) -> None: ...


#: The key a mark without a readable source name is shown under (the stored JSON is damaged).
UNREADABLE = "(unreadable mark)"


def parse(stored: str) -> dict[str, dict[str, Any]]:
    """The marks as stored: ``{source: {"started": ISO time, "pid": int, "path": str}}``.
    A damaged value is one mark under `UNREADABLE`, never an error: it must not stop a read."""
    try:
        value = json.loads(stored)
    except ValueError:
        return {UNREADABLE: {}}
    if not isinstance(value, dict):
        return {UNREADABLE: {}}
    return {str(k): (v if isinstance(v, dict) else {}) for k, v in value.items()}


def begin(index: Index, source: str, path: Path) -> dict[str, Any] | None:
    """Mark ``source`` as being written; answer the mark an earlier run of it left (it did
    not finish), or None."""
    earlier: list[dict[str, Any]] = []

    def mark(stored: str) -> str:
        marks = parse(stored or "{}")
        earlier.extend(m for m in [marks.get(source)] if m is not None)
        marks[source] = {"started": datetime.now(UTC).isoformat(timespec="seconds"), "pid": os.getpid(),
                         "host": platform.node(), "path": str(path.absolute()),
                         "index": str(Path(index.snapshot().path).absolute())}  # whose lock tells it runs
        return json.dumps(marks, sort_keys=True)

    index.store_meta("unfinished_runs", mark)
    return earlier[0] if earlier else None


def end(index: Index, source: str) -> None:
    """Take ``source``'s mark off (its run is complete, or the source was removed); a
    damaged value goes too, since it is written anew."""
    if source not in (marks := index.snapshot().unfinished_runs) and UNREADABLE not in marks:
        return  # nothing to take off: no write (readers would reload for nothing)

    def unmark(stored: str) -> str:
        marks = parse(stored or "{}")
        marks.pop(source, None)
        marks.pop(UNREADABLE, None)
        return json.dumps(marks, sort_keys=True)

    index.store_meta("unfinished_runs", unmark)


def run_state(mark: dict[str, Any]) -> Literal["running", "stopped", "unknown"]:
    """Whether the run that left ``mark`` is still going. On this machine: "stopped" when
    the write lock of the index it names is free (the run held it until its end) or its
    process is gone, "running" when the lock is taken and the process exists (a pid alone,
    where the lock cannot tell or the mark names no index, as marks written before did).
    "unknown" for another machine's run (an index on a shared disk) or a mark that names
    no process."""
    pid = mark.get("pid")
    if mark.get("host") != platform.node() or not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return "unknown"
    index = mark.get("index")
    taken = lock_taken(Path(index)) if isinstance(index, str) and index else None
    alive = pid_exists(pid)
    if taken is False or alive is False:
        return "stopped"
    if taken is None and alive is None:
        return "unknown"
    return "running"


def answer_warning(marks: dict[str, dict[str, Any]]) -> str | None:
    """What an answer says about marks (no source names: a caller may not see every source)."""
    if not marks:
        return None
    states = [run_state(m) for m in marks.values()]
    started = ", ".join(sorted(str(m.get("started", "?")) for m in marks.values()))
    if all(state == "running" for state in states):
        return (
            f"{len(marks)} index run(s) of this index, started {started}, are under way: until they "
            "end, the index may hold part of a source's new version beside items it no longer has"
        )
    how = "stopped" if all(state == "stopped" for state in states) else "still running, or stopped"
    return (
        f"{len(marks)} index run(s) of this index, started {started}, have not finished ({how}): "
        "the index may hold part of a source's new version beside items it no longer has; if no "
        "run is going on, index the source again (or remove-source it if its folder is gone)"
    )


def stats_line(marks: dict[str, dict[str, Any]], index_dir: Word | None = None) -> str | None:
    """What ``stats`` says about marks: each source, when, by which process (and whether it
    still runs), and the fix (its commands naming the index at ``index_dir``)."""
    readable = {source: m for source, m in marks.items() if source != UNREADABLE}
    unreadable = _unreadable_line(index_dir) if UNREADABLE in marks else None
    if not readable:
        return unreadable

    def state(m: dict[str, Any]) -> str:
        said = {"running": "still running", "stopped": "no longer running"}.get(run_state(m))
        return said or (f"on {m['host']}" if m.get("host") else "whether it runs is unknown")

    runs = "; ".join(
        f"{source} (started {m.get('started', '?')} by process {m.get('pid', '?')}, {state(m)}, "
        f"from {m.get('path', '?')})"
        for source, m in sorted(readable.items())
    )
    # each run's own folder and source name, so that the commands run as printed
    again = "; ".join(f"`{finish_command(source, m, index_dir)}`" for source, m in sorted(readable.items()))
    gone = "; ".join(f"`{command(['remove-source', source], index_dir)}`" for source in sorted(readable))
    line = (
        f"unfinished index runs: {runs}. If none is still running, index that folder again with the same "
        f"source name ({again}): it completes the source; if the folder is gone, {gone} takes out what it wrote"
    )
    return f"{line}. Also: {unreadable}" if unreadable else line


def finish_command(source: str, mark: dict[str, Any], index_dir: Word | None = None) -> str:
    """The command that completes ``source``'s unfinished run (its ``mark``): its own folder
    indexed again under its own source name, into the index at ``index_dir``."""
    return command(["index", mark.get("path") or Placeholder("FOLDER"), "--source-name", source], index_dir)


def _unreadable_line(index_dir: Word | None) -> str:
    """The advice for a record of runs that cannot be parsed: no source name to index
    again, so what it is and the command that clears it (`end` drops it at any write)."""
    return (
        "the record of unfinished index runs in items.sqlite (meta 'unfinished_runs') cannot be read, so "
        "which source a stopped run left half-written is unknown. If no index run is going on, index each "
        "source again (stats lists them) to be sure they are complete: each complete run clears the record; "
        f"or clear it alone with `{command(['remove-source', UNREADABLE], index_dir)}` (it removes no item)"
    )


__all__ = ["UNREADABLE", "answer_warning", "begin", "end", "finish_command", "parse", "run_state", "stats_line"]
