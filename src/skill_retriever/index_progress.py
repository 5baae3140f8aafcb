"""The progress ``skill-retriever index`` shows on stderr: one bar per source, moved as its
items are written (and embedded).

Shown with ``-v``, and whenever stderr is a terminal: a first run of a large source embeds
for minutes, and a silent terminal reads as a hang. Never with ``--json``, nor when stderr
is piped or redirected (a log or a program reading it gets no carriage-return bars).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from skill_retriever.safety.terminal import printable

if TYPE_CHECKING:
    from skill_retriever.index_run import IndexRun
    from skill_retriever.indexing import Progress
    from skill_retriever.stores.embedder import Embedder

__all__ = ["Calibrating", "ProgressBars", "duration", "run_timing", "show_progress", "timing_line"]


def show_progress(args: argparse.Namespace, stream: TextIO) -> bool:
    """Whether ``index`` shows progress bars on ``stream`` (its stderr)."""
    if getattr(args, "json", False):
        return False
    return bool(getattr(args, "verbose", False)) or _is_terminal(stream)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a stand-in without isatty, or a closed stream
        return False


class ProgressBars:
    """The bars of one ``index`` run on ``stream``; none when ``shown`` is False.

    Pass :attr:`factory` to `indexing.index_sources`, and :meth:`close` afterwards (a run
    that failed half way leaves its bar open)."""

    def __init__(self, shown: bool, stream: TextIO) -> None:
        self.shown = shown
        self.stream = stream
        self._bars: list[Any] = []

    @property
    def factory(self) -> Callable[[int, str], Progress] | None:
        """``(items, label) -> callback(n)`` for `index_sources`; None when not shown."""
        return self._bar if self.shown else None

    def _bar(self, total: int, label: str) -> Progress:
        from tqdm import tqdm

        bar = tqdm(total=total, desc=printable(f"indexing {label}"), unit="item", file=self.stream)
        self._bars.append(bar)

        def update(n: int) -> None:  # closed once written: its time and rate are this source's own
            bar.update(n)
            if bar.n >= total:
                bar.close()

        return update

    def close(self) -> None:
        for bar in self._bars:
            bar.close()


def duration(seconds: float) -> str:
    """``28.5 s`` under a minute, ``3 min 29 s`` from one."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


class Calibrating:
    """The time the calibration after the writes takes, and how much of it went to loading
    the embedding model (its probe requests are embedded: a model that nothing before
    loaded loads then). Made when calibrating starts; `done` when it ends."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._loaded = _load_seconds(embedder)
        self._started = time.perf_counter()
        self.seconds = 0.0
        self.loading_s = 0.0

    def done(self) -> Calibrating:
        self.seconds = time.perf_counter() - self._started
        self.loading_s = _load_seconds(self._embedder) - self._loaded
        return self


def _load_seconds(embedder: Embedder) -> float:
    from skill_retriever.stores.embedder import SentenceTransformerEmbedder

    return embedder.load_seconds if isinstance(embedder, SentenceTransformerEmbedder) else 0.0


def run_timing(run: IndexRun, total_s: float) -> dict[str, float]:
    """Where the ``total_s`` of one ``index`` run went: reading the sources (each source's
    line shows its own), and the writes, which embed every new text first (the embedding
    model's first load included) and are most of a first run; the rest is calibrating
    (which `timing_line` gives apart when timed: `Calibrating`), removing what a source no
    longer has, and resolving names across sources."""
    reading = sum(s.seconds for s in run.sources)
    writing = sum(w.seconds for w in run.writes)
    return {"total_s": round(total_s, 3), "reading_s": round(reading, 3), "embedding_and_writing_s": round(writing, 3)}


def timing_line(timing: dict[str, float], embedded: int, calibrating: Calibrating | None = None) -> str:
    """The last line of ``index``: the total time and the share each step took (`run_timing`),
    calibrating apart when timed, with the model's load where that came."""
    rest = max(timing["total_s"] - timing["reading_s"] - timing["embedding_and_writing_s"], 0.0)
    steps = "calibrating, removals, names across sources"
    calibrated = ""
    if calibrating is not None:
        rest = max(rest - calibrating.seconds, 0.0)
        steps = "removals, names across sources"
        loading = f" (loading the model {duration(calibrating.loading_s)} of it)" if calibrating.loading_s >= 0.05 else ""
        calibrated = f"calibrating {duration(calibrating.seconds)}{loading}, "
    return (f"took {duration(timing['total_s'])}: reading the sources {duration(timing['reading_s'])}, "
            f"embedding {embedded:,} texts and writing {duration(timing['embedding_and_writing_s'])}"
            f"{' (loading the model included)' if embedded else ''}, "
            f"{calibrated}the rest {duration(rest)} ({steps})")
