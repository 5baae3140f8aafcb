"""What every benchmark section receives: the options, the clock, and one typed run.

A section is a function ``(run: BenchRun) -> None`` (listed in
:mod:`~skill_retriever.bench.sections`). It reads the options from ``run.opts``, builds
indexes with the shared embedding model, writes ``<out>/results/<key>.json`` with
:func:`write_json` the moment it has a result, and hands the result to
:meth:`BenchRun.publish`, which prints its table and rebuilds the report. What two
sections share (the incident world's index) comes from a cached method of the run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from skill_retriever.bench import report, reuse
from skill_retriever.bench.embedding import MemoEmbedder
from skill_retriever.bench.index_cache import BuildInfo, cached_index
from skill_retriever.bench.limits import DEFAULT_MAX_QUERIES
from skill_retriever.bench.machine import code_version, machine_info
from skill_retriever.bench.world import (
    GENERATOR_VERSION,
    WORLD_SEED,
    World,
    generate_world,
    world_params,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.fsutil import write_atomic
from skill_retriever.rerank import (
    CrossEncoderReranker,
    EmbeddingReranker,
    Reranker,
    default_reranker,
)
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import Embedder, SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

#: Every dated retrieval in the benchmark sees the same clock.
FIXED_NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

#: One section's (or one data set's) result, as written to ``results/<key>.json``.
Result = dict[str, Any]


@dataclass
class BenchOptions:
    """What ``skill-retriever benchmark`` was asked to do.

    Attributes:
        out: The output folder (results, report, plots).
        data: The benchmark data folder; None runs only what needs no data.
        cache: Where built indexes are kept between runs.
        quick: The small profile (``--quick``).
        only: The sections to run; None for every section.
        max_queries: Seeded sample size for larger query sets.
        k: Results per query.
        command: The command line, stamped on every result.
        log: Where progress lines go.
        embedder: The embedding model of every index built (a sentence-transformers name
            or folder); None for the bundled MiniLM, the default every README figure uses.
        world_seed: The seed of the incident world (the battery's and ``incidents``').
        fresh: Measure everything, reusing no result of an earlier run (`reuse`).
    """

    out: Path
    data: Path | None
    cache: Path
    quick: bool = False
    only: tuple[str, ...] | None = None
    max_queries: int = DEFAULT_MAX_QUERIES
    k: int = 10
    command: str = ""
    log: Callable[[str], None] = field(default=print)
    embedder: str | None = None
    world_seed: int = WORLD_SEED
    fresh: bool = False


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (a stopped run never leaves half a result)."""
    write_atomic(path, json.dumps(data, indent=1, default=str, ensure_ascii=False))


@dataclass(frozen=True)
class IncidentWorld:
    """The incident world with its index and retriever, built once per run."""

    world: World
    index: Index
    retriever: Retriever
    build: BuildInfo


class BenchRun:
    """One benchmark run: options, the shared model, the reranker and the output folder.

    Args:
        opts: The options.
        threads: How BLAS threads were limited (:func:`~skill_retriever.bench.machine.limit_threads`).
    """

    def __init__(self, opts: BenchOptions, threads: str) -> None:
        threads += f"; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'default')}"
        self.opts = opts
        self.log = opts.log
        self.results = opts.out / "results"
        self.results.mkdir(parents=True, exist_ok=True)
        self.embedder = SentenceTransformerEmbedder(opts.embedder) if opts.embedder else SentenceTransformerEmbedder()
        self.machine = machine_info(threads)
        self.code = code_version()
        #: Notes on what was not run, printed at the end and kept in ``_run.json``.
        self.skipped: list[str] = []
        #: Set by a section whose checks failed; the command then exits 1.
        self.failed = False
        #: Results published so far (a data section that found no set publishes none).
        self.published = 0
        #: The section running (`sections`): a result's inputs hold the options it reads.
        self.section: str | None = None
        #: The set being measured (``family/name``), for the header of a run stopped in it.
        self.current_set: str | None = None
        #: Sections and sets a bad data file stopped (`data_failures`); the command then exits 1.
        self.failures: list[dict[str, Any]] = []
        #: When this run started: each result names it, so a later run reusing it says which run measured it.
        self.started_at = datetime.now(UTC).isoformat(timespec="seconds")
        #: The results of earlier runs reused instead of measured (`reuse`), one entry each.
        self.reused: list[dict[str, Any]] = []
        self._cross_encoder: CrossEncoderReranker | None = None
        self._probed = False
        self._incident_world: IncidentWorld | None = None

    def fail_if_broken(self, broken: list[str]) -> None:
        """Mark the run failed (exit 1) for methods of ours that failed on every query."""
        if broken:
            self.failed = True
            self.log(f"  error: {', '.join(broken)} failed on every query (see FAILED above); the run will exit 1")

    def record_failure(self, section: str, exc: Exception) -> None:
        """A bad data file stopped ``section`` (in :attr:`current_set`, when it runs
        several): recorded and said; the run goes on with the others and exits 1."""
        from skill_retriever.bench.data_failures import failure

        self.failures.append(failure(section, self.current_set, exc))
        self.log(f"  failed: {self.current_set or section}: {type(exc).__name__}: {exc}; going on with the others")
        self.current_set = None

    def stamp(self, embedder: str | None = None) -> Result:
        """Command, profile, data folder, embedding model, machine, code version, time and
        inputs (`inputs`: a set adds its data files), for every result; ``embedder`` names
        the model a section embeds with whatever ``--embedder`` says (`Section.embedder`)."""
        # The data folder as read: the command names it only when --data was typed.
        data = str(self.opts.data.absolute()) if self.opts.data is not None else None
        model = embedder or self.embedder.name
        return {"command": self.opts.command, "quick": self.opts.quick, "data": data, "embedder": model,
                "machine": self.machine, "code": self.code, "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "run_started_at": self.started_at, "inputs": self.inputs(embedder=model)}

    def inputs(self, sources: Sequence[Path] = (), embedder: str | None = None, section: str | None = None) -> Result:
        """What decides a result's figures: the options its section reads (``section``, else
        :attr:`section`), the data files it read, the code, the packages that compute them,
        the embedding model's files and the cross-encoder. ``embedder``: the model of a
        section that embeds with its own (`stamp`)."""
        o, model = self.opts, embedder or self.embedder.name
        return {"options": reuse.options_of(o.quick, o.max_queries, o.k, model, o.world_seed, section or self.section),
                "data": reuse.files_stamp(sources) if sources else None, "code": reuse.code_hash(),
                "packages": reuse.package_versions(), "model": reuse.model_stamp(model),
                "cross_encoder": reuse.cross_encoder_stamp()}

    def reuse(self, key: str, sources: Sequence[Path] = (), companion: bool = False,
              embedder: str | None = None) -> Result | None:
        """The result ``key`` an earlier run wrote in full from this run's inputs (`inputs`),
        now counted as this run's (said, and listed in ``_run.json``); None to measure it
        (always with ``--fresh``)."""
        wanted = self.inputs(sources, embedder)
        if self.opts.fresh or (found := reuse.reusable(self.results, key, wanted, companion)) is None:
            return None
        from skill_retriever.bench.report_header import section_name

        name = section_name(found)
        self.reused.append({"set": name, "key": key, "run_started_at": found.get("run_started_at"),
                            "finished_at": found.get("finished_at")})
        self.published += 1
        self.log(f"\n== reusing {name}: measured by the run started {found.get('run_started_at')} (finished "
                 f"{found.get('finished_at')}) with the same options, data, code, packages and models; --fresh measures it again")
        return found

    def reranker(self, embedder: Embedder) -> Reranker:
        """The cross-encoder if one loads offline (probed once), else the embedding fallback."""
        if not self._probed:
            self._probed = True
            found = default_reranker()
            self._cross_encoder = found if isinstance(found, CrossEncoderReranker) else None
        return self._cross_encoder or EmbeddingReranker(embedder)

    def memo(self) -> MemoEmbedder:
        """The real model behind a memo of its vectors (quality runs only)."""
        return MemoEmbedder(self.embedder)

    def retriever(self, index: Index) -> Retriever:
        """A Retriever over ``index`` (opened with :meth:`memo`), with the fixed clock and
        no answer cache."""
        memo = index.embedder
        # The fallback reranker embeds each candidate's full text in windows of 180 words;
        # a text that short is one window, the very text embedded at indexing, so its
        # vector is known already.
        snap = index.snapshot()
        gm, emb, nodes = snap.graph, snap.embeddings, snap.nodes
        short = [(nodes[i].embedding_text(), row) for row, i in enumerate(gm.ids)
                 if len(nodes[i].embedding_text().split()) <= 180]
        if short and isinstance(memo, MemoEmbedder):
            memo.seed([t for t, _ in short], emb[[r for _, r in short]])
        return Retriever(index, RetrievalConfig(now=FIXED_NOW), reranker=self.reranker(memo), cache_size=0)

    def incident_world(self) -> IncidentWorld:
        """The incident world's index and retriever (the battery and the incidents section
        share them), built on first use and cached on disk."""
        if self._incident_world is None:
            params = world_params(self.opts.quick, self.opts.world_seed)
            world = generate_world(**params, now=FIXED_NOW)
            key = f"incidents__world-s{params['seed']}-{params['services']}-{params['deploys']}-{params['incidents']}"
            index, build = cached_index(self.opts.cache, key, {"generator": GENERATOR_VERSION, **params},
                                        lambda work: world.ingest(), self.memo(), self.log)
            self._incident_world = IncidentWorld(world, index, self.retriever(index), build)
        return self._incident_world

    def publish(self, result: Result) -> None:
        """Print a finished result's table and rebuild the report from the results folder."""
        self.published += 1
        self.log(report.section_text(result))
        self.write_report()

    def write_report(self) -> None:
        """Rebuild report.md, report.json and the plots from every result written so far."""
        report.write_report(self.opts.out)
