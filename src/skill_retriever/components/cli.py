"""The ``install`` and ``mcp`` subcommands (registered through `skill_retriever.cli_extra`).

::

    skill-retriever install ID... --target DIR [--force] [--dry-run] [--no-deps] [--index-dir D]
    skill-retriever mcp [--index-dir D] [--principals *]

``install`` exits 0 when everything was written or already identical, 1 when a file was
kept (differs, no ``--force``) or a path was refused, 2 on an error.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "cmd_install", "cmd_mcp"]


def add_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    ins = sub.add_parser(
        "install",
        help="write components and what they require into a project's .claude/ folder",
        description="Write components (and, by default, what they require) into DIR/.claude "
        "(skills/, agents/, commands/, hooks/) and DIR/.mcp.json. Files that differ are kept "
        "unless --force; paths that would leave DIR are refused.",
    )
    ins.add_argument(
        "ids", nargs="+", metavar="ID", help="component ids from `query` (or unique names)"
    )
    ins.add_argument("--target", required=True, type=Path, metavar="DIR", help="the project folder")
    ins.add_argument("--force", action="store_true", help="overwrite files that differ")
    ins.add_argument("--dry-run", action="store_true", help="show the plan; write nothing")
    ins.add_argument(
        "--no-deps", action="store_true", help="do not add what the components require"
    )
    common(ins)
    ins.set_defaults(handler=cmd_install)

    mcp = sub.add_parser(
        "mcp",
        help="serve component search, dependency checks and installs over MCP (stdio)",
        description="An MCP server on stdin/stdout for coding agents, e.g. "
        "`claude mcp add skill-retriever -- skill-retriever mcp --index-dir /path/to/index`.",
    )
    mcp.add_argument(
        "--principals", default="*", help="comma-separated access principals (default *: all)"
    )
    common(mcp)
    mcp.set_defaults(handler=cmd_mcp)


def cmd_install(args: argparse.Namespace) -> int:
    from skill_retriever.cli import open_index
    from skill_retriever.components.install import install
    from skill_retriever.indexing import dumps
    from skill_retriever.safety.terminal import printable, printable_json

    index = open_index(args, create=False)
    try:
        plan = install(
            index,
            args.ids,
            args.target,
            force=args.force,
            dry_run=args.dry_run,
            with_dependencies=not args.no_deps,
        )
    finally:
        index.close()
    if args.json:
        print(printable_json(dumps(plan.to_dict())))
    else:
        print("\n".join(printable(line) for line in plan.lines()))
        if not plan.ok:
            print(
                "some files were not written: see 'kept' / 'refused' above (--force overwrites files that differ)"
            )
    return 0 if plan.ok else 1


def cmd_mcp(args: argparse.Namespace) -> int:
    from skill_retriever.adapters.mcp_server import serve

    principals = [p.strip() for p in args.principals.split(",") if p.strip()]
    serve(args.index_dir, chroma_url=args.chroma_url, principals=principals)
    return 0
