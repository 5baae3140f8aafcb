"""SIGTERM handled as Ctrl-C is, while a CLI command runs.

``timeout``, systemd and ``docker stop`` end a process with SIGTERM, whose default action
kills it where it stands: the first ``index`` run of a new index, stopped so, left an empty
index with a run mark, exit 143 and no word (Ctrl-C took the new folder back and said so).
While :func:`sigterm_as_interrupt` holds, SIGTERM raises :class:`Terminated`, a
``KeyboardInterrupt``, so the same cleanup runs and the same message is shown.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["EXIT_TERMINATED", "Terminated", "sigterm_as_interrupt"]

#: A shell's exit status for a process ended by SIGTERM (128 + 15).
EXIT_TERMINATED = 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """The process was sent SIGTERM (raised where it was, as Ctrl-C raises KeyboardInterrupt)."""


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` inside; the handler before is put back after
    (``main`` is also called in-process, by tests and by programs). Only the main thread
    may set a handler: elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
