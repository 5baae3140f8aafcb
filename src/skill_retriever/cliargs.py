"""What every ``skill-retriever`` subcommand shares: the index options and how an index is
opened from them. Its own module so that feature commands (benchmark, install, mcp) use
the same options without importing the main CLI module."""

from __future__ import annotations

import argparse
import math
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skill_retriever.exceptions import IndexLockedError, SkillRetrieverError
    from skill_retriever.stores.index import Index

DEFAULT_INDEX_DIR = os.environ.get("SKILL_RETRIEVER_INDEX", ".skill-retriever")

__all__ = [
    "DEFAULT_INDEX_DIR", "add_index_options", "add_lock_wait_option", "error_text", "lock_wait_of", "open_index",
]


def add_index_options(sp: argparse.ArgumentParser) -> None:
    """``--index-dir``, ``--chroma-url`` and ``--json``."""
    add_location_options(sp)
    add_json_option(sp)


def add_location_options(sp: argparse.ArgumentParser) -> None:
    """``--index-dir`` and ``--chroma-url``: for a command that reads an index."""
    sp.add_argument("--index-dir", default=DEFAULT_INDEX_DIR, help=f"index directory (default {DEFAULT_INDEX_DIR})")
    sp.add_argument("--chroma-url", default=None, help="search through a Chroma server (e.g. http://127.0.0.1:8000)")


def add_json_option(sp: argparse.ArgumentParser) -> None:
    """``--json``: for a command that prints a result."""
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def add_lock_wait_option(sp: argparse.ArgumentParser) -> None:
    """``--lock-wait``: for a command that writes the index. One process writes an index at
    a time; without it a second writer fails at once with a message naming this option."""
    sp.add_argument(
        "--lock-wait",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help="when another process is writing the index, wait up to this long for it (default 0: fail at once)",
    )


def _seconds(text: str) -> float:
    """A ``--lock-wait`` value: a finite number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, got {text}")
    return value


def lock_wait_of(args: argparse.Namespace) -> float:
    """The command's ``--lock-wait`` (0 for a command without it: it does not write)."""
    return float(getattr(args, "lock_wait", 0.0))


def error_text(exc: SkillRetrieverError, args: argparse.Namespace) -> str:
    """What the CLI prints for an error: its message, except that another process writing
    the index is told in the command's terms (``--lock-wait``, not the Python parameter)."""
    from skill_retriever.exceptions import IndexLockedError

    return _locked_advice(exc, args) if isinstance(exc, IndexLockedError) else str(exc)


def _locked_advice(exc: IndexLockedError, args: argparse.Namespace) -> str:
    """The CLI's words for another process writing the index: the message names
    ``--lock-wait`` where the command has it, not the Python parameter."""
    from skill_retriever.stores.lock import locked_message

    if exc.directory is None:  # raised without the details: its own words are all there is
        return str(exc)
    how = "pass --lock-wait SECONDS" if hasattr(args, "lock_wait") else None
    return locked_message(exc.directory, exc.holder, exc.waited_s, how, "--index-dir")


def open_index(args: argparse.Namespace, *, create: bool = False) -> Index:
    """The index the options name; ``create`` makes a new one (the ``index`` command only).
    A new index uses ``--embedder`` when the command has it; an existing one keeps its own.
    A command with ``--lock-wait`` waits that long for another writer at its first write."""
    from skill_retriever.stores.embedder import embedder_for
    from skill_retriever.stores.index import Index

    name = getattr(args, "embedder", None)
    return Index.open(
        args.index_dir, chroma_url=args.chroma_url, create=create, embedder=embedder_for(name) if name else None,
        lock_wait_s=lock_wait_of(args),
    )
