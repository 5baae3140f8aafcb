"""``skill-retriever remove-source``: take a source's items out of an index (`sources`),
and say which other sources' ``requires`` lost (or changed) their component (`cross_source`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from skill_retriever.cliargs import add_lock_wait_option, open_index
from skill_retriever.safety.terminal import printable, printable_json

if TYPE_CHECKING:
    from skill_retriever.cross_source import CrossSourceReport

__all__ = ["add_parser"]

#: How many removed ids the text output names.
SHOWN = 5


def add_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    rm = sub.add_parser(
        "remove-source",
        help="take every item of one source (and the relations touching them) out of the index",
        description="Delete the items indexed from the source NAME (the name `stats` lists: the "
        "folder's name, or --source-name), with every relation that touches them. For a source "
        "gone from disk: indexing a source again removes what it no longer has, but a path that "
        "no longer exists cannot be indexed. For a source moved, index its new folder under its "
        "name instead (index NEWPATH --source-name NAME): its items keep their vectors, where "
        "removing it first embeds every text again.",
    )
    rm.add_argument("name", metavar="NAME", type=_source_name, help="the source's name, as `stats` lists it")
    rm.add_argument("--dry-run", action="store_true", help="list what would be removed; remove nothing")
    common(rm)  # --index-dir, --chroma-url, --json
    add_lock_wait_option(rm)
    rm.set_defaults(handler=cmd_remove_source)


def _source_name(text: str) -> str:
    """NAME, refused when empty (mostly an unset variable) before the index is opened."""
    from skill_retriever.empty_args import not_empty

    return not_empty(text, "give the source's name as `skill-retriever stats` lists them")


def cmd_remove_source(args: argparse.Namespace) -> int:
    from skill_retriever.json_text import dumps
    from skill_retriever.sources import remove_source

    with open_index(args) as index:
        before = index.snapshot()
        mark = before.unfinished_runs.get(args.name)  # a run of it that did not finish
        reports: list[CrossSourceReport] = []
        ids = remove_source(index, args.name, dry_run=args.dry_run, relinked=reports.append)
        gone = set(ids)  # the relations that touch them go too, other sources' included
        relations = sum(1 for e in before.edges.values() if e.source in gone or e.target in gone)
        status = index.status()
    across = reports[0] if reports else None
    if args.json:
        print(printable_json(dumps({"source": args.name, "dry_run": args.dry_run, "removed": ids,
                                    "relations_removed": relations, "unfinished_run": mark, "index": status,
                                    "cross_source": across.to_dict() if across else None})))
        return 0
    verb = "would remove" if args.dry_run else "removed"
    more = f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
    print(printable(f"{args.name}: {verb} {len(ids)} item(s) and the {relations} relation(s) touching them: "
                    f"{', '.join(ids[:SHOWN])}{more}"))
    if mark is not None:
        took = "would take" if args.dry_run else "took"
        print(printable(f"{args.name}: {took} off the mark of its index run started {mark.get('started', '?')}, "
                        "which did not finish"))
    for line in across.lines(()) if across else ():  # names that lost (or changed) their component
        print(printable(f"across sources: {line}"))
    print(printable(f"index {status['path']} holds {status['nodes']} nodes, {status['edges']} edges"))
    return 0
