"""The ``query`` command's arguments: kept apart from `cli` (which builds every command's
parser) and from `query_cli` (which runs the search and imports what that needs), so that
``--help`` and the other commands import nothing of the search."""

from __future__ import annotations

import argparse
import codecs
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from skill_retriever.cliargs import add_query_limits, kind_list, tag_list, time_arg
from skill_retriever.query_settings import query_settings, setting_arg

__all__ = ["add_query_command", "check_query", "stdin_text"]

#: Byte order marks of the encodings a Windows tool writes a text in (PowerShell's ``>``
#: and ``Out-File`` write UTF-16), longest first: UTF-32's starts as UTF-16's does.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"), (codecs.BOM_UTF8, "utf-8-sig"),
)


def add_query_command(
    sub: Any, handler: Callable[[argparse.Namespace], int], common: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add ``query`` to the subcommands ``sub``, run by ``handler``; ``common`` adds the
    options every command that reads an index takes."""
    q = sub.add_parser("query", help="search the index for what fits a task or question", description=(
        "Search the index for what to read, load or install for a task: a ranked list, each result with the one line "
        "that says why, copies of one component folded, cut to --budget tokens (--json for programs)."))
    q.set_defaults(handler=handler)
    q.add_argument(
        "query",
        help="what to find, in words, as one argument (quote it), or - to read it from stdin; up to --max-query-chars characters",
    )
    add_query_limits(q)
    q.add_argument(
        "--budget-fill",
        action="store_true",
        help="skip results that do not fit the budget and keep filling it (default: stop at the first)",
    )
    q.add_argument("--route", type=str.lower, choices=["smart", "ppr", "quick"], default=None, help="force a route (default: the index's, chosen per query; `stats` shows it)")
    q.add_argument("--kinds", type=kind_list, default=None, help="comma-separated kinds, e.g. skill,agent")
    q.add_argument("--principals", default="*", help="comma-separated access principals (default *: all)")
    q.add_argument("--tags", type=tag_list, default=None, help="comma-separated tags: only items carrying one of them")
    q.add_argument("--since", type=time_arg, default=None,
                   help="only items created or updated at or after this time (ISO-8601, e.g. 2026-11-01; UTC unless a zone is given)")
    q.add_argument(
        "--until", type=time_arg, default=None,
        help="only items created or updated at or before this time; a date alone takes its whole day in "
        "(--until 2026-11-01 ends at 2026-11-01T23:59:59.999999 UTC)",
    )
    q.add_argument("--no-rerank", action="store_true", help="skip the rerank phase")
    q.add_argument(
        "--profile", default=None, metavar="NAME",
        help="a named set of settings, as config_for(NAME) in Python: design (the defaults) or multihop (for a "
        "passage corpus indexed with facts); --set and the flags above apply on top",
    )
    q.add_argument(
        "--set", dest="settings_given", action="append", type=setting_arg, default=None, metavar="NAME=VALUE",
        help="one RetrievalConfig setting for this query, repeatable (--set rrf_k=30 --set "
        "'channels={\"temporal\": false}'); VALUE is read as JSON, else as text; a setting with a flag of its "
        "own (-k, --budget, --route, ...) takes that flag",
    )
    common(q)


def check_query(args: argparse.Namespace) -> None:
    """Read ``-`` from stdin into ``args.query`` and refuse a query the search would refuse
    (empty, or over ``--max-query-chars``), as it words it, before the search is imported;
    and resolve ``--profile`` and ``--set`` into ``args.settings`` (None: neither given).

    Raises:
        QueryError: The query is empty, or too long.
        CommandArgumentError: A bad ``--profile`` or ``--set``.
    """
    from skill_retriever.config import RetrievalConfig
    from skill_retriever.querytext import clean_query

    if args.query == "-":  # a long task (an agent's whole prompt) does not fit one argument
        if sys.stdin.isatty():  # typed at a terminal, the read waited without a word, as if hung
            print("reading the query from the terminal: type it, then press Ctrl-D on a line of its own "
                  "(or pipe it in: query - < task.txt)", file=sys.stderr)
        args.query = stdin_text()
    limit = RetrievalConfig.max_query_chars if args.max_query_chars is None else args.max_query_chars
    clean_query(args.query, limit)
    args.settings = query_settings(args.profile, args.settings_given)  # checked before the index opens


def stdin_text() -> str:
    """What stdin holds, as text: in the encoding its byte order mark names (a task saved
    by PowerShell is UTF-16, which read as UTF-8 was searched as ``h\x00e\x00...``, with
    no word: seen in QA), else as stdin decodes it."""
    buffer: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text stream (a test, an embedding program)
        return sys.stdin.read()
    data: bytes = buffer.read()
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data.decode(codec, "replace")
    return data.decode(sys.stdin.encoding or "utf-8", sys.stdin.errors or "strict")
