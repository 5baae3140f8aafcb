"""``skill-retriever benchmark``: quality beside the peers, speed and scale, in one command."""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from skill_retriever.bench.limits import (
    DATA_LAYOUT_HELP,
    DEFAULT_MAX_QUERIES,
    QUICK_TOOLRET_QUERIES,
)
from skill_retriever.empty_args import model_named, path_named

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
    # An empty folder option (`--out "$UNSET"`) is Path(""): the working folder, written into.
    p.add_argument("--data", type=path_named("give the benchmark data folder, or leave --data out"), default=None,
                   help="benchmark data folder (default: $SKILL_RETRIEVER_DATA, else ../shared/data when it exists)")
    p.add_argument("--out", type=path_named("give the output folder, or drop the option for bench-out"),
                   default=Path("bench-out"), help="output folder (default bench-out)")
    p.add_argument("--cache", type=path_named("give the index cache folder, or drop the option for <out>/cache"),
                   default=None, help="index cache folder (default <out>/cache)")
    p.add_argument("--quick", action="store_true", help="small subsets; under 5 minutes on 2 idle cores (7 with the cores busy: measured at load 4-7)")
    p.add_argument("--only", default=None,
                   # The list is spaced so that argparse wraps it between names; the example
                   # shows the comma-separated form the option takes.
                   help=f"comma-separated sections to run, e.g. --only incidents,startup (default all): {', '.join(NAMES)}")
    p.add_argument("--max-queries", type=int, default=DEFAULT_MAX_QUERIES,
                   help=f"seeded sample size for larger toolret query sets (default {DEFAULT_MAX_QUERIES}; the other sets "
                        "run whole, or small with --quick)")
    p.add_argument("--embedder", default=None, metavar="MODEL", type=model_named,
                   help="embedding model of every index built: a sentence-transformers name or folder "
                        "(default: the bundled all-MiniLM-L6-v2; scale always embeds with it); its cached indexes "
                        "are kept beside the MiniLM ones")
    p.add_argument("--world-seed", type=int, default=None, metavar="N",
                   help="seed of the generated incident world (default 7, the one the README reports and the "
                        "settings were chosen on; another seed is a held-out check)")
    p.add_argument("--fresh", action="store_true",
                   help="measure every section and set again; by default a result an earlier run in --out wrote "
                        "in full with the same options, data files, code, package versions and models is reused")
    p.add_argument("--report-only", action="store_true", help="rebuild report.md, report.json and plots from <out>/results (with --only: of those sections "
                        "only); options that pick what a run measures are refused")
    p.set_defaults(handler=cmd_benchmark)


def cmd_benchmark(args: argparse.Namespace) -> int:
    """Run the benchmark (or rebuild its report); the exit status of the run."""
    from skill_retriever.exceptions import ConfigError

    out: Path = args.out
    cache: Path = args.cache or out / "cache"
    for flag, folder in (("--out", out), ("--cache", args.cache)):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise ConfigError(f"{flag} {folder} is a file; give a folder (made if missing)")
    from skill_retriever.bench.report import load_run

    if load_run(out) is None:  # the report leaves it out; a run rewrites it when it ends
        print(f"benchmark: {out / 'results' / '_run.json'} is damaged (not a JSON object); ignored"
              + ("" if args.report_only else ", rewritten when this run ends"), file=sys.stderr)
    only = None
    if args.only is not None:  # `--only ""` is a mistake, not "every section" (hours of scale)
        only = tuple(s.strip() for s in args.only.split(",") if s.strip())
        if not only:
            raise ConfigError(f"--only is empty; name one or more sections of {','.join(NAMES)}, or leave it out to run all")
    unknown = sorted(set(only or ()) - set(NAMES))
    if unknown:
        raise ConfigError(f"--only: unknown section(s) {', '.join(_with_guess(n) for n in unknown)}; "
                          f"choose from {','.join(NAMES)}")
    if args.report_only:
        return _report_only(out, only, args)
    if args.max_queries <= 0:
        raise ConfigError("--max-queries must be > 0")
    if args.max_queries != DEFAULT_MAX_QUERIES and only is not None and "toolret" not in only:  # it would change nothing
        print(f"note: --max-queries samples the toolret sets only, which --only {','.join(only)} leaves out; "
              f"--quick makes every set small{_whole_multihop_note(only, args.quick)}", file=sys.stderr)
    elif args.max_queries != DEFAULT_MAX_QUERIES and args.quick:  # the quick profile's size wins
        print(f"note: --quick samples {QUICK_TOOLRET_QUERIES} queries of one toolret set whatever --max-queries says "
              f"({args.max_queries} here); drop --quick to sample {args.max_queries} of every toolret set",
              file=sys.stderr)
    if args.world_seed is not None and only is not None and not {"battery", "incidents"} & set(only):
        print(f"note: --world-seed seeds the incident world of the battery and incidents sections, which "
              f"--only {','.join(only)} leaves out; it changes nothing here", file=sys.stderr)
    data = _data_folder(args.data, only)
    for flag, folder in (("--out", out), ("--cache", args.cache)):
        # `--out ../shared/data`, meant as --data, wrote results, cache and report among the sets
        if data is not None and folder is not None and data.resolve() in (folder.resolve(), *folder.resolve().parents):
            raise ConfigError(f"{flag} {folder} is in the data folder {data}: a run would write among its sets; "
                              f"give {flag} a folder outside it")
    if held := _not_ours(out):
        raise ConfigError(
            f"--out {out} holds {', '.join(held)} but no results/ of an earlier benchmark run: a run would "
            "overwrite them; give another folder (a new one is made)"
        )
    # A folder that cannot be written stops the run now, not after the model loads.
    for flag, folder in (("--out", out), ("--out", out / "results"), ("--cache", cache)):
        _check_writable(flag, folder)
    from skill_retriever.bench.common import BenchOptions
    from skill_retriever.bench.runner import run

    if args.embedder:  # a model that does not load stops the run now, not an hour in
        from skill_retriever.stores.embedder import SentenceTransformerEmbedder

        _ = SentenceTransformerEmbedder(args.embedder).dim

    opts = BenchOptions(
        out=out, data=data, cache=cache, quick=args.quick, only=only,
        max_queries=args.max_queries, command=_reconstruct(args), log=lambda line: print(line, flush=True),
        embedder=args.embedder, fresh=args.fresh,
        **({"world_seed": args.world_seed} if args.world_seed is not None else {}),
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, a folder that cannot be written
        raise ConfigError(f"--out {out}: cannot make it ({exc.strerror or exc}); give a folder that can be written") from exc
    return run(opts)


#: What a run writes at the top of ``--out`` (beside ``results/`` and ``cache/``).
_WRITTEN = ("report.md", "report.json", "plots")


def _not_ours(out: Path) -> list[str]:
    """The names a run would overwrite in ``out`` when ``out`` is no benchmark output (it
    holds no ``results/``): a project folder given as ``--out`` lost its own ``report.md``."""
    if not out.is_dir() or (out / "results").is_dir():
        return []
    return [name for name in _WRITTEN if (out / name).exists()]


def _with_guess(name: str) -> str:
    """``name`` quoted, with the section it most likely meant (``incident``, ``Skills``)."""
    import difflib

    guess = difflib.get_close_matches(name.lower(), NAMES, n=1, cutoff=0.6)
    return repr(name) + (f" (did you mean {guess[0]}?)" if guess else "")


def _whole_multihop_note(only: tuple[str, ...], quick: bool) -> str:
    """How to measure the multi-hop sets whole, for the ``--max-queries`` note: the option
    cuts nothing there, and no option picks one of its sets (each has its own corpus)."""
    if "multihop" not in only:
        return ""
    now = (" (with it, multihop is 30 questions of 2wikimultihopqa over their gold passages and 150 "
           "distractors: a subset, not comparable with published figures)") if quick else ""
    return (f"{now}; to measure the multi-hop sets whole, run `--only multihop` without --quick: every set "
            "under <data>/multihop on its full corpus with all its questions; no option picks one set, but --data "
            "DIR whose DIR/multihop holds only that set (a link to its folder) measures it alone")


def _measuring_options(args: argparse.Namespace) -> list[str]:
    """The options given that decide what a run measures (each was ignored by
    ``--report-only``, which measures nothing)."""
    given = [("--quick", args.quick), ("--data", args.data is not None), ("--cache", args.cache is not None),
             ("--max-queries", args.max_queries != DEFAULT_MAX_QUERIES), ("--embedder", bool(args.embedder)),
             ("--world-seed", args.world_seed is not None), ("--fresh", args.fresh)]
    return [flag for flag, on in given if on]


def _report_only(out: Path, only: tuple[str, ...] | None, args: argparse.Namespace) -> int:
    """``--report-only``: rebuild the report from the results of an earlier run in ``out``,
    of the sections in ``only`` when given."""
    from skill_retriever.bench.report import load_results, write_report
    from skill_retriever.exceptions import ConfigError

    if refused := _measuring_options(args):
        raise ConfigError(
            f"--report-only does not take {', '.join(refused)}: it rebuilds the report from the results already "
            f"in {out / 'results'}, as they were measured, and {'these decide' if len(refused) > 1 else 'it decides'} "
            "what a run measures; drop it, or leave out --report-only to measure (--only filters the report)")
    results = out / "results"
    if not results.is_dir() or not any(results.glob("*.json")):  # an empty report helps no one
        raise ConfigError(f"--report-only: no results in {results} to build a report from; give the --out "
                          "of an earlier run, or run the benchmark first")
    if only is not None and not [s for s in load_results(out)[0] if _section_of(s) in only]:
        raise ConfigError(f"--report-only --only {','.join(only)}: no results of {','.join(only)} in {results}; "
                          "name sections measured there, or leave --only out")
    _check_writable("--out", out)
    path = write_report(out, only=only)
    print(f"report rebuilt: {path}" + (f" (sections {', '.join(only)} only)" if only else ""))
    return 0


def _section_of(result: dict[str, object]) -> object:
    """The ``--only`` name of a result (a set's family, else its section)."""
    return result.get("section") or result.get("family")


def _data_folder(given: Path | None, only: tuple[str, ...] | None) -> Path | None:
    """The data folder to read, or None to run only what needs none; a section named in
    ``--only`` that needs data, with no data folder, is an error (it would be skipped)."""
    from skill_retriever.bench.datasets import default_data_dir
    from skill_retriever.exceptions import ConfigError

    data = given if given is not None else default_data_dir()
    if data is not None and data.is_dir():
        return data
    from skill_retriever.bench.sections import SECTIONS

    wanted = [s.name for s in SECTIONS if s.needs_data and s.name in (only or ())]
    why = (f"data folder {data} does not exist" if given is not None
           else f"$SKILL_RETRIEVER_DATA names {data}, which does not exist" if data is not None
           else "no data folder (no --data, $SKILL_RETRIEVER_DATA or ../shared/data)")
    if wanted:
        raise ConfigError(f"--only {','.join(wanted)} needs the benchmark data: {why}; give --data DIR "
                          f"({DATA_LAYOUT_HELP}), or leave {','.join(wanted)} out of --only")
    if data is not None:
        print(f"benchmark: {why}; running only what needs no data", file=sys.stderr)
    return None


def _check_writable(flag: str, folder: Path) -> None:
    """Stop with a clear error when ``folder`` (or, while it is missing, the nearest folder
    above it, where it would be made) cannot be written, by making a nameless file there."""
    from skill_retriever.exceptions import ConfigError

    there = folder
    while not there.exists() and there != there.parent:
        there = there.parent
    if not there.is_dir():
        raise ConfigError(f"{flag} {folder}: {there} is a file; give a folder (made if missing)")
    try:
        with tempfile.TemporaryFile(dir=there):
            pass
    except OSError as exc:
        raise ConfigError(f"{flag} {folder}: cannot write in {there} ({exc.strerror or exc}); "
                          "give a folder that can be written") from exc


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
    if args.max_queries != DEFAULT_MAX_QUERIES:
        parts += ["--max-queries", str(args.max_queries)]
    if args.embedder:
        parts += ["--embedder", args.embedder]
    if args.world_seed is not None:
        parts += ["--world-seed", str(args.world_seed)]
    if args.fresh:
        parts.append("--fresh")
    return " ".join(shlex.quote(p) for p in parts)
