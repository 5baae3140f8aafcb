"""The ``multihop``, ``skills`` and ``toolret`` sections: our methods beside the peers on
the judged sets of the data folder (:mod:`~skill_retriever.bench.datasets`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from skill_retriever.bench import datasets as D
from skill_retriever.bench.common import FIXED_NOW, BenchRun, Result, write_json
from skill_retriever.bench.data_failures import DATA_ERRORS
from skill_retriever.bench.dropped_edges import dropped_edges, dropped_edges_note, set_edges_file
from skill_retriever.bench.dropped_tools import dropped_note, dropped_tools, set_tools_file
from skill_retriever.bench.evaluate import broken_methods, evaluate
from skill_retriever.bench.fit_rates import fit_rates, fit_sources
from skill_retriever.bench.latency import section_latency
from skill_retriever.bench.methods import (
    CHANNELS,
    defaults_methods,
    has_timestamps,
    our_methods,
    peer_methods,
)
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.config_profiles import PROFILES
from skill_retriever.stores.index import Index


def run_multihop(run: BenchRun) -> None:
    """Multi-hop passage retrieval (HippoRAG's sets)."""
    failed: list[tuple[str, Exception]] = []
    sets = D.multihop_sets(run.opts.data, quick=run.opts.quick, failed=failed)
    _record(run, "multihop", failed)
    _run_sets(run, *sets)


def run_skills(run: BenchRun) -> None:
    """Skills, agents and commands of real repositories, judged queries."""
    _run_sets(run, *D.skills_sets(run.opts.data, quick=run.opts.quick))


def run_toolret(run: BenchRun) -> None:
    """Tool retrieval (ToolRet sets)."""
    failed: list[tuple[str, Exception]] = []
    sets = D.toolret_sets(run.opts.data, quick=run.opts.quick, max_queries=run.opts.max_queries, failed=failed)
    _record(run, "toolret", failed)
    _run_sets(run, *sets)


def _record(run: BenchRun, family: str, failed: list[tuple[str, Exception]]) -> None:
    """The sets whose queries file did not load: failed, each on its own (`data_failures`)."""
    for name, exc in failed:
        run.current_set = name
        run.record_failure(family, exc)


def _run_sets(run: BenchRun, sets: list[D.Dataset], skipped: list[str]) -> None:
    for note in skipped:
        run.log(f"\n== {note}")
    run.skipped += skipped
    for ds in sets:
        if not any(q.relevant for q in ds.queries):  # every metric undefined: a published table of dashes
            note = (f"{ds.family}/{ds.name}: none of its {len(ds.queries)} queries names a relevant item, so nothing "
                    "can be scored; skipped")
            run.log(f"\n== {note}")
            run.skipped.append(note)
            continue
        if (done := run.reuse(ds.key, set_sources(run, ds), companion=True)) is not None:
            run.fail_if_broken(broken_methods(done["methods"], done["queries"]))
            continue
        run.current_set = f"{ds.family}/{ds.name}"  # left set when it stops: the report names it
        try:
            result = run_dataset(run, ds)
        except DATA_ERRORS as exc:  # its data is bad: the next set is measured all the same
            run.record_failure(ds.family, exc)
            continue
        run.publish(result)
        run.current_set = None


def set_sources(run: BenchRun, ds: D.Dataset) -> tuple[Path, ...]:
    """Every data file a set's figures read: its own and the fit rates'."""
    return (*ds.sources, *fit_sources(ds, run.opts.data))


def profiles_for(family: str) -> list[str]:
    """Named config profiles worth a row for this family (the multihop profile)."""
    return [family] if family in PROFILES and family != "design" else []


def run_dataset(run: BenchRun, ds: D.Dataset) -> Result:
    """Every method on one set; writes ``<key>.json`` and ``<key>.queries.json``."""
    started = time.perf_counter()
    run.log(f"\n== {ds.family} / {ds.name}: {len(ds.queries)} queries")
    for note in ds.notes:
        run.log(f"  {note}")
    index, info = D.cached_index(run.opts.cache, ds.key, ds.fingerprint, ds.ingest, run.memo(), run.log)
    try:  # a set that fails (`data_failures`) leaves its index closed for the next set's
        return _measure(run, ds, index, info, started)
    finally:
        index.close()


def _measure(run: BenchRun, ds: D.Dataset, index: Index, info: D.BuildInfo, started: float) -> Result:
    """:func:`run_dataset` over the set's opened index."""
    retriever = run.retriever(index)
    dated = has_timestamps(index)
    ablate = [c for c in CHANNELS if c != "temporal" or dated]
    notes = list(ds.notes)
    # What the index suggested for itself and why (the route a catalogue takes, with the
    # share of workflow edges or the median cosine of its edges' ends that decided it):
    # calibration.defaults.
    notes.append(f"defaults: {'; '.join(index_defaults(index.snapshot()).reasons)}")
    if not dated:
        notes.append("no item carries a timestamp: the temporal channel is silent, its ablation is skipped")
    dropped = None
    if (tools := set_tools_file(ds.family, ds.sources)) is not None and (
            dropped := dropped_tools(tools, len(index), info.problems)) is not None:
        notes.append(dropped_note(dropped))
        run.log(f"  {notes[-1]}")
    lost = None
    if (edges := set_edges_file(ds.family, ds.sources)) is not None and (
            lost := dropped_edges(edges, info.problems, info.problem_counts)) is not None:
        notes.append(dropped_edges_note(lost))
        run.log(f"  {notes[-1]}")
    if unindexed := unindexed_note(ds.queries, index.snapshot().nodes):
        notes.append(unindexed)
        run.log(f"  {unindexed}")
    profiles = profiles_for(ds.family)
    if profiles:
        notes.append(f"'full [{profiles[0]}]' uses the {profiles[0]!r} config profile (tuned by the project "
                     "on the *_hipporag_train100 sets: in-sample there)")
    fetch, fold = folding(ds, run.opts.k)
    methods = peer_methods(index, ds.kinds, fetch) + our_methods(
        retriever, ds.kinds, fetch, ablate=ablate, profiles=profiles)
    methods += defaults_methods(ds.family, retriever, ds.kinds, fetch)
    summary, per_query = evaluate(ds.queries, methods, ds.metrics, run.log, fold=fold)
    run.fail_if_broken(broken_methods(summary, len(ds.queries)))
    fit = fit_rates(retriever, ds, run.opts.data)
    run.log(f"  nothing-fits flag rates (default search): {fit}")
    # Out of the box: the default reranker, not the bench retriever's explicit one (kept
    # for the "full+rerank" rows). On catalogues the forced smart route is timed beside it:
    # the route most catalogues take (calibration.defaults).
    forced = ("smart",) if ds.family in ("skills", "toolret") else ()
    latency = section_latency(run, index, [q.text for q in ds.queries if q.relevant], ds.kinds, FIXED_NOW, forced)
    reranker = retriever.reranker
    result: Result = {
        "section": ds.family, "family": ds.family, "name": ds.name, "key": ds.key,
        "metrics": list(ds.metrics), "queries": len(ds.queries), "kinds": ds.kinds,
        "notes": notes, "build": info.to_dict(), "reranker": reranker.name if reranker else None,
        "methods": summary, "fit": fit, "latency": latency, "seconds": round(time.perf_counter() - started, 1),
        **({"dropped_tools": dropped} if dropped else {}), **({"dropped_edges": lost} if lost else {}),
        **run.stamp(),
        "inputs": run.inputs(set_sources(run, ds)),
    }
    # The result last: a set is written in full once it is there (`reuse`).
    write_json(run.results / f"{ds.key}.queries.json", per_query)
    write_json(run.results / f"{ds.key}.json", result)
    return result


def folding(ds: D.Dataset, k: int) -> tuple[int, Callable[[Sequence[str]], list[str]] | None]:
    """How many results each method is asked for, and what its ranking is scored as. A
    set whose items fold into the judged ones (`Dataset.fold`: a file's sections into the
    file) asks for `D.FOLD_FETCH_TIMES` as many and keeps the first ``k`` after folding,
    as ``query`` refills to ``k`` components: ``k`` ranked sections of three files would
    otherwise score as an answer of three."""
    if ds.fold is None:
        return k, None
    fold = ds.fold
    return k * D.FOLD_FETCH_TIMES, lambda ids: fold(ids)[:k]


def unindexed_note(queries: Sequence[D.EvalQuery], nodes: Mapping[str, object]) -> str | None:
    """Which judged items the index does not hold (a file that did not ingest, a gold id
    the corpus lacks): each is scored a miss by every method, so the set's figures are
    lower than the methods' own doing and the report says so. None when all are there."""
    missing = sorted({i for q in queries for i in q.relevant if i not in nodes})
    if not missing:
        return None
    hit = sum(1 for q in queries if any(i not in nodes for i in q.relevant))
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    return (f"{len(missing)} judged item(s) of {hit} quer{'y' if hit == 1 else 'ies'} are not in the index "
            f"and count as misses for every method: {shown}")
