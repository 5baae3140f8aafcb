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
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No cycle collection in the body; the collector's own state (off, if a caller turned
    it off, or another thread is in here) is left as found."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


__all__ = ["paused"]
