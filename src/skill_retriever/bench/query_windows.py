"""The time window the retriever reads in each benchmark query: the check that a change to
the time rules (`algorithms.temporal` and the modules it reads) changes only the windows it
should, on every query the benchmark has.

Usage: python -m skill_retriever.bench.query_windows [--data DATA] [--now ISO] [--all-days]
    [--out FILE] [--compare OLD_FILE]

It reads the query sets of the data folder (``--data``, else ``$SKILL_RETRIEVER_DATA``, else
``../shared/data``, as ``skill-retriever benchmark`` finds it): ``skills`` (its
``queries/dev.jsonl``, once for each of the benchmark's two sets over it, ``dev`` and
``dev-as-documents``), every ``toolret`` and ``multihop`` set, each with every query of its
file (all splits, no sample: the benchmark measures a seeded sample of the larger ones, and
the more queries read, the more phrasings checked), and the generated incident world's
queries (``incidents/world``, as ``benchmark --only incidents`` makes them). For every query
it writes ``<set>\\t<query id>\\t<window>`` in the order read, to ``--out`` (default stdout):
the window `querytext.search_text_of` finds in it, as the retriever does (the query cleaned,
a stack trace condensed, its first ``plan_query_chars`` read by `temporal.parse_time_window`),
with ``now`` fixed (``--now``, default the benchmark's own `common.FIXED_NOW`, so that two
runs compare) and ``days`` as the benchmark's index of that set decides it: True only where
an item carries a date (`dated_items.carries_dates`; in the data of 2026-12 only the incident
world's; ``--all-days``: every set as if they did, so that a change to the rules read with days,
a day of a month, "on Monday", is checked on every query, not only the world's 125). The window reads ``<start>..<end> "<phrase>"`` (ISO 8601, ``-`` for an open bound),
``none`` when there is none, ``refused: <why>`` for a query the search refuses. A query id
that its set repeats, or a query with none, is its place in its file (``#12``). Nothing is
embedded and no model is loaded; each set's catalogue is ingested only to see whether its
items carry dates (passages without spaCy). To stderr: each set's queries, windows and
``days``, one digest of all the lines, the seconds, and which ``skill_retriever`` read them.
``--compare OLD_FILE`` then says, on stderr, which queries were added or removed and which
windows changed (how many, and up to 20 of each, old and new) and exits 1 if any, else 0.

Before and after a change, with the code of another checkout (``-P`` keeps this file's
folder off ``sys.path``)::

    PYTHONPATH=OLD/src python -P src/skill_retriever/bench/query_windows.py --out old.tsv
    python -m skill_retriever.bench.query_windows --compare old.tsv --out new.tsv
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from skill_retriever.algorithms.temporal import TimeWindow
    from skill_retriever.model import Node

#: How many queries of each change are named.
SHOWN = 20


class QuerySet(NamedTuple):
    """One set's queries as ``(id, text)``, and whether its items carry dates."""

    name: str
    queries: list[tuple[str, str]]
    dated: bool


def keyed(pairs: Iterable[tuple[str | None, str]]) -> list[tuple[str, str]]:
    """``(id, text)`` pairs with each id the set repeats, or lacks, written as its place
    (``#3``): a line of the output is found again by its set and id."""
    pairs = list(pairs)
    seen: dict[str, int] = {}
    for query_id, _ in pairs:
        if query_id:
            seen[query_id] = seen.get(query_id, 0) + 1
    return [(query_id if query_id and seen[query_id] == 1 else f"#{n}", text)
            for n, (query_id, text) in enumerate(pairs)]


def carries_dates(nodes: Iterable[Node]) -> bool:
    """Whether any item carries a created or updated time: the benchmark's index of the set
    then reads days of a month as windows (``days=True``)."""
    return any(n.last_changed is not None for n in nodes)


def query_sets(data: Path) -> tuple[list[QuerySet], list[str]]:
    """Every query set of ``data`` the benchmark reads, and the loaders' skip notes.

    Raises:
        IngestError: A queries file cannot be read (its file and line named).
    """
    from skill_retriever.bench import datasets as D
    from skill_retriever.ingest.passages import ingest_passages
    from skill_retriever.ingest.toolret import load_toolret_queries

    sets: list[QuerySet] = []
    with tempfile.TemporaryDirectory(prefix="query-windows-") as tmp:  # what a set's ingest may write
        work = Path(tmp)
        skills, skipped = D.skills_sets(data)
        for ds in skills:
            sets.append(QuerySet(ds.key.replace("__", "/"), keyed((q.id, q.text) for q in ds.queries),
                                 carries_dates(ds.ingest(work).nodes)))
        toolret, notes = D.toolret_sets(data, max_queries=sys.maxsize)
        skipped += notes
        for ds in toolret:
            every = load_toolret_queries(ds.sources[0])  # every split, where the benchmark reads the test ones
            sets.append(QuerySet(ds.key.replace("__", "/"), keyed((q.id, q.query) for q in every),
                                 carries_dates(ds.ingest(work).nodes)))
    multihop, notes = D.multihop_sets(data)
    skipped += notes
    for ds in multihop:
        corpus = ds.sources[0]  # dates only: no spaCy, no facts
        read = ingest_passages(corpus, nlp=False, facts=False, synonyms=False)
        sets.append(QuerySet(ds.key.replace("__", "/"), keyed((q.id, q.text) for q in ds.queries),
                             carries_dates(read.nodes)))
    sets.append(incident_queries())
    return sets, skipped


def incident_queries() -> QuerySet:
    """The incident world's queries, as ``benchmark --only incidents`` generates them."""
    from skill_retriever.bench.common import FIXED_NOW
    from skill_retriever.bench.world import generate_world, world_params
    from skill_retriever.bench.world_queries import generate_queries

    world = generate_world(**world_params(False), now=FIXED_NOW)
    queries = generate_queries(world, per_shape=25)  # the incidents section's, outside --quick
    return QuerySet("incidents/world", keyed((q.id, q.text) for q in queries), carries_dates(world.nodes))


def window_words(window: TimeWindow | None) -> str:
    """A window as one field: ``<start>..<end> "<phrase>"``, or ``none``."""
    if window is None:
        return "none"
    start, end = (b.isoformat() if b is not None else "-" for b in (window.start, window.end))
    return f"{start}..{end} {json.dumps(window.phrase, ensure_ascii=False)}"


def windows(sets: list[QuerySet], now: datetime) -> dict[tuple[str, str], str]:
    """``{(set, id): window}`` of every query, read as the retriever reads it at ``now``."""
    from skill_retriever.config import RetrievalConfig
    from skill_retriever.exceptions import QueryError
    from skill_retriever.querytext import clean_query, search_text_of

    config = RetrievalConfig(now=now)
    out: dict[tuple[str, str], str] = {}
    for qs in sets:
        for query_id, text in qs.queries:
            try:
                window = search_text_of(clean_query(text, config.max_query_chars), config, qs.dated)[1]
            except QueryError as exc:  # the search refuses it: no window is read either
                out[qs.name, query_id] = f"refused: {str(exc)[:80]}"
                continue
            out[qs.name, query_id] = window_words(window)
    return out


def lines(found: dict[tuple[str, str], str]) -> str:
    """The ``<set>\\t<id>\\t<window>`` lines, in the order read."""
    return "".join(f"{name}\t{query_id}\t{window}\n" for (name, query_id), window in found.items())


def digest(found: dict[tuple[str, str], str]) -> str:
    """One sha256 of all the lines: equal digests, equal windows."""
    return hashlib.sha256(lines(found).encode("utf-8", "surrogatepass")).hexdigest()


def read_windows(path: Path) -> dict[tuple[str, str], str]:
    """The ``{(set, id): window}`` of a file this command wrote.

    Raises:
        ValueError: A line that is no ``<set>\\t<id>\\t<window>``, naming it.
    """
    found = {}
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="surrogateescape").splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 3 or not all(parts):
            raise ValueError(f"{path}:{number} is no '<set>\\t<id>\\t<window>' line of this command: {line[:80]!r}")
        found[parts[0], parts[1]] = parts[2]
    return found


def compare(old: dict[tuple[str, str], str], new: dict[tuple[str, str], str]) -> list[str]:
    """The queries added and removed and the windows changed from ``old`` to ``new``: a line
    of counts, then up to `SHOWN` of each (a change with its old and new window); empty
    when they are the same."""
    changes = {
        "added": [f"{s} {i}: {new[s, i]}" for s, i in new if (s, i) not in old],
        "removed": [f"{s} {i}: {old[s, i]}" for s, i in old if (s, i) not in new],
        "changed": [f"{s} {i}: {old[s, i]} -> {new[s, i]}" for s, i in new if (s, i) in old and old[s, i] != new[s, i]],
    }
    if not any(changes.values()):
        return []
    out = [", ".join(f"{what} {len(found)}" for what, found in changes.items()) + f" (of {len(old)} queries before)"]
    for what, found in changes.items():
        out += [f"{what}: {line}" for line in found[:SHOWN]]
        if len(found) > SHOWN:
            out.append(f"{what}: ... and {len(found) - SHOWN} more")
    return out


def summary(sets: list[QuerySet], found: dict[tuple[str, str], str], seconds: float) -> str:
    """Each set's queries, windows and ``days``, the totals and the digest."""
    import skill_retriever

    read = {qs.name: sum(1 for q, _ in qs.queries if not found[qs.name, q].startswith(("none", "refused")))
            for qs in sets}
    each = "; ".join(f"{qs.name} {len(qs.queries)} ({read[qs.name]} windows{', days' if qs.dated else ''})"
                     for qs in sets)
    return (f"{each}\nsets {len(sets)}, queries {len(found)}, windows {sum(read.values())}, digest {digest(found)}, "
            f"{seconds:.1f} s (skill_retriever from {Path(skill_retriever.__file__).parent})")


def _instant(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is no ISO 8601 time, e.g. 2026-12-02T15:00Z") from exc
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _existing(text: str) -> Path:
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text} does not exist")
    return path


def cli(argv: list[str] | None = None) -> None:
    """The command line; no data folder, or a queries file that cannot be read, is a
    one-line error (exit 2); a difference from ``--compare`` exits 1."""
    from skill_retriever.bench.common import FIXED_NOW
    from skill_retriever.bench.datasets import default_data_dir
    from skill_retriever.exceptions import IngestError

    parser = argparse.ArgumentParser(prog="python -m skill_retriever.bench.query_windows",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=_existing, default=None,
                        help="benchmark data folder (default: $SKILL_RETRIEVER_DATA, else ../shared/data)")
    parser.add_argument("--now", type=_instant, default=FIXED_NOW, metavar="ISO",
                        help=f"the time the windows are read at (default the benchmark's, {FIXED_NOW.isoformat()})")
    parser.add_argument("--all-days", action="store_true",
                        help="read every set as if its items carried dates (days=True), not only the dated ones")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the lines here (default stdout)")
    parser.add_argument("--compare", type=_existing, default=None, metavar="OLD_FILE",
                        help="a file of an earlier run: say what differs, exit 1 if anything does")
    args = parser.parse_args(argv)
    data = args.data if args.data is not None else default_data_dir()
    if data is None or not data.is_dir():
        parser.error(f"no data folder {data or '(no --data, $SKILL_RETRIEVER_DATA or ../shared/data)'}")
    start = time.perf_counter()
    try:
        old = read_windows(args.compare) if args.compare is not None else None
        sets, skipped = query_sets(data)
    except (IngestError, ValueError) as exc:
        parser.error(str(exc))
    if args.all_days:
        sets = [qs._replace(dated=True) for qs in sets]
    found = windows(sets, args.now)
    if args.out is None:
        sys.stdout.write(lines(found))
    else:
        args.out.write_text(lines(found), encoding="utf-8", errors="surrogateescape")
    print("\n".join([*skipped, summary(sets, found, time.perf_counter() - start)]), file=sys.stderr)
    if old is not None:
        differences = compare(old, found)
        print("\n".join(differences) or f"identical to {args.compare}", file=sys.stderr)
        if differences:
            raise SystemExit(1)


if __name__ == "__main__":
    cli(sys.argv[1:])
