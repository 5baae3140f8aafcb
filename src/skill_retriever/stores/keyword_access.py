"""BM25's term statistics over the items a caller may see.

BM25 weighs a word by how many documents hold it (idf: the document frequency and the
count N) and a document by its length against the mean. Counted over every item, private
ones too, a private item moved how a visible one scored: a public caller could learn
whether a rare word is in some private item by watching a visible item's keyword score.
So a caller whose access hides keyword documents searches them with the statistics of
those it may see (``KeywordSnapshot.seen_through``): each visible item scores as in an
index of only those (tests/test_keyword_stats_private.py).

Only access decides: kinds, tags and a time window are the caller's own choice, no secret,
so they search with the statistics of everything the caller may see. A caller who sees
every item (no labels in the index, or the principal ``"*"``) gets the snapshot's own
statistics at no cost; any other builds its view once per snapshot and access.

Every keyword search made for a caller goes through ``IndexSnapshot.search_keywords`` with
its filters (the channel, its time window's hits, each ask of ``cover_clauses``, each missing
component of ``fill_gaps``, the keyword backing of ``confidence``), so all read these
statistics. The "why" of an answer (``components.word_matches``) reads only which words an
item's own stored terms hold, no statistic. The "nothing fits" line is drawn over what the
caller may see the same way (`calibration.access_fit`), and so are the settings the index
suggests (`calibration.defaults.index_defaults`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Protocol, TypeVar

from skill_retriever.filters import Filters
from skill_retriever.model import Node
from skill_retriever.stores.keywords import KeywordSnapshot

V = TypeVar("V")


class _Snapshot(Protocol):
    """What this reads of an ``IndexSnapshot`` (named here, not imported: the snapshot
    imports this module)."""

    @property
    def keywords(self) -> KeywordSnapshot: ...

    @property
    def nodes(self) -> Mapping[str, Node]: ...

    @property
    def has_access_labels(self) -> bool: ...

    def memo(self, table: str, key: Hashable, build: Callable[[], V], size: int = 1) -> V: ...

#: Views kept per snapshot (the accesses most recently searched with).
VIEWS_KEPT = 8


def keywords_seen_by(snapshot: _Snapshot, filters: Filters) -> KeywordSnapshot:
    """``snapshot.keywords`` with BM25's statistics over the documents ``filters``' access
    lets the caller see; the snapshot's own when that is every one."""
    if filters.sees_all_labels(snapshot.has_access_labels):
        return snapshot.keywords
    seer, nodes = filters.visibility(), snapshot.nodes

    def view() -> KeywordSnapshot:
        # A keyword document with no item here is no item the caller may see.
        return snapshot.keywords.seen_through(lambda i: (n := nodes.get(i)) is not None and seer.can_see(n))

    return snapshot.memo("keyword statistics", filters.principals, view, VIEWS_KEPT)


__all__ = ["VIEWS_KEPT", "keywords_seen_by"]
