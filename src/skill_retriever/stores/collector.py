"""Python's cycle collector while a large index is read, and after.

Reading 2wikimultihopqa (61,079 items, 151,428 edges) makes some 2.5 million objects,
none of them garbage. The collector walks every tracked object each time the heap has
grown by a quarter, so the read paid for five full walks of a growing heap, and the first
query for three more of the whole of it (1.3 s of a 7 s ``query`` run, in ``gc.callbacks``).

`paused` turns collection off for a body and back on as found: around reading and applying
rows (every reader, servers too), and around the ``query`` command's one answer, whose
process then exits. What the answer leaves in cycles is collected once the collector is
back on (peak RSS on 2wiki: 724 MB either way), and a caller that runs the CLI in-process
gets its collector back as it was.

Threads (a server's readers load snapshots while others search) share one collector, so
the pauses nest under a lock: the first to enter notes its state and turns it off, the
last to leave puts that state back. Each noting its own state was racy: one that read
"off" while another was paused, and turned it off after that other had turned it back
on, left it off for the life of the process.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_held = 0  # bodies in `paused` now, all threads together
_was_enabled = True  # the collector's state when the first of them entered


@contextmanager
def paused() -> Iterator[None]:
    """No cycle collection in the body; the collector's state from before the first of
    the bodies running now (off, if a caller turned it off) is put back by the last."""
    global _held, _was_enabled
    with _lock:
        if _held == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _held += 1
    try:
        yield
    finally:
        with _lock:
            _held -= 1
            if _held == 0 and _was_enabled:
                gc.enable()


__all__ = ["paused"]
