"""Fold the copies of a component and still answer ``k``: search again, asking for more.

Folding the copies of one component (`collapse_ranked`) can leave fewer than ``k``
entries: six repositories hosting one skill take six places of a fetch of six and leave
one entry. So while the folded list is short of ``k``, and the last search filled what it
was asked for (a search that returns fewer holds no more at any fetch: its channels dig
to a fixed depth), the search runs again asking for twice as many, up to ``cap``.

A larger search may rank its top differently (reranking and clause coverage look at the
top ``k`` they are asked for). So what an earlier search ranked keeps its place, its
result and its folding; a later search only appends the ids it adds, in its own order.
An entry never moves once ranked, and the answer depends only on the query, the settings
and the snapshot (each search is deterministic), not on how many searches it took.

The answer may leave out some of the folded entries (``drop_conflicts`` of a component
search drops the losing side of each conflict): ``shown`` says how many it keeps, and the
search goes on while that is short of ``k``, by the same rule, so a dropped entry's place
goes to the next one down rather than staying empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skill_retriever.components.dedup import Collapsed, DedupConfig, collapse_ranked
from skill_retriever.responses import SearchResponse, SearchResult

if TYPE_CHECKING:
    from skill_retriever.components.view import CallerView

__all__ = ["CAP_TIMES_K", "Refilled", "first_fetch", "fold_to_k"]

#: The largest fetch is this many times ``k``: a query whose top is all copies of a few
#: components stops there rather than reading the whole index.
CAP_TIMES_K = 10


def first_fetch(k: int, times: int) -> int:
    """What the first search asks for: ``times`` x ``k``, at most 100 (or ``k`` itself when
    that is more), room for a few copies without a second search."""
    return min(times * k, max(k, 100))


@dataclass(frozen=True)
class Refilled:
    """Searches folded until ``k`` distinct components (or no more).

    Attributes:
        response: The last search (its route, fit, stats and warnings describe the answer).
        hits: Every visible result of every search, by id, in rank order; an id keeps the
            result of the first search that ranked it.
        collapsed: ``hits`` folded: representatives in rank order, each with its copies.
        fetched: What the last search was asked for.
        searches: How many searches ran.
        searches_ms: Each search's `SearchResponse.total_ms`, in the order they ran.
    """

    response: SearchResponse
    hits: Mapping[str, SearchResult]
    collapsed: Collapsed
    fetched: int
    searches: int
    searches_ms: tuple[float, ...] = ()

    def stats(self) -> dict[str, Any]:
        """What folding did, for an answer's ``stats`` beside the last search's phases. Its
        ``ms`` is the searches before the last (their phases are not in those stats), so
        the phases' ``ms`` and it add up to every search's (``SearchResponse.total_ms``
        of the answer); ``total_ms`` says that sum. A caller that read the phases alone
        was told of one search of several: the first, which loads the model, went unsaid."""
        return {
            "fetched": self.fetched,
            "searches": self.searches,
            "distinct": len(self.collapsed.ids),
            "copies_folded": sum(len(v) for v in self.collapsed.folded.values()),
            "ms": round(sum(self.searches_ms[:-1]), 3),
            "total_ms": round(sum(self.searches_ms), 3),
        }


def fold_to_k(
    search: Callable[[int], SearchResponse],
    view: CallerView,
    k: int,
    *,
    first: int | None = None,
    cap: int | None = None,
    config: DedupConfig | None = None,
    shown: Callable[[SearchResponse, Collapsed], int] | None = None,
) -> Refilled:
    """Search (``search(fetch)`` runs one search asking for ``fetch`` results) and fold
    until ``k`` distinct components, a search that returned fewer than it was asked for,
    or a fetch of ``cap`` (module docstring).

    Args:
        search: One search of the caller's query and settings, for a given fetch.
        view: What the caller may see; other ids are left out.
        k: Distinct components wanted.
        first: The first fetch (default ``k``).
        cap: The largest fetch (default `CAP_TIMES_K` times ``k``; never below ``first``).
        config: Near-duplicate thresholds (default `DedupConfig()`).
        shown: How many of the folded entries the answer shows, given the last search
            and the folding (default: all of them). Called once a pass, the last call for
            the `Refilled` returned, so a caller may keep what it chose there.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
        raise ValueError(f"k must be an integer > 0, got {k!r}")
    fetch = max(1, first if first is not None else k)
    cap = max(fetch, cap if cap is not None else CAP_TIMES_K * k)
    hits: dict[str, SearchResult] = {}
    searches = 0
    times: list[float] = []
    while True:  # the fetch grows every pass and stops at cap: this ends
        response = search(fetch)
        searches += 1
        times.append(response.total_ms)
        for r in response.results:  # earlier ranks first: a later search only appends
            if r.id not in hits and view.sees(r.id):
                hits[r.id] = r
        collapsed = collapse_ranked(view, list(hits), config=config or DedupConfig())
        left = shown(response, collapsed) if shown is not None else len(collapsed.ids)
        if left >= k or len(response.results) < fetch or fetch >= cap:
            return Refilled(response, hits, collapsed, fetch, searches, tuple(times))
        fetch = min(2 * fetch, cap)
