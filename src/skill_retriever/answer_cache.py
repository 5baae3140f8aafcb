"""The `Retriever`'s answer cache, keyed so that no answer outlives a write.

An answer it serves reports the time of the call that served it (`served_stats`): its
phases did not run, so they carry no ``ms``; ``stats["cache"]`` holds this call's ``ms``
and the phase times of the search that computed the answer, ``original_ms``. Served with
the computing search's ``ms``, a hit added up (``--json``, the server graph's output, a
latency column) read as a search at the first one's time.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from skill_retriever.config import RetrievalConfig
from skill_retriever.config_repr import every_setting
from skill_retriever.dated_items import carries_dates
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.filters import Filters
from skill_retriever.querytext import clean_query, search_text_of
from skill_retriever.responses import SearchResponse
from skill_retriever.stores.snapshot import IndexSnapshot

log = logging.getLogger("skill_retriever")


def answer_key(
    query: str, config: RetrievalConfig, spec: Mapping[str, Any], snapshot: IndexSnapshot, index: object, reranker: object
) -> str:
    """The cache key of one search: the query, every setting, the filters, the snapshot it
    reads, and the index and reranker objects it runs with; and the minute, when the
    answer depends on the wall clock (:func:`reads_the_clock`)."""
    # With the wall clock as "now", a query's time window moves: such answers last one
    # minute. Every answer did, so a server asked the same question an hour apart
    # computed it again though nothing it read had changed.
    clock = wall_minute() if config.now is None and reads_the_clock(query, config, carries_dates(snapshot, Filters.from_spec(spec))) else 0
    return json.dumps(
        [query, every_setting(config), spec, snapshot.stamp, id(index), id(reranker), clock],
        sort_keys=True,
        default=str,
    )


def wall_minute() -> int:
    """Minutes since the epoch, by the wall clock."""
    return int(time.time() // 60)


def reads_the_clock(query: str, config: RetrievalConfig, dated: bool = False) -> bool:
    """Whether a search of ``query`` reads the current time: only when the query names a
    time ("last 24h", "since Monday", "recent"; `querytext.search_text_of`), whose window
    is counted from now. Nothing else does: the since/until filters are absolute times,
    and the temporal channel ranks within the query's window only (no score decays with
    age). Whether a query names a time does not depend on the time it is asked; a day of
    a month ("since Nov 3") names one on an index whose items carry dates (``dated``)."""
    try:
        return search_text_of(clean_query(query, config.max_query_chars), config, dated)[1] is not None
    except SkillRetrieverError:  # refused by the search too: no answer is kept under the key
        return True


class AnswerCache:
    """At most ``size`` answers, least recently used dropped first (0 = keep none);
    safe to share between threads."""

    def __init__(self, size: int) -> None:
        self._cache: OrderedDict[str, SearchResponse] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def holds(self, key: str) -> bool:
        """Whether an answer is kept under ``key`` (no copy made, none served)."""
        with self._lock:
            return key in self._cache

    def get(self, key: str) -> SearchResponse | None:
        """A copy of the answer kept under ``key``, its stats those of a cache hit
        (`served_stats`), or None."""
        if not self._size:
            return None
        start = time.perf_counter()
        with self._lock:
            hit = self._cache.get(key)
            if hit is None:
                return None
            self._cache.move_to_end(key)
        # Deep copies, in and out: a caller who edits its answer (a result's channels, a
        # phase's stats, the fit) must not edit what the next caller is served.
        answer = copy.deepcopy(hit)
        stats = served_stats(answer.stats, start)
        # -v's lines: a hit runs no phase, so without this one it would say nothing at all
        log.info("[skill_retriever][cache] hit ms=%s (the phases did not run; the search that computed the "
                 "answer took %.3f ms)", stats["cache"]["ms"], sum(stats["cache"]["original_ms"].values()))
        return replace(answer, stats=stats)

    def put(self, key: str, response: SearchResponse) -> None:
        """Keep a copy of ``response`` under ``key``."""
        if not self._size:
            return
        kept = copy.deepcopy(response)
        with self._lock:
            self._cache[key] = kept
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)


def served_stats(stats: Mapping[str, Any], start: float) -> dict[str, Any]:
    """The stats of an answer served from the cache, a lookup begun at ``start``
    (``time.perf_counter()``): each phase's figures without its ``ms`` (they describe the
    answer, but the phase did not run now), and ``cache``: ``hit``, this call's ``ms``
    and ``original_ms``, the phase times of the search that computed the answer."""
    phases: dict[str, Any] = {}
    original: dict[str, float] = {}
    for name, st in stats.items():
        if isinstance(st, Mapping) and "ms" in st:
            original[name] = st["ms"]
            st = {k: v for k, v in st.items() if k != "ms"}
        phases[name] = st
    ms = round((time.perf_counter() - start) * 1000.0, 3)
    return {**phases, "cache": {"hit": True, "ms": ms, "original_ms": original}}
