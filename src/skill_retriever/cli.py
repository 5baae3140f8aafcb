"""The ``skill-retriever`` command: index, query, stats, repair, move-to-server here;
move-to-embedded, benchmark, install, uninstall and mcp from the modules of those features.

Readable output for people, ``--json`` for programs; bad input ends with one line on
stderr and a non-zero exit.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Threading, decided once for every command (README, Threading): single-threaded BLAS,
# set before numpy loads (on 2 cores numpy's and torch's pools fight), and idle OpenMP
# threads that sleep instead of spinning (on a busy 2-core machine torch's spinning pool
# made a query embedding many times slower; seen while benchmarking, not measured by a
# command here).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from skill_retriever import __version__
from skill_retriever.cliargs import (
    DEFAULT_INDEX_DIR,
    INDEX_DIR_DEFAULT,
    Parser,
    add_index_options,
    add_json_option,
    add_lock_wait_option,
    error_line,
    error_text,
    folder_named,
    lock_wait_of,
    open_for_repair,
    open_index,
    print_json_error,
)
from skill_retriever.dash_words import after_double_dash
from skill_retriever.empty_args import check_server_arg, model_named, source_named
from skill_retriever.exceptions import IndexLockedError, SkillRetrieverError
from skill_retriever.index_cli import cmd_index, server_repairs
from skill_retriever.log_marks import notes_in_answers
from skill_retriever.query_args import add_query_command, check_query
from skill_retriever.safety.terminal import printable, printable_json
from skill_retriever.stats_cli import cmd_stats
from skill_retriever.stopped_run import stopped_run_advice
from skill_retriever.stores.lock import WAIT_LOG
from skill_retriever.termination import EXIT_TERMINATED, Terminated, sigterm_as_interrupt

#: The exit status of a command that writes the index while another process writes it:
#: sysexits' EX_TEMPFAIL, "try again later", so that a script retries it (or passes
#: --lock-wait) and still stops on 2, a bad argument or a damaged index.
EXIT_BUSY = 75

#: What ``--kind docs`` reads, for the help. ``ingest.documents.DOCUMENT_SUFFIXES`` is the
#: source; this copy keeps every command from importing the ingest package and YAML just
#: to build its parser (about 40 ms more on ``--help``); tests/test_nb_walk_help.py holds
#: the two equal.
DOCUMENT_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".txt")


def _parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="skill-retriever",
        description="Hybrid graph retrieval of skills, agents, commands, hooks, MCP servers and documents.",
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help="log one line per phase, and show progress bars"
    )
    p.add_argument("-V", "--version", action="version", version=f"skill-retriever {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    common = add_index_options
    ix = sub.add_parser("index", help="index sources into the index directory", description=(
        "Index skills repositories, folders of documents, JSON graphs, tool sets and passage corpora into the index "
        "directory; indexing a source again embeds only what changed and takes out what its files no longer hold."))
    ix.set_defaults(handler=cmd_index)
    ix.add_argument(
        "paths", nargs="*", type=source_named,
        help="skills folders, folders of documents, JSON graphs, tool folders, corpus.json files",
    )
    ix.add_argument("--sample", action="store_true", help="index the bundled sample catalogue")
    ix.add_argument(
        "--kind", choices=["skills", "docs", "json", "toolret", "passages"],
        help=f"source kind (default: detect; docs: a folder of {'/'.join(DOCUMENT_SUFFIXES)} documents)",
    )
    ix.add_argument("--no-ner", action="store_true", help="passages: titles only, skip spaCy entities")
    ix.add_argument(
        "--keep-missing",
        action="store_true",
        help="keep the items of a source whose files are gone (default: indexing a source again removes them)",
    )
    ix.add_argument(
        "--max-file-bytes", type=int, default=None, metavar="N",
        help="skip (and report) skill and document files larger than N bytes (default 2,000,000)",
    )
    ix.add_argument(
        "--source-name",
        default=None,
        help="name of the one source indexed (the prefix of its ids; default: its folder's name)",
    )
    ix.add_argument(
        "--embedder",
        default=None, type=model_named,
        help="embedding model of a new index: a sentence-transformers name or folder (default: the bundled "
        "all-MiniLM-L6-v2); an existing index keeps the model it was built with and refuses another",
    )
    common(ix)
    add_lock_wait_option(ix)

    add_query_command(sub, cmd_query, common)

    st = sub.add_parser("stats", help="show what the index holds", description=(
        "Show what the index holds (items and relations by kind, sources, calibration, the defaults and route a "
        "search takes, its Chroma server) and what is left to do, such as an index run that did not finish."))
    st.set_defaults(handler=cmd_stats)
    common(st)

    cal = sub.add_parser(
        "calibrate",
        help="let the index learn where 'nothing fits' starts (index does this after each run)",
        description="Learn where 'nothing fits' starts from the items the index holds (100 off-topic probe requests "
        "searched against them); no channel weights yet, nor a route: its line says 'weights all channels x1; no "
        "route learned'. An index run does this when it ends, so run it after writing items through the Python API.",
    )
    cal.set_defaults(handler=cmd_calibrate)
    common(cal)
    add_lock_wait_option(cal)

    rp = sub.add_parser(
        "repair",
        help="migrate an index written by an older version, give every item its vector, resync a Chroma server, "
        "write a missing or unreadable index.json again from the items",
        description="Mend an index from what it stores: migrate one written by an older version, embed missing or "
        "unusable vectors again, resync its Chroma server, write a missing or unreadable index.json or calibration "
        "again; exits 1 naming what only you can mend.",
    )
    rp.set_defaults(handler=cmd_repair)
    common(rp)
    add_lock_wait_option(rp)

    mv = sub.add_parser("move-to-server", help="mirror an index's vectors into a Chroma server and search through it",
                        description="Copy an index's vectors into collections of its own on a Chroma server and "
                        "search through it from then on; move-to-embedded is the way back.")
    mv.add_argument("--index-dir", default=DEFAULT_INDEX_DIR, type=folder_named, help=f"the index to move ({INDEX_DIR_DEFAULT})")
    mv.add_argument("--chroma-url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    add_json_option(mv)
    add_lock_wait_option(mv)
    mv.set_defaults(handler=cmd_move)

    # The feature modules' parsers import nothing heavy: `--help` stays fast.
    from skill_retriever.bench.cli import add_parser as add_benchmark
    from skill_retriever.components.cli import add_parser as add_components
    from skill_retriever.move_back_cli import add_parser as add_move_back
    from skill_retriever.sources_cli import add_parser as add_sources

    add_move_back(sub)
    add_benchmark(sub, common)
    add_components(sub, common)
    add_sources(sub, common)
    for command in sub.choices.values():  # `query ... -v` as well as `-v query ...`
        command.add_argument(
            "-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
            help="log one line per phase, and show progress bars",
        )
        command.set_defaults(command_parser=command)  # a leftover word is refused in its words
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args, rest = _parser().parse_known_args(argv)
    parser = args.command_parser  # `skill-retriever query: error: ... (see skill-retriever query --help)`
    if rest and isinstance(getattr(args, "paths", None), list) and not any(r.startswith("-") for r in rest):
        if not all(r.strip() for r in rest):  # as the type of the paths before the option says it
            parser.error("argument paths: is empty; give a folder or file to index (. for the working folder)")
        args.paths += [Path(r) for r in rest]  # `index a --kind docs b`: paths on both sides of an option
    elif rest and isinstance(getattr(args, "query", None), str) and not any(r.startswith("-") for r in rest):
        # `query audit a contract`: the shell split the query into words
        whole = shlex.quote(" ".join([args.query, *rest]))
        parser.error(f"unrecognized arguments: {' '.join(rest)}; quote the query as one argument: {whole}")
    elif rest:  # `query -- -k 3 --index-dir .idx`: the options after `--` are the query's words
        parser.error(f"unrecognized arguments: {' '.join(rest)}{after_double_dash(parser.given, rest)}")
    if args.verbose:  # progress bars (a model download, indexing) only when asked for; never transformers' "Loading weights" (`stores.embedder`)
        os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "0"
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    if args.verbose:  # our phase lines; the root at INFO let torch's "FakeTensor cache stats" through
        logging.getLogger("skill_retriever").setLevel(logging.INFO)
    # A writer told to --lock-wait says once that it waits (a wait of minutes must not look
    # like a hang); the library only logs it, so the CLI shows that logger without -v.
    logging.getLogger(WAIT_LOG).setLevel(logging.INFO)
    try:
        check_server_arg(args)  # `--chroma-url ''`: `skill-retriever query: error: ...`, before anything opens
        if args.command == "mcp":  # a server's stop is its own (the MCP SDK's stdio loop)
            return int(args.handler(args))
        # `query` prints its answer's notes (vectors searched in memory: why): not on stderr too
        with sigterm_as_interrupt(), notes_in_answers(args.command == "query"):  # sigterm: said as Ctrl-C is
            return int(args.handler(args))
    except SkillRetrieverError as exc:
        message = error_text(exc, args) + stopped_run_advice(exc, args, argv)
        print(printable(error_line(message, exc, args)), file=sys.stderr)  # `query: error:` for an empty query
        if getattr(args, "json", False):  # `... --json | jq` reads JSON, not nothing
            print_json_error(message, exc)
        # only another writer is busy (its directory named): a lock file that cannot be written is not
        return EXIT_BUSY if isinstance(exc, IndexLockedError) and exc.directory is not None else 2
    except BrokenPipeError:
        # The reader went away (`query ... | head`): no traceback, and none at exit when
        # Python flushes stdout into the closed pipe (the recipe in the `signal` docs).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:
        stopped = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"
        print(printable(f"skill-retriever: {stopped}{_interrupted(args, argv)}"), file=sys.stderr)
        return EXIT_TERMINATED if isinstance(exc, Terminated) else 130


def _interrupted(args: argparse.Namespace, argv: Sequence[str] | None) -> str:
    """What Ctrl-C left, for the commands that write: an index run leaves the source it was
    writing half-written (the same command completes it), unless the new index it was
    making is gone (nothing was kept); a move is finished by running it again; a
    `remove-source` either removed nothing or removed the source, `stats` tells which."""
    import shlex

    again = shlex.join(["skill-retriever", *(sys.argv[1:] if argv is None else argv)])
    if args.command == "index" and (Path(args.index_dir) / "index.json").exists():
        return (f"; the source it was writing into {args.index_dir} may be half-written (`stats` names "
                f"it as an unfinished run if the run got to writing): run the same command again to complete it: `{again}`")
    if args.command == "index":
        return f"; nothing was kept (the index at {args.index_dir} was not made); run `{again}` again to make it"
    if args.command in ("move-to-server", "move-to-embedded"):
        return f"; run `{again}` again to finish the move (`stats` shows the server the index uses now)"
    if args.command == "remove-source" and not args.dry_run:
        # one write takes the items out; then names across sources and the calibration follow
        from skill_retriever.advice import command

        return (f"; if `{command(['stats'], args.index_dir)}` still lists {args.name}, nothing was removed: "
                f"run `{again}` again; if not, it was removed, and `{command(['calibrate'], args.index_dir)}` "
                "brings the calibration up to date (the next `index` run links names across sources again)")
    return ""


def cmd_calibrate(args: argparse.Namespace) -> int:
    from skill_retriever.calibration import calibrate_index
    from skill_retriever.json_text import dumps
    from skill_retriever.stats_lines import calibration_line
    from skill_retriever.stores import run_marks
    from skill_retriever.stores.embedder import DEFAULT_MODEL

    with open_index(args) as index:
        calibration = calibrate_index(index)
        summary = calibration.summary(index.version)
        bundled = index.embedder.name == DEFAULT_MODEL
        # a source an index run left half-written is calibrated as it stands: say so, and what completes it
        unfinished = run_marks.stats_line(index.snapshot().unfinished_runs, index.path)
    warnings = [(f"calibrated the index as it stands, part of a source included; the run that completes it "
                 f"calibrates again: {unfinished}")] if unfinished else []
    if args.json:
        print(printable_json(dumps({**summary, "evidence": dict(calibration.evidence), "warnings": warnings})))
    else:
        print(printable(f"calibrated {calibration.items} items: {calibration_line(summary, bundled=bundled)}"))
        for warning in warnings:
            print(printable(f"warning: {warning}"), file=sys.stderr)
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    from skill_retriever.calibration.redraw import redraw_for_repair
    from skill_retriever.json_text import dumps
    from skill_retriever.secret_scrub import scrub_secrets
    from skill_retriever.sources import complete_a_stopped_write
    from skill_retriever.stores.salvage import salvage_items
    from skill_retriever.stores.server_moves import saved_manifest, server_switch

    before = saved_manifest(Path(args.index_dir))  # to say whether --chroma-url changed the server
    # a damaged items.sqlite first: no open gets past it, and its rows are what the rest mends
    salvaged = salvage_items(Path(args.index_dir), lock_wait_of(args))
    index, manifest_mended = open_for_repair(args)
    with index:
        mended = [salvaged.mended()] if salvaged else []
        mended += [manifest_mended] if manifest_mended else []
        mended += [f"embedded {n} {what} vector(s) again" for what, n in
                   (("item", index.repaired["nodes"]), ("relation", index.repaired["edges"])) if n]
        switch = server_switch(before, index.status().get("chroma_url"), index.path)
        if switch:  # the vectors went to a server new to the index: not "again"
            mended.append(f"{switch[0]}: copied {index.repaired.get('server', 0)} vector(s) there")
        mended += server_repairs({**index.repaired, "server": 0} if switch else index.repaired)
        if scrubbed := scrub_secrets(index):
            from skill_retriever.ingest.scrub import scrubbed_kinds

            kinds = scrubbed_kinds(index.snapshot().nodes[i] for i in scrubbed)
            mended.append(f"redacted the secrets of {len(scrubbed)} {kinds} item(s) indexed before "
                          f"secrets were redacted: {', '.join(scrubbed[:3])}{' ...' if len(scrubbed) > 3 else ''}")
        if redrawn := redraw_for_repair(index):  # unreadable, or missing from an index of items
            mended.append(redrawn)
        elif behind := complete_a_stopped_write(index):  # a write stopped before it drew it (remove-source killed)
            mended.append(f"looked up the names across sources and drew the calibration again (it was drawn {behind} "
                          "write(s) before the index as it is)")
        status = index.status()
        left = (salvaged.left() if salvaged else []) + _not_repairable(index, status)
    if args.json:
        print(printable_json(dumps({**status, "repaired": mended, "left": left, "notes": switch[1:], "kept": switch.kept,
                                    "salvaged": salvaged.to_dict() if salvaged else None})))
    else:
        from skill_retriever.repair_words import repair_line

        print(printable(repair_line(status, mended, left)))  # what is left too: exit 1 is no surprise
        if salvaged:  # the sources to index again live in the file that was damaged
            print(printable(salvaged.recorded()))
        for line in switch[1:]:  # the collections left on the server it used before
            print(printable(line))
        for line in left:
            print(printable(f"warning: {line}"), file=sys.stderr)
    return 1 if left else 0


def _not_repairable(index: Any, status: dict[str, Any]) -> list[str]:
    """What ``repair`` cannot mend and the user must: an embedder that does not load (no
    query can be searched), an index run that did not finish (only its source completes it),
    rows that cannot be read back (only their source holds their text)."""
    from skill_retriever.exceptions import ConfigError
    from skill_retriever.stores import run_marks

    left = []
    try:
        index.embedder.embed(["repair: does the embedder load?"])
    except ConfigError as exc:
        left.append(f"no query can be searched: {exc}")
    if line := run_marks.stats_line(status.get("unfinished_runs", {}), status["path"]):
        left.append(line)
    snap = index.snapshot()
    dangling = [e for e in snap.edges.values() if e.source not in snap.nodes or e.target not in snap.nodes]
    if dangling:  # rows deleted outside skill-retriever: only their sources can put them back
        first = dangling[0]
        gone = first.source if first.source not in snap.nodes else first.target
        left.append(f"{len(dangling)} relation(s) end at an item the index does not hold (first: {first.id}, to "
                    f"{gone!r}); index the source that held it again, or take that source out with remove-source")
    if unread := status.get("unreadable_rows"):  # repair has no text to rebuild them from
        left.append(f"{unread['count']} row(s) of items.sqlite cannot be read back and are left out (first: "
                    f"{unread['first']!r}); index their source again to rewrite them, or rebuild the index into "
                    "a new directory")
    return left


def cmd_move(args: argparse.Namespace) -> int:
    from skill_retriever.json_text import dumps
    from skill_retriever.stores.server_moves import move_index_to_server

    moved = move_index_to_server(args.index_dir, args.chroma_url, lock_wait_s=lock_wait_of(args))
    for line in [printable_json(dumps(moved.to_dict()))] if args.json else map(printable, moved.lines()):
        print(line)
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    check_query(args)  # an empty query is refused before the index opens and the search imports
    with open_index(args, create=False) as index:  # so is a missing index (LangGraph is 1.3 s more)
        from skill_retriever.stores.collector import paused

        with paused():  # one answer: no walks of the loaded index by the cycle collector
            from skill_retriever.query_cli import run_query

            return run_query(index, args)


if __name__ == "__main__":
    raise SystemExit(main())
