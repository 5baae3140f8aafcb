"""``skill-retriever index``: read sources into an index (`indexing.index_sources`), print
what each gave, then what resolved across sources (`cross_source`), and take back a new
index that its first run left empty."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.advice import command
from skill_retriever.cliargs import open_index
from skill_retriever.exceptions import ServerUnreachableError, SkillRetrieverError
from skill_retriever.safety.terminal import printable, printable_json

if TYPE_CHECKING:
    from skill_retriever.index_run import IndexRun
    from skill_retriever.ingest.result import IngestResult
    from skill_retriever.model import Node

__all__ = ["cmd_index", "server_repairs"]


def cmd_index(args: argparse.Namespace) -> int:
    from skill_retriever.exceptions import CommandArgumentError, IngestError
    from skill_retriever.indexing import sample_catalogue_path
    from skill_retriever.stores.server_moves import saved_manifest, server_switch

    paths = list(args.paths) + ([sample_catalogue_path()] if args.sample else [])
    if not paths:
        raise CommandArgumentError("nothing to index: give one or more paths, or --sample")
    if args.max_file_bytes is not None and args.max_file_bytes <= 0:
        raise CommandArgumentError(f"--max-file-bytes must be > 0, got {args.max_file_bytes} (leave it out for 2,000,000)")
    folder = Path(args.index_dir)
    for path in paths:
        if not path.exists():
            from skill_retriever.held_sources import missing_path

            raise IngestError(missing_path(path, _held_nodes(folder) if not args.chroma_url else None, folder))
    held = set(os.listdir(folder)) if folder.is_dir() else None  # what was there before
    new = held is None or "index.json" not in held
    # an index moved to another server by --chroma-url says so, as `repair` does
    before = saved_manifest(folder) if args.chroma_url and not new else None
    try:
        index = open_index(args, create=True)  # a failed open leaves nothing (`Index.open`)
    except ServerUnreachableError as exc:  # the writer's open asks the server first: no run to complete
        exc.nothing_written = True
        raise
    try:
        with index:
            code = _index_into(index, paths, args)
            # read once the run wrote: the new server's collections are the index's then
            switch = server_switch(before, index.status().get("chroma_url"), index.path)
            for line in switch:  # beside --json's output, not in it
                print(printable(line), file=sys.stderr if args.json else sys.stdout)
            left_empty = len(index) == 0
    except BaseException:
        if new and not args.chroma_url:
            _unmake_index(folder, held)
        raise
    if new and left_empty and not args.chroma_url:
        _unmake_index(folder, held)
    return code


def _unmake_index(folder: Path, held: set[str] | None) -> None:
    """Take back a new index that its first run left empty (it failed, or read nothing):
    its files named the embedder of a run that built nothing, and a later ``--embedder``
    was refused for an index never built. Only what this run made goes (the folder, if
    it made it); nothing once the index holds an item."""
    if _holds_items(folder):
        return
    if held is None:
        shutil.rmtree(folder, ignore_errors=True)
        return
    for name in sorted(set(os.listdir(folder)) - held):
        target = folder / name
        shutil.rmtree(target, ignore_errors=True) if target.is_dir() else target.unlink(missing_ok=True)


def _held_nodes(folder: Path) -> Mapping[str, Node] | None:
    """The nodes of the index in ``folder``, for what a path gone from disk held; None when
    there is none yet, or it cannot be read (the message then says less)."""
    from skill_retriever.stores.index import Index

    if not (folder / "index.json").is_file():
        return None
    try:
        with Index.open(folder) as index:
            return index.snapshot().nodes
    except SkillRetrieverError:
        return None


def _holds_items(folder: Path) -> bool:
    from skill_retriever.stores.index import Index

    try:
        with Index.open(folder) as made:  # read again: another writer may have filled it since
            return len(made) > 0
    except SkillRetrieverError:  # not readable as an index: nothing of anyone's is in it
        return False


def _index_into(index: Any, paths: list[Path], args: argparse.Namespace) -> int:
    from skill_retriever.calibration import ensure_calibration
    from skill_retriever.index_progress import (
        Calibrating,
        ProgressBars,
        run_timing,
        show_progress,
        timing_line,
    )
    from skill_retriever.indexing import index_sources
    from skill_retriever.json_text import dumps
    from skill_retriever.stores import run_marks

    bars = ProgressBars(show_progress(args, sys.stderr), sys.stderr)
    before = index.snapshot().nodes  # what each source held: its line says what changed
    started = time.perf_counter()
    try:
        run = index_sources(
            index, paths, args.kind, ner=not args.no_ner, progress_factory=bars.factory,
            source_name=args.source_name, prune=not args.keep_missing, calibrate=False,
            **({"max_file_bytes": args.max_file_bytes} if args.max_file_bytes is not None else {}),
        )
    finally:
        bars.close()
    # Calibrated here, not by index_sources, to time it apart: its probes are embedded too,
    # and a model that first loads then must show there, not under "the rest".
    calibrating = Calibrating(index.embedder)
    run.calibration = ensure_calibration(index)[0].summary(index.version)
    calibrating.done()
    timing = run_timing(run, time.perf_counter() - started)
    status = index.status()
    # A document file emptied is gone (its items removed): no error.
    empty = run.read_nothing
    error = None if not empty else _empty_error(empty, index.path, [s for s in run.sources if s.source in empty], before)
    if args.json:  # the reason too: a script reading stdout alone would see a run that read nothing
        print(printable_json(dumps({"run": {**run.to_dict(), "timing": timing}, "index": status,
                                    **({"error": error} if error else {})})))
    else:
        for s in run.sources:
            print(printable(s.summary(args.source_name)))
            if moved := run.moved.get(s.source):  # the source's recorded folder is this one now
                name = next((str(n.attrs.get("source_name")) for n in s.nodes), "")
                renamed = (f" (its file {file['from']} is now {file['to']})"  # a JSON graph's or a corpus's
                           if (file := moved.get("file")) and Path(file["from"]).name != Path(file["to"]).name else "")
                print(printable(f"  moved source {name} from {' and '.join(moved['from'])} to {moved['to']}{renamed}"))
            if changed := _changes_line(s, run, before):
                print(printable(f"  {changed}"))
            for line in s.problem_lines():
                print(printable(f"  {line}"))
            if earlier := run.completed.get(s.source):
                print(printable(f"  completed the run of it started {earlier.get('started', '?')} that did not finish"))
            if cut := run.edges_removed.get(s.source):
                print(f"  removed {cut} relation(s) its items no longer have")
            if gone := run.removed.get(s.source):
                # the relations touching them go too: said, or the edge count drops unexplained
                touching = run.edges_removed_with_items.get(s.source, 0)
                with_them = f"; and the {touching} relation(s) touching them" if touching else ""
                print(printable(f"  removed {len(gone)} item(s) the source no longer has: {_first(gone)}{with_them}"))
            if kept := run.kept.get(s.source):
                print(printable(f"  kept {len(kept)} item(s) whose file is gone (--keep-missing; indexing "
                                f"without it removes them): {_first(kept)}"))
        if run.cross_source is not None:  # after the sources: it resolves what they could not
            read = {n.id for s in run.sources for n in s.nodes}
            for line in run.cross_source.lines(read):
                print(printable(f"across sources: {line}"))
        copied = "".join(f"; {line}" for line in server_repairs(index.repaired))
        # The count holds relations' sentences too: say so, or it exceeds the items for no reason.
        split = f" ({run.embedded - e:,} item texts, {e:,} of relations)" if (e := run.embedded_edges) else ""
        print(printable(f"embedded {run.embedded} texts{split}{copied}; index {status['path']} holds {status['nodes']} nodes, {status['edges']} edges"))
        print(printable(timing_line(timing, run.embedded, calibrating)))
        # another source's run that was killed: this run neither completes it nor would
        # say so otherwise (its JSON has it in the index's status)
        if unfinished := run_marks.stats_line(status.get("unfinished_runs", {}), status["path"]):
            print(printable(f"warning: {unfinished}"), file=sys.stderr)
    if error:  # a wrong folder, or files of a kind it does not read: say so, exit non-zero
        print(printable(f"error: {error}"), file=sys.stderr)
        return 1
    return 0


def _first(ids: list[str]) -> str:
    """The first ids of a list, and how many more (a source may lose hundreds at once)."""
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def _empty_error(empty: list[str], index_dir: Path, results: list[IngestResult], held: Mapping[str, Node]) -> str:
    """Why a run that read no item from some sources exits 1, and what to do (with the
    command for the index at ``index_dir``); ``results``: what those sources gave (their
    problem lines, printed above, may say why); ``held``: the index's nodes before the run,
    whose sources read from these folders the advice names (a folder never indexed has
    nothing to take out)."""
    from skill_retriever.held_sources import held_sources

    said = any(r.problems for r in results)
    roots = {Path(source).resolve() for source in empty}
    names = [s.name for s in held_sources(held) if s.root in roots]
    if unread := _unread_why(results, bool(names)):  # the right folder, whose files could not be read
        return f"no items read from {', '.join(empty)}: {unread}"
    too_big = [p for r in results for p in r.problems if _TOO_BIG in p.message]
    if results and all(any(_TOO_BIG in p.message for p in r.problems) for r in results):
        # the right folder, whose files --max-file-bytes skipped: not one to give again nor to remove
        return (f"no items read from {', '.join(empty)}: {len(too_big)} file(s) over the --max-file-bytes "
                "limit were skipped (the lines above name them); raise the limit (index --max-file-bytes N) and "
                "index again; nothing of it was written or removed"
                + (", and what the index holds of it stays" if names else ""))
    if all(Path(source).is_file() for source in empty):  # remove-source would take out a whole folder
        why = ("the lines above say why" if said else
               "the file holds no items: a corpus.json lists passages, a JSON graph its nodes, a tool file its tools")
        return f"no items read from {', '.join(empty)}; nothing of it was written or removed ({why})"
    # what the index keeps of such a folder stays until taken out by its name
    out = " and ".join(f"`{command(['remove-source', name], index_dir)}`" for name in names)
    # a tool set's folder is the right kind of folder: its tools.jsonl's problems say why
    tool_sets = said and all((Path(source) / "tools.jsonl").is_file() for source in empty)
    return (
        f"no items read from {', '.join(empty)}; nothing of it was written or removed"
        + (" (the lines above say why)" if tool_sets else
           ". Give a folder of SKILL.md / agent / command / hook / .mcp.json files, a folder of "
           "documents (.md, .rst, .txt; --kind docs), a JSON graph, a tool folder or a "
           "corpus.json (--kind says which)")
        + (f"; to take out what the index holds of a source emptied on purpose, {out}" if names else "")
    )


def _unread_why(results: list[IngestResult], held: bool) -> str | None:
    """Why sources read no item when each has problems, every one a file or folder not
    read, and the system refused to read one (a marketplace.json or SKILL.md under chmod
    000, a folder it may not list): the first refused, and what to do. None otherwise.
    The advice to give a folder of SKILL.md files, and to remove the source as if emptied
    on purpose, was given for a folder of SKILL.md files this user may not read;
    ``held``: the index holds items of them, which stay."""
    from skill_retriever.ingest.result import Unread

    problems = [p for r in results for p in r.problems]
    if not all(r.problems for r in results) or any(p.keeps is Unread.NOTHING for p in problems):
        return None
    refused = [p for p in problems if any(words in p.message for words in _REFUSED)]
    if not refused:  # a file not valid JSON, of no items: its problem line says why
        return None
    return (f"{len(problems)} problem(s) above say what could not be read, the first refused {refused[0].path}: "
            f"{refused[0].message.split('; ')[0]}; make what they name readable by the user who indexes "
            "(or mend it, as each says) and index again; nothing of it was written or removed"
            + (", and what the index holds of it stays" if held else ""))


#: What a problem says of a file over ``--max-file-bytes`` (`ingest.skill_records`).
_TOO_BIG = "-byte limit"

#: What a problem says when the system refused to read a file or list a folder
#: (`ingest.skill_records.unreadable`, `ingest.walk`).
_REFUSED = ("cannot read: ", "cannot list folder: ")


def server_repairs(repaired: Mapping[str, int]) -> list[str]:
    """What the writer's sync changed on the Chroma server (``Index.repaired``): vectors
    copied there again, and entries deleted that the index does not hold (left by a delete
    that stopped before reaching the server, or added there by another program)."""
    done = []
    if copied := repaired.get("server"):
        done.append(f"copied {copied} vector(s) to the Chroma server again")
    if deleted := repaired.get("server_deleted"):
        done.append(f"deleted {deleted} entr{'y' if deleted == 1 else 'ies'} from the Chroma server that the index does not hold")
    return done


def _changes_line(s: IngestResult, run: IndexRun, before: Mapping[str, Node]) -> str | None:
    """What re-indexing a source the index held changed: ``3 new, 1 changed, 535
    unchanged; new: <ids>; changed: <ids>`` (the run is the README's check of what changed
    on disk, so it names what it counts). A renamed folder then reads as new items beside
    the removed ones, not as a removal alone. None for a source new to the index (its
    summary says all)."""
    names = {n.attrs.get("source_name") for n in s.nodes} - {None}
    if not any(n.id in before for n in s.nodes) and not any(b.attrs.get("source_name") in names for b in before.values()):
        return None
    from skill_retriever.source_moves import relocated

    writes = run.source_writes.get(s.source, [])
    counts = [sum(getattr(w, f"nodes_{what}") for w in writes) for what in ("added", "updated", "unchanged")]
    line = "{} new, {} changed, {} unchanged".format(*counts)
    if new := [n.id for n in s.nodes if n.id not in before]:
        line += f"; new: {_first(new)}"
    # what the write counted as updated: an item it held that is no longer equal
    moved = run.moved.get(s.source)  # an item moved with its folder is changed only if its text is
    held = {i: relocated(before[i], moved["to"], moved.get("file")) if moved else before[i] for i in (n.id for n in s.nodes) if i in before}
    if changed := [n.id for n in s.nodes if (old := held.get(n.id)) is not None and old != n]:
        line += f"; changed: {_first(changed)}"
    return line
