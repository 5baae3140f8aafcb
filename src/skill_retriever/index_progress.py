"""The progress ``skill-retriever index`` shows on stderr: one bar per source, moved as its
items are written (and embedded).

Shown with ``-v``, and whenever stderr is a terminal: a first run of a large source embeds
for minutes, and a silent terminal reads as a hang. Never with ``--json``, nor when stderr
is piped or redirected (a log or a program reading it gets no carriage-return bars).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from skill_retriever.safety.terminal import printable

if TYPE_CHECKING:
    from skill_retriever.indexing import Progress

__all__ = ["ProgressBars", "show_progress"]


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
