"""A reader whose Chroma server does not answer searches the index's own copy of its vectors.

``items.sqlite`` holds every vector an index on a server has (the server only mirrors
them), yet a reader whose server was down failed outright (``ServerUnreachableError``,
exit 2 for ``query`` and ``stats``' advice "queries fail until then"), while one whose
collections were missing already searched in memory with a warning. Now a read (a query,
``stats``, an MCP search) searches in memory, with a warning that names the server and
says where its answers come from; a write still needs the server (it mirrors each batch).

The server is asked again no more often than :data:`remote.RECHECK_S`, then less and less
often while it stays down (:func:`next_look`, up to :data:`MOST_S`): a server that hangs
holds the request that asks it for the client's timeout, so each look is spaced out.
``remote.reader_remote`` opens a reader's view of the server; ``remote._InStep`` hears of
one that stopped answering since.
"""

from __future__ import annotations

import time
from pathlib import Path

from skill_retriever.exceptions import ServerUnreachableError

__all__ = ["MEANWHILE", "MOST_S", "next_look", "unreached_note"]

#: The longest wait between two looks at a server that failed to answer.
MOST_S = 300.0

#: How a read's answers are said to come about while its server does not answer.
MEANWHILE = "until it answers, reads search the index's own copy of its vectors in memory and writes are refused"


def unreached_note(path: Path, exc: ServerUnreachableError) -> str:
    """The warning of a read of the index at ``path`` whose server did not answer (``exc``
    names the server and what to do)."""
    return f"{exc}; {MEANWHILE} (its vectors are in {path})"


def next_look(failed: int, every: float) -> float:
    """When (``time.monotonic()``) to ask again a server that failed ``failed`` times in a
    row, the first time ``every`` seconds on (``remote.RECHECK_S``), then twice as long each time."""
    return time.monotonic() + min(every * (1 << min(max(failed - 1, 0), 16)), MOST_S)
