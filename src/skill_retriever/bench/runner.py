"""Run the benchmark sections in one process and write results as each one finishes.

Every section writes ``<out>/results/<key>.json`` (and, for retrieval sets, the ranked
ids per query in ``<key>.queries.json``) the moment it ends, and the report is rebuilt
from whatever results exist, so a long run that is stopped still leaves its finished
sections behind, and sections run separately merge into one report.
"""

from __future__ import annotations

import time

from skill_retriever.bench.common import BenchOptions, BenchRun, write_json
from skill_retriever.bench.extras import require_all
from skill_retriever.bench.machine import limit_threads
from skill_retriever.bench.sections import SECTIONS


def run(opts: BenchOptions) -> int:
    """Run the chosen sections (:data:`~skill_retriever.bench.sections.SECTIONS`).

    Returns:
        2 when a data section named in ``--only`` found no set to run, 1 when a section's
        checks failed (the battery) or a method of ours failed on every query of a set
        (`evaluate.broken_methods`), else 0.

    Raises:
        BenchExtraMissing: the ``bench`` extra is not installed (before any work).
    """
    require_all()
    threads = limit_threads()
    started = time.perf_counter()
    chosen = [s for s in SECTIONS if opts.only is None or s.name in opts.only]
    bench = BenchRun(opts, threads)
    log = opts.log
    log(f"skill-retriever benchmark: {'quick' if opts.quick else 'full'} profile, sections "
        f"{', '.join(s.name for s in chosen)}; out {opts.out}; data {opts.data or 'none'}")
    log(f"machine: {bench.machine['cpu']}, {bench.machine['cores']} cores, load {bench.machine['load_avg_at_start']}; {threads}")
    if opts.data is None:
        needing = [s.name for s in SECTIONS if s.needs_data]
        note = (f"no data folder (give --data or place ../shared/data): {', '.join(needing[:-1])} and "
                f"{needing[-1]} skipped")
        bench.skipped.append(note)
        log(note)
    found_nothing: list[str] = []
    for section in chosen:
        if opts.quick and not section.quick:
            bench.skipped.append(f"{section.name} ({section.what}) is not part of --quick; run --only {section.name}")
            continue
        if section.needs_data and opts.data is None:
            continue
        t, before = time.perf_counter(), bench.published
        section.run(bench)
        log(f"-- {section.name} done in {time.perf_counter() - t:.0f} s")
        if opts.only is not None and section.needs_data and bench.published == before:
            found_nothing.append(section.name)  # asked for by name: an empty run is no success
    write_json(opts.out / "results" / "_run.json", {
        **bench.stamp(), "sections": [s.name for s in chosen], "skipped": bench.skipped,
        "seconds": round(time.perf_counter() - started, 1),
    })
    bench.write_report()
    log(f"\nbenchmark finished in {time.perf_counter() - started:.0f} s; report: {opts.out / 'report.md'}")
    if bench.skipped:
        log("skipped: " + "; ".join(bench.skipped))
    if found_nothing:
        log(f"error: --only {', '.join(found_nothing)} found no set to run under {opts.data} (the notes above say "
            "what is missing); give --data the benchmark data folder")
        return 2
    return 1 if bench.failed else 0

