"""Run the benchmark sections in one process and write results as each one finishes.

Every section writes ``<out>/results/<key>.json`` (and, for retrieval sets, the ranked
ids per query in ``<key>.queries.json``) the moment it ends, and the report is rebuilt
from whatever results exist, so a long run that is stopped still leaves its finished
sections behind, and sections run separately merge into one report (which names the
sections kept from earlier runs). ``results/_run.json`` is written when the run starts, when
it ends and when Ctrl-C or an error stops it, so the report's header always says which.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from skill_retriever.bench.common import BenchOptions, BenchRun, write_json
from skill_retriever.bench.data_failures import DATA_ERRORS
from skill_retriever.bench.evaluate import broken_methods
from skill_retriever.bench.extras import require_all
from skill_retriever.bench.limits import DATA_LAYOUT_HELP
from skill_retriever.bench.machine import limit_threads
from skill_retriever.bench.report import load_results
from skill_retriever.bench.report_header import earlier_sections, section_name
from skill_retriever.bench.reuse import REUSABLE_SECTIONS
from skill_retriever.bench.sections import SECTIONS


def run(opts: BenchOptions) -> int:
    """Run the chosen sections (:data:`~skill_retriever.bench.sections.SECTIONS`).

    Returns:
        2 when a data section named in ``--only`` found no set to run, 1 when a section's
        checks failed (the battery), a method of ours failed on every query of a set
        (`evaluate.broken_methods`) or a bad data file failed a section or set
        (`data_failures`: the others still run), else 0.

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
        named = f"{', '.join(needing[:-1])} and {needing[-1]}" if len(needing) > 1 else ", ".join(needing)
        note = f"no data folder (give --data or place ../shared/data): {named} skipped"
        bench.skipped.append(note)
        log(note)
    found_nothing: list[str] = []
    run_file = opts.out / "results" / "_run.json"
    _say_earlier(bench)
    stamp = {**bench.stamp(), "sections": [s.name for s in chosen], "fresh": opts.fresh}
    del stamp["finished_at"], stamp["run_started_at"]
    stamp["started_at"] = bench.started_at  # the time each result names (`reuse`)
    write_json(run_file, {**stamp, "state": "running", "skipped": bench.skipped})
    current: str | None = None
    try:
        for section in chosen:
            if opts.quick and not section.quick:
                bench.skipped.append(f"{section.name} ({section.what}) is not part of --quick; run --only {section.name}")
                continue
            if section.needs_data and opts.data is None:
                continue
            bench.section = section.name
            if section.name in REUSABLE_SECTIONS and _reused(bench, section.name, section.embedder):
                continue
            t, before, failed, current = time.perf_counter(), bench.published, len(bench.failures), section.name
            try:
                section.run(bench)
            except DATA_ERRORS as exc:  # a bad data file: this section fails, the others run
                bench.record_failure(section.name, exc)
            current = None
            log(f"-- {section.name} done in {time.perf_counter() - t:.0f} s")
            if (opts.only is not None and section.needs_data and bench.published == before
                    and len(bench.failures) == failed):
                found_nothing.append(section.name)  # asked for by name: an empty run is no success
    except KeyboardInterrupt:
        _stopped(bench, stamp, current, round(time.perf_counter() - started, 1))
        raise
    except Exception as exc:  # said in the run file and the report, then raised as it was
        _failed(bench, stamp, current, round(time.perf_counter() - started, 1), exc)
        raise
    write_json(run_file, {
        **stamp, "state": "finished", "finished_at": _now(), "skipped": bench.skipped,
        "seconds": round(time.perf_counter() - started, 1), "failures": bench.failures, "reused": bench.reused,
    })
    bench.write_report()
    log(f"\nbenchmark finished in {time.perf_counter() - started:.0f} s; report: {opts.out / 'report.md'}")
    if bench.skipped:
        log("skipped: " + "; ".join(bench.skipped))
    _log_kept(bench)
    for f in bench.failures:
        log(f"failed: {f['set'] or f['section']}: {f['error']}")
    if found_nothing:
        log(f"error: --only {', '.join(found_nothing)} found no set to run under {opts.data} (the notes above say "
            f"what is missing); give --data the benchmark data folder ({DATA_LAYOUT_HELP})")
        return 2
    return 1 if bench.failed or bench.failures else 0


def _say_earlier(bench: BenchRun) -> None:
    """One line at the start on the results of earlier runs in ``--out``: those this run may
    reuse (`reuse`: measured with these options, code, package versions and models, each
    reused while its data files are unchanged), and that the report keeps the others. Two
    lines said this, overlapping (one naming every result, one those reusable)."""
    earlier = load_results(bench.opts.out)[0]
    if not earlier:
        return
    there = f"{bench.opts.out} holds {len(earlier)} section result(s) of earlier runs " \
            f"({', '.join(section_name(s) for s in earlier)})"
    kept = "the report keeps those it does not redo, and says which"
    inputs = "these options, code, packages and models"
    if bench.opts.fresh:
        bench.log(f"{there}; --fresh: none is reused, each this run includes is measured again; {kept}")
        return
    own = {s.name: s.embedder for s in SECTIONS}  # a section that embeds with its own model (scale)
    same = [section_name(s) for s in earlier if isinstance(s.get("inputs"), dict)
            and _but_data(s["inputs"]) == _but_data(bench.inputs(embedder=own.get(str(s.get("section"))),
                                                                 section=str(s.get("section"))))]
    if not same:
        bench.log(f"{there}; none was measured with {inputs}: each this run includes is measured again; {kept}")
    elif len(same) == len(earlier):
        bench.log(f"{there}, all measured with {inputs}: each this run includes is reused while its data files are "
                  f"unchanged (--fresh measures it again); {kept}")
    else:
        one = len(same) == 1
        bench.log(f"{there}; {len(same)} measured with {inputs} ({', '.join(same)}) {'is' if one else 'are'} reused "
                  f"where this run includes {'it' if one else 'them'} and {'its' if one else 'their'} data files are "
                  f"unchanged (--fresh measures {'it' if one else 'them'} again); the others this run includes are "
                  f"measured again; {kept}")


def _but_data(inputs: dict[str, Any]) -> dict[str, Any]:
    """A result's inputs less its data stamp (each set's own), as JSON reads them back."""
    return {k: v for k, v in json.loads(json.dumps(inputs)).items() if k != "data"}


def _reused(bench: BenchRun, name: str, embedder: str | None) -> bool:
    """A whole section reused (`reuse.REUSABLE_SECTIONS`), its failed checks or broken
    methods counted as if measured now (the exit status says them again)."""
    done = bench.reuse(name, companion=name == "incidents", embedder=embedder)
    if done is None:
        return False
    bench.failed = bench.failed or (name == "battery" and bool(done.get("failed")))
    if isinstance(done.get("methods"), dict):
        bench.fail_if_broken(broken_methods(done["methods"], int(done.get("queries") or 0)))
    return True


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _stopped(bench: BenchRun, stamp: dict[str, Any], during: str | None, seconds: float) -> None:
    """Ctrl-C: say so in ``_run.json`` and the report (whose header names the section it
    stopped in), then let the interrupt go on. The results of the sets that finished are
    written already; the set it was in wrote none (a cache entry it was building is taken
    back by `cached_index`)."""
    write_json(bench.opts.out / "results" / "_run.json", {
        **stamp, "state": "interrupted", "interrupted": {"during": during, "set": bench.current_set, "after_s": seconds},
        "skipped": bench.skipped, "seconds": seconds, "failures": bench.failures, "reused": bench.reused,
    })
    bench.write_report()
    bench.log(f"\nbenchmark interrupted{f' during {during}' if during else ''} after {seconds:.0f} s; "
              f"{bench.opts.out / 'report.md'} says so and keeps the sections that finished")
    _log_kept(bench)


def _failed(bench: BenchRun, stamp: dict[str, Any], during: str | None, seconds: float, exc: Exception) -> None:
    """An error stopped the run: say so in ``_run.json`` and the report, with the error, so
    neither reads "still running" (the run file's state when it started) for ever."""
    error = f"{type(exc).__name__}: {exc}"
    write_json(bench.opts.out / "results" / "_run.json", {
        **stamp, "state": "failed", "failed": {"during": during, "set": bench.current_set, "after_s": seconds, "error": error},
        "skipped": bench.skipped, "seconds": seconds, "failures": bench.failures, "reused": bench.reused,
    })
    bench.write_report()
    bench.log(f"\nbenchmark stopped by an error{f' during {during}' if during else ''} after {seconds:.0f} s; "
              f"{bench.opts.out / 'report.md'} says so and keeps the sections that finished")


def _log_kept(bench: BenchRun) -> None:
    """Name the sections of earlier runs the report merged with this run's."""
    sections, run = load_results(bench.opts.out)
    if kept := earlier_sections(run, sections):
        bench.log(f"kept {len(kept)} section(s) from earlier runs in this folder: {', '.join(kept)}")
