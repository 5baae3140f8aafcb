"""``skill-retriever benchmark``: quality beside the peers, speed and scale, in one command."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

#: The sections ``--only`` accepts, in run order. The registry (``bench.sections``) is the
#: source; this copy keeps ``skill-retriever --help`` from importing every section
#: (tests/bench/test_bench_imports.py holds the two equal).
NAMES: tuple[str, ...] = ("battery", "incidents", "skills", "toolret", "multihop", "speed", "startup", "scale")


def add_parser(sub: argparse._SubParsersAction, common: Callable[[argparse.ArgumentParser], None]) -> None:  # type: ignore[type-arg]
    """Register the ``benchmark`` subcommand (``common`` adds index options it does not need)."""
    p = sub.add_parser(
        "benchmark",
        help="run the benchmarks (quality beside the peers, speed, the seed battery)",
        description=(
            "Runs the seed battery, the incident benchmark, multi-hop passage retrieval, skills and "
            "tool retrieval beside BM25, dense and LangChain's EnsembleRetriever, speed at 1k-100k "
            "nodes, and a 100k-node / 1M-edge scale run (not in --quick). Writes results/*.json, report.json, report.md and plots/*.png into --out."
        ),
    )
    p.add_argument("--data", type=Path, default=None,
                   help="benchmark data folder (default: $SKILL_RETRIEVER_DATA, else ../shared/data when it exists)")
    p.add_argument("--out", type=Path, default=Path("bench-out"), help="output folder (default bench-out)")
    p.add_argument("--cache", type=Path, default=None, help="index cache folder (default <out>/cache)")
    p.add_argument("--quick", action="store_true", help="small subsets; under 5 minutes on 2 cores")
    p.add_argument("--only", default=None,
                   help=f"comma-separated sections to run (default all): {','.join(NAMES)}")
    p.add_argument("--max-queries", type=int, default=1000,
                   help="seeded sample size for larger toolret query sets (default 1000)")
    p.add_argument("--embedder", default=None, metavar="MODEL",
                   help="embedding model of every index built: a sentence-transformers name or folder "
                        "(default: the bundled all-MiniLM-L6-v2); give it its own --cache")
    p.add_argument("--report-only", action="store_true", help="rebuild report.md, report.json and plots from <out>/results")
    p.set_defaults(handler=cmd_benchmark)


def cmd_benchmark(args: argparse.Namespace) -> int:
    """Run the benchmark (or rebuild its report); the exit status of the run."""
    from skill_retriever.exceptions import ConfigError

    out: Path = args.out
    if args.report_only:
        from skill_retriever.bench.report import write_report

        path = write_report(out)
        print(f"report rebuilt: {path}")
        return 0
    only = tuple(s.strip() for s in args.only.split(",") if s.strip()) if args.only else None
    unknown = sorted(set(only or ()) - set(NAMES))
    if unknown:
        raise ConfigError(f"--only: unknown section(s) {unknown}; choose from {','.join(NAMES)}")
    if args.max_queries <= 0:
        raise ConfigError("--max-queries must be > 0")
    if args.embedder is not None and not args.embedder.strip():
        raise ConfigError("--embedder is empty; give a sentence-transformers model name or folder, or leave it out")
    for flag, folder in (("--out", out), ("--cache", args.cache)):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise ConfigError(f"{flag} {folder} is a file; give a folder (made if missing)")
    from skill_retriever.bench.datasets import default_data_dir

    data = args.data
    if data is not None and not data.is_dir():
        print(f"benchmark: data folder {data} does not exist; running only what needs no data", file=sys.stderr)
        data = None
    elif data is None:
        data = default_data_dir()
    from skill_retriever.bench.common import BenchOptions
    from skill_retriever.bench.runner import run

    if args.embedder:  # a model that does not load stops the run now, not an hour in
        from skill_retriever.stores.embedder import SentenceTransformerEmbedder

        _ = SentenceTransformerEmbedder(args.embedder).dim

    opts = BenchOptions(
        out=out, data=data, cache=args.cache or out / "cache", quick=args.quick, only=only,
        max_queries=args.max_queries, command=_reconstruct(args), log=lambda line: print(line, flush=True),
        embedder=args.embedder,
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, a folder that cannot be written
        raise ConfigError(f"--out {out}: cannot make it ({exc.strerror or exc}); give a folder that can be written") from exc
    return run(opts)


def _reconstruct(args: argparse.Namespace) -> str:
    """The command line, as stamped on results (only the options given)."""
    parts = ["skill-retriever", "benchmark"]
    if args.data is not None:
        parts += ["--data", str(args.data)]
    parts += ["--out", str(args.out)]
    if args.quick:
        parts.append("--quick")
    if args.only:
        parts += ["--only", args.only]
    if args.max_queries != 1000:
        parts += ["--max-queries", str(args.max_queries)]
    if args.embedder:
        parts += ["--embedder", args.embedder]
    return " ".join(shlex.quote(p) for p in parts)
