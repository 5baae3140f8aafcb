"""Command-line values refused before a command runs: an empty path, model or target, and
a ``--chroma-url`` that is no server address, each said as argparse says the command's
other argument errors (``skill-retriever install: error: ... (see skill-retriever install
--help)``).

An empty value is mostly an unset variable (``--out "$OUT"``), and ``Path("")`` is the
working folder: ``benchmark --out ''`` wrote its whole run there, ``index ''`` indexed it,
and ``index --embedder ''`` read as no model named. The library refuses what it is handed
in its own words (a `ConfigError` or `InstallError` that the Python API and MCP tools
raise as they did); the CLI refuses here first, naming the option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

__all__ = ["EMBEDDER_FIX", "check_server_arg", "model_named", "not_empty", "path_named", "source_named", "target_named"]

#: What to do about an empty ``--embedder`` (``index`` and ``benchmark``).
EMBEDDER_FIX = "give a sentence-transformers model name or folder, or leave --embedder out (the bundled all-MiniLM-L6-v2)"


def not_empty(text: str, fix: str) -> str:
    """``text`` unless it is empty or blank; else argparse's error, ``fix`` saying what to give.

    Raises:
        argparse.ArgumentTypeError: ``text`` is empty or blank.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f"is empty; {fix}")
    return text


def path_named(fix: str) -> Callable[[str], Path]:
    """The argparse type of a path option that must not be empty (``--out``, ``--cache``)."""

    def named(text: str) -> Path:
        return Path(not_empty(text, fix))

    named.__name__ = "path"  # argparse names the type in some of its messages
    return named


def source_named(text: str) -> Path:
    """An ``index`` path: an empty one would index the working folder."""
    return Path(not_empty(text, "give a folder or file to index (. for the working folder)"))


def model_named(text: str) -> str:
    """An ``--embedder`` value: an empty one was read as none, the default model, silently."""
    return not_empty(text, EMBEDDER_FIX)


def target_named(doing: str) -> Callable[[str], str]:
    """The argparse type of ``--target`` for ``install`` / ``uninstall`` (``doing``: "install
    into"): an empty one would be the working folder. A string, not a Path, as the library
    takes it."""

    def named(text: str) -> str:
        return not_empty(text, f"give the project folder to {doing}, or --user for your Claude Code folder")

    named.__name__ = "folder"
    return named


def check_server_arg(args: argparse.Namespace) -> None:
    """Refuse a ``--chroma-url`` that names no server address as an argument error of the
    command. The library's check (`server_choice.checked_url`) says what is wrong; the
    Python API raises its `ConfigError` as before.

    Raises:
        CommandArgumentError: The value is blank or not ``http(s)://host[:port]``.
    """
    url = getattr(args, "chroma_url", None)
    if url is None:
        return
    from skill_retriever.exceptions import CommandArgumentError, ConfigError

    if args.command == "move-to-server" and not url.strip():  # there it is required: no "leave it out"
        raise CommandArgumentError(
            f"--chroma-url {url!r} is blank; give the Chroma server to move the index's vectors to, "
            "e.g. http://127.0.0.1:8000"
        )
    from skill_retriever.stores.server_choice import checked_url

    try:
        checked_url(url)
    except ConfigError as exc:
        raise CommandArgumentError(str(exc)) from exc
