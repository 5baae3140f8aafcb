"""What every ``skill-retriever`` subcommand shares: the index options and how an index is
opened from them. Its own module so that feature commands (benchmark, install, mcp) use
the same options without importing the main CLI module."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

DEFAULT_INDEX_DIR = os.environ.get("SKILL_RETRIEVER_INDEX", ".skill-retriever")

__all__ = ["DEFAULT_INDEX_DIR", "add_index_options", "open_index"]


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


def open_index(args: argparse.Namespace, *, create: bool = False) -> Index:
    """The index the options name; ``create`` makes a new one (the ``index`` command only).
    A new index uses ``--embedder`` when the command has it; an existing one keeps its own."""
    from skill_retriever.stores.embedder import embedder_for
    from skill_retriever.stores.index import Index

    name = getattr(args, "embedder", None)
    return Index.open(
        args.index_dir, chroma_url=args.chroma_url, create=create, embedder=embedder_for(name) if name else None
    )
