"""The ``install``, ``uninstall`` and ``mcp`` subcommands (registered through
`skill_retriever.cli_extra`).

::

    skill-retriever install ID... (--target DIR | --user) [--force] [--dry-run] [--no-deps]
                            [--allow-conflicts] [--principals P,Q] [--index-dir D]
    skill-retriever uninstall ID... (--target DIR | --user) [--force] [--dry-run]
    skill-retriever mcp [--index-dir D] [--principals *]

``install`` exits 0 when everything was written or already identical, 1 when a file was
kept (differs, no ``--force``), a path was refused, the set holds a conflict (nothing
written without ``--allow-conflicts``), two of its components would write one path
with different content (nothing written), or the target refused the whole install (a
folder it cannot write, a ``.claude`` link leading nowhere: a ``refused:`` line, nothing
written, as its ``--dry-run`` says), 2 on an error (a target folder that does not exist
included). ``uninstall`` exits 0 when
everything the installs added was taken back, 1 when something changed since was kept or
the target refused it (a folder it cannot write: a ``refused:`` line, nothing removed);
with ``--dry-run`` it changes nothing, says what the real run would do, and exits as that
run would.
An empty ``--target`` is an error (exit 2), as it is from the Python API and MCP: it
would mean the working folder.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from skill_retriever.cliargs import add_json_option, add_location_options
from skill_retriever.empty_args import target_named

if TYPE_CHECKING:
    from skill_retriever.components.install import InstallPlan

__all__ = ["add_parser", "cmd_install", "cmd_mcp", "cmd_uninstall"]


def _where(p: argparse.ArgumentParser, doing: str) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    # a string, not a Path: Path("") is ".", and an empty target is refused as an argument
    # error of the command (the library refuses it too, for the Python API and MCP)
    where.add_argument("--target", metavar="DIR", type=target_named(doing), help="the project folder")
    where.add_argument(
        "--user",
        action="store_true",
        help="your Claude Code folder: $CLAUDE_CONFIG_DIR when set, else ~/.claude (hooks into "
        "its settings.json; no MCP servers)",
    )


def add_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    ins = sub.add_parser(
        "install",
        help="write components and what they require into a project's .claude/ folder",
        description="Write components (and, by default, what they require) into DIR/.claude "
        "(skills/, agents/, commands/, hooks/ scripts), hooks into DIR/.claude/settings.json "
        "and MCP servers into DIR/.mcp.json. A plugin installs its components. Files that "
        "differ are kept unless --force, and so is a hook whose command runs a script that "
        "neither it ships nor DIR holds; paths that would leave DIR are refused; a set holding "
        "a conflict is refused unless --allow-conflicts.",
    )
    ins.add_argument(
        "ids",
        nargs="+",
        metavar="ID",
        help="component or plugin ids from `query` (or unique names)",
    )
    _where(ins, "install into")
    ins.add_argument(
        "--force",
        action="store_true",
        help="overwrite files that differ; write a hook whose script is missing",
    )
    ins.add_argument("--dry-run", action="store_true", help="show the plan; write nothing")
    ins.add_argument(
        "--no-deps", action="store_true", help="do not add what the components require"
    )
    ins.add_argument(
        "--allow-conflicts", action="store_true", help="install even when two components conflict"
    )
    ins.add_argument(
        "--principals", default="*", help="comma-separated access principals (default *: all)"
    )
    common(ins)
    ins.set_defaults(handler=cmd_install)

    un = sub.add_parser(
        "uninstall",
        help="remove what `install` added, keeping anything changed since",
        description="Remove the files, settings.json hooks and .mcp.json servers that installing "
        "ID... added (read from DIR/.claude/.skill-retriever/installed.json), and put back "
        "what install --force replaced. A file or server changed since the install is kept, "
        "reported and stays recorded (--force removes it); a hook changed since is kept.",
    )
    un.add_argument(
        "ids", nargs="+", metavar="ID", help="installed component or plugin ids (or names)"
    )
    _where(un, "uninstall from")
    un.add_argument(
        "--force",
        action="store_true",
        help="also remove files and .mcp.json servers changed since the install, as they are "
        "(a settings.json hook changed since stays: nothing identifies it any more), and what "
        "a component that stays installed still requires (refused without it)",
    )
    un.add_argument(
        "--dry-run",
        action="store_true",
        help="say what would be removed, kept or put back; change nothing (exit status as the real run's)",
    )
    add_json_option(un)  # it reads the install record, not the index
    un.set_defaults(handler=cmd_uninstall)

    mcp = sub.add_parser(
        "mcp",
        help="serve component search, dependency checks and installs over MCP (stdio)",
        description="An MCP server on stdin/stdout for coding agents, e.g. "
        "`claude mcp add skill-retriever -- skill-retriever mcp --index-dir /path/to/index`.",
    )
    mcp.add_argument(
        "--principals", default="*", help="comma-separated access principals (default *: all)"
    )
    add_location_options(mcp)  # it speaks JSON-RPC on stdout: no --json to choose
    mcp.set_defaults(handler=cmd_mcp)


def _principals(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def cmd_install(args: argparse.Namespace) -> int:
    from skill_retriever.cliargs import open_index
    from skill_retriever.components.install import install
    from skill_retriever.components.install.target import TargetRefusedError
    from skill_retriever.json_text import dumps
    from skill_retriever.safety.terminal import printable, printable_json

    index = open_index(args, create=False)
    try:
        plan = install(
            index,
            args.ids,
            args.target,
            principals=_principals(args.principals),
            force=args.force,
            dry_run=args.dry_run,
            with_dependencies=not args.no_deps,
            allow_conflicts=args.allow_conflicts,
            user=args.user,
        )
    except TargetRefusedError as exc:  # what the dry run reports as refused: exit as it does
        return _refused(args, str(exc), exc.plan)
    finally:
        index.close()
    if args.json:
        print(printable_json(dumps(plan.to_dict())))
    else:
        print("\n".join(printable(line) for line in plan.lines()))
        if not plan.ok and not plan.refused_whole:
            print(_not_written(plan))
    return 0 if plan.ok else 1


def _not_written(plan: InstallPlan) -> str:
    """The closing line of an install that left something out, pointing at the words the
    lines above use for it ('kept', 'refused', 'skipped'), only those they hold: an install
    whose one miss is a skipped plugin once read "see 'kept' / 'refused' above". --force is
    offered only for what it changes (a file or server of yours that differs): it does
    nothing for a refused path or an unreadable settings.json, which the user must settle
    first (two components of one install writing one path refuse the plan whole, said above)."""
    said: dict[str, str] = {}
    if any(f.action == "blocked" for c in plan.components for f in c.files):
        said["kept"] = "--force overwrites files and servers that differ"
    refused = any(c.status == "refused" for c in plan.components)
    if refused or any(f.action == "refused" for c in plan.components for f in c.files):
        said["refused"] = "fix what it says and install again"
    if any(c.status == "skipped" and c.id in plan.named for c in plan.components):
        said["skipped"] = "it says why this install cannot place what you asked for"
    were = "were not" if plan.applied else "would not be"
    if not said:  # nothing to point at by name (a refused hook): the lines above are all there is
        return f"some files {were} written: see the lines above for why"
    if len(said) == 1:
        ((word, fix),) = said.items()
        return f"some files {were} written: see '{word}' above ({fix})"
    words = " / ".join(f"'{w}'" for w in said)
    return f"some files {were} written: see {words} above ({'; '.join(f'{w}: {f}' for w, f in said.items())})"


def cmd_uninstall(args: argparse.Namespace) -> int:
    from skill_retriever.advice import command
    from skill_retriever.components.install import uninstall
    from skill_retriever.components.install.still_required import StillRequiredError
    from skill_retriever.components.install.target import TargetRefusedError
    from skill_retriever.json_text import dumps
    from skill_retriever.safety.terminal import printable, printable_json

    where = ["--user"] if args.user else ["--target", args.target]
    try:
        report = uninstall(args.ids, args.target, user=args.user, force=args.force, dry_run=args.dry_run)
    except TargetRefusedError as exc:  # what the dry run reports as refused: exit as it does
        return _refused(args, str(exc))
    except StillRequiredError as exc:  # its ways on as commands to type (exit 2, as any refused call)
        again = command(["uninstall", *exc.asked, *exc.refs, *where, *(["--dry-run"] if args.dry_run else [])])
        exc.args = (exc.advice(again, "add --force"),)
        raise
    if args.json:
        print(printable_json(dumps(report.to_dict())))
    else:  # what stays recorded is finished by a command that runs as printed, --target and all
        again = command(["uninstall", *report.left_ids, *where])
        print("\n".join(printable(line) for line in report.lines(again)))
    return 0 if report.ok else 1


def _refused(args: argparse.Namespace, why: str, plan: Any = None) -> int:
    """Say that the target refused the whole run, in the dry run's words (its ``refused:``
    line; ``"refused"`` in ``--json``, with the refused ``plan``'s keys where an install
    gave one, as its dry run's answer has them), and exit as the dry run does: 1, a state
    of the target the user fixes (a read-only folder, a ``.claude`` link to nothing), where
    2 means the command itself was wrong."""
    from skill_retriever.json_text import dumps
    from skill_retriever.safety.terminal import printable, printable_json

    if args.json:
        said = plan.to_dict() if plan is not None else {}
        print(printable_json(dumps({**said, "applied": False, "ok": False, "nothing_written": True, "refused": why})))
    else:
        print(printable(f"refused: {why}"))
    return 1


def cmd_mcp(args: argparse.Namespace) -> int:
    from skill_retriever.adapters.mcp_server import serve

    serve(args.index_dir, chroma_url=args.chroma_url, principals=_principals(args.principals))
    return 0
