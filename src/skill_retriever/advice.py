"""The ``skill-retriever ...`` commands a message advises, written so they run as printed.

A command that acts on an index finds the default one by itself (``$SKILL_RETRIEVER_INDEX``,
else ``.skill-retriever`` in the working folder, as `cliargs.DEFAULT_INDEX_DIR`); any other
needs ``--index-dir``, or, copied from the message, it fails with "no index at
.skill-retriever". `command` adds it whenever the index in use is not that default, and
quotes every word for a POSIX shell. Library code that does not know how it was invoked
passes the index path it does know (`Index.path`); a message of the Python API reads the
same, which names the index it was about.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path

__all__ = ["Placeholder", "Word", "command", "default_index_dir", "env_index_dir", "is_default_index"]

#: What names the default index; read when a message is written (the shell the command is
#: pasted into is the one this process was started from).
INDEX_ENV = "SKILL_RETRIEVER_INDEX"
DEFAULT_INDEX_NAME = ".skill-retriever"

Word = str | os.PathLike[str]


class Placeholder(str):
    """A word the user fills in (``NAME``, ``<sources>``): shown as it is, not quoted."""

    __slots__ = ()


def env_index_dir() -> str | None:
    """``$SKILL_RETRIEVER_INDEX``, or None when it is unset or blank: ``VAR= cmd`` and the
    ``$DIR`` of an unset variable mean "not set", as a shell's ``${VAR:-default}`` reads
    them (the CLI refused a blank one as an empty ``--index-dir`` no one had given)."""
    value = os.environ.get(INDEX_ENV, "")
    return value if value.strip() else None


def default_index_dir() -> Path:
    """The index a command finds without ``--index-dir``."""
    return Path(env_index_dir() or DEFAULT_INDEX_NAME)


def is_default_index(index_dir: Word) -> bool:
    """Whether ``index_dir`` is the index a command finds by itself (compared with links
    resolved, so ``./.skill-retriever`` and its absolute path are the default too)."""
    return os.path.realpath(index_dir) == os.path.realpath(default_index_dir())


def _shown(word: Word) -> str:
    return word if isinstance(word, Placeholder) else shlex.quote(os.fspath(word))


def command(words: Sequence[Word], index_dir: Word | None = None) -> str:
    """``skill-retriever WORDS...``, each word quoted (a `Placeholder` as it is), ending in
    ``--index-dir DIR`` when ``index_dir`` is given and is not the default index.

    Args:
        words: The subcommand and its arguments, e.g. ``["remove-source", name]``.
        index_dir: The index the command is to act on; None when unknown (no option added).
    """
    shown = ["skill-retriever", *(_shown(w) for w in words)]
    if index_dir is not None and not is_default_index(index_dir):
        shown += ["--index-dir", _shown(index_dir)]
    return " ".join(shown)
