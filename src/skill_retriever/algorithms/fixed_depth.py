"""Fusion over a fixed depth, so that asking for more results only appends to the answer.

Each channel's list is made at least ``k`` long (``context.resolve``), but a fusion that
reads whole lists depends on how long they are: min-max normalisation takes its lower
bound from a list's last entry, and RRF adds a share for every rank an item holds. So a
larger ``k`` moved every fused score and reordered the top ("audit a smart contract" on
the Trail of Bits skills: #3 and #4 swapped between ``-k 10`` and ``-k 40``, and even
#1's score moved), where a caller expects a larger ``k`` to append results.

Here only the first ``depth`` entries of each list (``channel_depth`` as configured, 50 by
default) are fused, exactly as before (:func:`head_of`); an item that every channel ranks
below ``depth`` comes after all of them (:func:`with_deeper`), by the best rank any
channel gives it, with score 0 (what an entry past the depth adds to a fused score, as one
a channel did not list). Its order then depends on nothing a longer list adds: the items
whose best rank is ``r`` are the same whatever the lists' length past ``r``. So the first
``n`` results of any ``k`` are the first ``n`` of every larger ``k``, with the same scores,
and nothing changes while ``k`` is at most the depth. For that the lists' first ``depth``
entries must not depend on their length either: :func:`searched_past_depth` makes a
channel's list that way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, TypeVar

from skill_retriever.algorithms.rrf import FusedItem

__all__ = ["DEEPER_SCORE", "head_of", "searched_past_depth", "with_deeper"]

T = TypeVar("T")


class _Hit(Protocol):
    @property
    def id(self) -> str: ...


H = TypeVar("H", bound=_Hit)

#: The fused score of an item that only entries past the depth list.
DEEPER_SCORE = 0.0


def head_of(rankings: Mapping[str, Sequence[T]], depth: int, whole: Collection[str] = ()) -> dict[str, list[T]]:
    """Each list of ``rankings`` cut to its first ``depth`` entries; the channels in
    ``whole`` kept whole (a list whose length does not follow ``k``)."""
    return {ch: list(items) if ch in whole else list(items[:depth]) for ch, items in rankings.items()}


def with_deeper(
    head: Sequence[FusedItem],
    rankings: Mapping[str, Sequence[str]],
    depth: int,
    weights: Mapping[str, float] | None = None,
) -> list[FusedItem]:
    """``head`` (the fusion of the lists' first ``depth`` entries), then each item that
    only entries past ``depth`` list, by its best rank in any channel (equal ranks: the
    heavier channel's first, then by id), each with score `DEEPER_SCORE` and its ranks.

    Args:
        head: The fused items of the cut lists, in their order.
        rankings: Channel -> item ids, best first, as long as they came.
        depth: How many entries of each list the head fused.
        weights: Channel -> weight; a channel weighing 0 is off (1.0 when not named).
    """
    weights = weights or {}
    fused = {f.id for f in head}
    deeper: dict[str, dict[str, int]] = {}
    for channel, items in rankings.items():
        if weights.get(channel, 1.0) == 0:
            continue
        for rank, item in enumerate(items[depth:], depth + 1):
            if item not in fused:
                deeper.setdefault(item, {}).setdefault(channel, rank)  # a repeat keeps its first rank

    def order(item: str) -> tuple[int, float, str]:
        ranks = deeper[item]
        best = min(ranks.values())
        return best, -max(weights.get(c, 1.0) for c, r in ranks.items() if r == best), item

    tail = [FusedItem(id=i, score=DEEPER_SCORE, ranks=MappingProxyType(deeper[i])) for i in sorted(deeper, key=order)]
    return [*head, *tail]


def searched_past_depth(search: Callable[[int], Sequence[H]], depth: int, n: int) -> list[H]:
    """A channel's list ``n`` long whose first ``depth`` entries are ``search(depth)``'s.

    ``search(n)`` alone is not that: a search cuts its list among items whose scores tie
    at the cut as it happens to (a top-``n`` partition), and copies of one file tie
    exactly, so the 50th entry of a 50-long list and of a 60-long one could be two
    different copies, and the fused top moved with ``k``. The entries past ``depth`` are
    those of ``search(n)`` that the first search did not list, in its order (none scores
    above the first search's last).
    """
    head = list(search(min(depth, n)))
    if n <= depth or len(head) < depth:  # fewer than `depth` found: there is nothing deeper
        return head
    listed = {h.id for h in head}
    return head + [h for h in search(n) if h.id not in listed]
