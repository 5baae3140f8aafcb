"""A progress bar's callback for one write batch of ``index``: moved as each step of the
batch's texts is embedded (`Index.upsert`'s ``progress``), then by what the batch did
not embed (unchanged items, texts whose vectors it held). Before, the bar moved once per
batch of 256 items: a minute or more at 0 % on busy cores, with no rate."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["batch_progress"]


@contextmanager
def batch_progress(progress: Callable[[int], None] | None, size: int) -> Iterator[Callable[[int], None] | None]:
    """The callback for one batch of ``size`` items (None without a bar). Steps move the
    bar short of the batch's end; the block's end, once it ran without an error (the batch
    committed), moves it the rest: a caller reading the callback's total as what is
    durable (a run that stops itself after the first batch) reads no more than that."""
    if progress is None:
        yield None
        return
    moved = 0

    def step(n: int) -> None:
        nonlocal moved
        if (give := min(n, size - 1 - moved)) > 0:
            moved += give
            progress(give)

    yield step
    if size > moved:
        progress(size - moved)
