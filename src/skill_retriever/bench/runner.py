"""Run the benchmark sections in one process and write results as each one finishes.

Every section writes ``<out>/results/<key>.json`` (and, for retrieval sets, the ranked
ids per query in ``<key>.queries.json``) the moment it ends, and the report is rebuilt
from whatever results exist, so a long run that is stopped still leaves its finished
sections behind, and sections run separately merge into one report.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SECTIONS = ("battery", "incidents", "skills", "toolret", "multihop", "speed", "scale")
#: Every dated retrieval in the benchmark sees the same clock.
FIXED_NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@dataclass
class BenchOptions:
    out: Path
    data: Path | None
    cache: Path
    quick: bool = False
    only: tuple[str, ...] = SECTIONS
    max_queries: int = 1000
    k: int = 10
    command: str = ""
    log: Callable[[str], None] = field(default=print)


def limit_threads() -> str:
    """Single-threaded BLAS (DESIGN.md: on 2 cores numpy's and torch's pools fight; a dense
    query took 32-44 ms with defaults, 12 ms with OPENBLAS_NUM_THREADS=1). Set before numpy
    loads when possible, else through threadpoolctl. Returns what was done."""
    env = os.environ.get("OPENBLAS_NUM_THREADS")
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        return f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']} (set before numpy loaded)"
    if env == "1":
        return "OPENBLAS_NUM_THREADS=1 (set before numpy loaded)"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1, user_api="blas")
        return "BLAS limited to 1 thread with threadpoolctl (numpy was loaded first)"
    except ImportError:
        return "numpy was loaded before the benchmark; BLAS threads left as they were"


def code_version() -> dict[str, Any]:
    """The git commit of the package's checkout and whether it had local changes (read-only)."""
    import subprocess

    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=False).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {"commit": None}
    return {"commit": commit or None, "local_changes": bool(dirty)}


def machine_info(threads: str) -> dict[str, Any]:
    import psutil

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import torch

        torch_threads = torch.get_num_threads()
    except ImportError:  # pragma: no cover
        torch_threads = None
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": cpu or platform.processor(),
        "cores": os.cpu_count(),
        "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "load_avg_at_start": [round(x, 2) for x in os.getloadavg()],
        "threads": threads,
        "torch_threads": torch_threads,
    }


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, default=str, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


class Bench:
    """One benchmark run: shared model, reranker and output folder."""

    def __init__(self, opts: BenchOptions, threads: str) -> None:
        from skill_retriever.stores.embedder import SentenceTransformerEmbedder

        threads += f"; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'default')}"
        self.opts = opts
        self.log = opts.log
        self.results = opts.out / "results"
        self.results.mkdir(parents=True, exist_ok=True)
        self.embedder = SentenceTransformerEmbedder()
        self.machine = machine_info(threads)
        self.code = code_version()
        self._cross_encoder: Any = None
        self._probed = False
        self.skipped: list[str] = []
        self._incident_world: Any = None
        self.failed = False

    def stamp(self) -> dict[str, Any]:
        return {"command": self.opts.command, "quick": self.opts.quick, "machine": self.machine, "code": self.code,
                "finished_at": datetime.now(UTC).isoformat(timespec="seconds")}

    def reranker(self, embedder: Any) -> Any:
        """The cross-encoder if one loads offline (probed once), else the embedding fallback."""
        from skill_retriever.rerank import CrossEncoderReranker, EmbeddingReranker, default_reranker

        if not self._probed:
            self._probed = True
            found = default_reranker()
            self._cross_encoder = found if isinstance(found, CrossEncoderReranker) else None
        return self._cross_encoder or EmbeddingReranker(embedder)

    def retriever(self, index: Any) -> Any:
        """A Retriever over ``index`` (opened with a :class:`MemoEmbedder`, see
        :meth:`memo_for`), with the fixed clock and no answer cache."""
        from skill_retriever.config import RetrievalConfig
        from skill_retriever.retriever import Retriever

        memo = index.embedder
        # The fallback reranker embeds each candidate's full text in windows of 180 words;
        # a text that short is one window, the very text embedded at indexing, so its
        # vector is known already.
        snap = index.snapshot()
        gm, emb, nodes = snap.graph, snap.embeddings, snap.nodes
        short = [(nodes[i].embedding_text(), row) for row, i in enumerate(gm.ids)
                 if len(nodes[i].embedding_text().split()) <= 180]
        if short and hasattr(memo, "seed"):
            memo.seed([t for t, _ in short], emb[[r for _, r in short]])
        return Retriever(index, RetrievalConfig(now=FIXED_NOW), reranker=self.reranker(memo), cache_size=0)

    def memo(self) -> Any:
        """The real model behind a memo of its vectors (quality runs only)."""
        from skill_retriever.bench.embedding import MemoEmbedder

        return MemoEmbedder(self.embedder)

    # -- retrieval sets --------------------------------------------------------------
    def run_dataset(self, ds: Any) -> dict[str, Any]:
        from skill_retriever.bench.datasets import cached_index
        from skill_retriever.bench.evaluate import evaluate
        from skill_retriever.bench.methods import (
            CHANNELS,
            has_timestamps,
            our_methods,
            peer_methods,
        )

        started = time.perf_counter()
        self.log(f"\n== {ds.family} / {ds.name}: {len(ds.queries)} queries")
        for note in ds.notes:
            self.log(f"  {note}")
        index, info = cached_index(self.opts.cache, ds.key, ds.fingerprint, ds.ingest, self.memo(), self.log)
        retriever = self.retriever(index)
        dated = has_timestamps(index)
        ablate = [c for c in CHANNELS if c != "temporal" or dated]
        notes = list(ds.notes)
        if not dated:
            notes.append("no item carries a timestamp: the temporal channel is silent, its ablation is skipped")
        profiles = self.profiles_for(ds.family)
        if profiles:
            notes.append(f"'full [{profiles[0]}]' uses the {profiles[0]!r} config profile (tuned by the project "
                         "on the *_hipporag_train100 sets: in-sample there)")
        methods = peer_methods(index, ds.kinds, self.opts.k) + our_methods(
            retriever, ds.kinds, self.opts.k, ablate=ablate, profiles=profiles)
        summary, per_query = evaluate(ds.queries, methods, ds.metrics, self.log)
        result = {
            "section": ds.family, "family": ds.family, "name": ds.name, "key": ds.key,
            "metrics": list(ds.metrics), "queries": len(ds.queries), "kinds": ds.kinds,
            "notes": notes, "build": info.to_dict(), "reranker": retriever.reranker.name,
            "methods": summary, "seconds": round(time.perf_counter() - started, 1), **self.stamp(),
        }
        write_json(self.results / f"{ds.key}.json", result)
        write_json(self.results / f"{ds.key}.queries.json", per_query)
        index.close()
        return result

    @staticmethod
    def profiles_for(family: str) -> list[str]:
        """Named config profiles worth a row for this family (the multihop profile)."""
        from skill_retriever.config import PROFILES

        return [family] if family in PROFILES and family != "design" else []

    def run_family(self, family: str) -> None:
        from skill_retriever.bench import datasets as D

        if family == "multihop":
            sets, skipped = D.multihop_sets(self.opts.data, quick=self.opts.quick)
        elif family == "skills":
            sets, skipped = D.skills_sets(self.opts.data, quick=self.opts.quick)
        else:
            sets, skipped = D.toolret_sets(self.opts.data, quick=self.opts.quick, max_queries=self.opts.max_queries)
        for note in skipped:
            self.log(f"\n== {note}")
        self.skipped += skipped
        for ds in sets:
            result = self.run_dataset(ds)
            self.report(result)

    def report(self, section: dict[str, Any] | None = None) -> None:
        from skill_retriever.bench import report

        if section is not None:
            self.log(report.section_text(section))
        report.write_report(self.opts.out, self.log)


def run(opts: BenchOptions) -> int:
    """Run the chosen sections; 1 when the battery has a FAIL, else 0."""
    threads = limit_threads()
    started = time.perf_counter()
    bench = Bench(opts, threads)
    log = opts.log
    log(f"skill-retriever benchmark: {'quick' if opts.quick else 'full'} profile, sections "
        f"{', '.join(s for s in SECTIONS if s in opts.only)}; out {opts.out}; data {opts.data or 'none'}")
    log(f"machine: {bench.machine['cpu']}, {bench.machine['cores']} cores, load {bench.machine['load_avg_at_start']}; {threads}")
    if opts.data is None:
        note = "no data folder (give --data or place ../shared/data): multihop, skills and toolret skipped"
        bench.skipped.append(note)
        log(note)
    for section in SECTIONS:
        if section not in opts.only:
            continue
        t = time.perf_counter()
        if section == "battery":
            from skill_retriever.bench.battery import run_battery

            result = run_battery(bench)
            bench.failed = bench.failed or result["failed"] > 0
            bench.report(result)
        elif section == "incidents":
            from skill_retriever.bench.incidents import run_incidents

            bench.report(run_incidents(bench))
        elif section == "speed":
            from skill_retriever.bench.speed import run_speed

            bench.report(run_speed(bench))
        elif section == "scale":
            if opts.quick:
                bench.skipped.append("scale (100k nodes / 1M edges) is not part of --quick; run --only scale")
                continue
            from skill_retriever.bench.million_edges import run_scale

            bench.report(run_scale(bench))
        elif opts.data is not None:
            bench.run_family(section)
        log(f"-- {section} done in {time.perf_counter() - t:.0f} s")
    write_json(opts.out / "results" / "_run.json", {
        **bench.stamp(), "sections": [s for s in SECTIONS if s in opts.only], "skipped": bench.skipped,
        "seconds": round(time.perf_counter() - started, 1),
    })
    bench.report()
    log(f"\nbenchmark finished in {time.perf_counter() - started:.0f} s; report: {opts.out / 'report.md'}")
    if bench.skipped:
        log("skipped: " + "; ".join(bench.skipped))
    return 1 if bench.failed else 0
