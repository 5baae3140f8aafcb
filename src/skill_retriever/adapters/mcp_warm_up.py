"""The MCP server's warm-up: what the first tool call would pay for, done in the background
while the client connects, and stopped cleanly when the client leaves first.

A client that closed stdin while the warm-up was still loading the model ended the
server with SIGABRT ("terminate called without an active exception", 3 runs of 8 over
a real index): the main thread closed the index and the interpreter exited while the
daemon thread was inside torch. `warming` now asks the warm-up to stop at its next step
and waits for it (at most `JOIN_S`) before the caller closes the index. Serving never
waits for it: the thread starts before the server and is joined only at shutdown.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from skill_retriever.components.service import ComponentService
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.retriever import Retriever

__all__ = ["JOIN_S", "warm_up", "warming"]

#: The longest shutdown waits for a warm-up still loading the model (a cold load from
#: disk takes seconds); past it the process exits as before, rather than hang.
JOIN_S = 60.0


@contextmanager
def warming(retriever: Retriever, principals: Sequence[str] | None) -> Iterator[threading.Thread]:
    """Run `warm_up` in a background thread for the body's duration; on leaving, stop it
    and wait for it (at most `JOIN_S`), so that nothing it reads is closed under it."""
    stop = threading.Event()
    thread = threading.Thread(
        target=warm_up, args=(retriever, principals), kwargs={"stop": stop}, name="warm-up", daemon=True
    )
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        thread.join(JOIN_S)


def warm_up(retriever: Retriever, principals: Sequence[str] | None, stop: threading.Event | None = None) -> None:
    """Everything the first search would pay for, now; then ``ready`` on stderr. ``stop``
    set: the steps not yet begun are skipped, and nothing is said."""
    stop = stop or threading.Event()
    started = time.perf_counter()
    try:
        spent = retriever.warm_up()  # the model, the snapshot's views, one search
        if stop.is_set():
            return
        start = time.perf_counter()  # then what only the component tools add (folding, closure)
        service = ComponentService(retriever.index, retriever, principals=principals)
        service.search("warm up", k=1)
        spent["components"] = round(time.perf_counter() - start, 3)
        # what the caller may see, as the status resource counts it: the whole index's
        # count told an operator starting ``--principals alice`` of items alice never sees
        items = service.view().status()["nodes"]
    except SkillRetrieverError as exc:
        if not stop.is_set():  # the index closing under a stopped warm-up is no failure to report
            print(f"skill-retriever: warm-up failed: {exc}", file=sys.stderr, flush=True)
        return
    if stop.is_set():
        return
    print(
        f"skill-retriever: ready ({items} items{_seen_by(principals)}; warmed in "
        f"{time.perf_counter() - started:.1f} s: {spent})",
        file=sys.stderr,
        flush=True,
    )


def _seen_by(principals: Sequence[str] | None) -> str:
    """Whose items the ready line counts: nothing to add for ``*`` (everything)."""
    if principals is not None and "*" in principals:
        return ""
    if not principals:
        return " that are public"
    return f" visible to {', '.join(principals)}"
