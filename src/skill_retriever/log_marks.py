"""Marks on log lines, for the handlers that show them.

The library logs under ``skill_retriever``; a program or a server's log shows every line.
Some lines say what each answer also carries as a note (``stores.search_notes``: the
index's Chroma server did not answer, so vectors were searched in memory): a command that
prints the answer, the CLI's ``query``, leaves them off stderr, where they would be said
twice (`notes_in_answers`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["SAID_IN_ANSWERS", "notes_in_answers", "said_elsewhere"]

#: ``extra`` of a log line whose words every answer of the snapshot also carries.
SAID_IN_ANSWERS = {"said_in_answers": True}


def said_elsewhere(record: logging.LogRecord) -> bool:
    """A handler filter: False (drop) for a line marked `SAID_IN_ANSWERS`."""
    return not getattr(record, "said_in_answers", False)


@contextmanager
def notes_in_answers(on: bool) -> Iterator[None]:
    """While it lasts (and ``on``), the library's lines marked `SAID_IN_ANSWERS` are not
    logged: a filter on the ``skill_retriever`` logger, which logs them, taken off again
    after, so a program that runs the CLI in its own process keeps them afterwards."""
    library = logging.getLogger("skill_retriever")
    if on:
        library.addFilter(said_elsewhere)
    try:
        yield
    finally:
        if on:
            library.removeFilter(said_elsewhere)
