"""The `Retriever`'s answer cache, keyed so that no answer outlives a write."""

from __future__ import annotations

import copy
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from skill_retriever.config import RetrievalConfig
from skill_retriever.responses import SearchResponse
from skill_retriever.stores.snapshot import IndexSnapshot


def answer_key(
    query: str, config: RetrievalConfig, spec: Mapping[str, Any], snapshot: IndexSnapshot, index: object, reranker: object
) -> str:
    """The cache key of one search: the query, every setting, the filters, the snapshot it
    reads, and the index and reranker objects it runs with."""
    # With the wall clock as "now", a time window moves: answers last one minute.
    clock = int(time.time() // 60) if config.now is None else 0
    return json.dumps(
        [query, repr(config), spec, snapshot.stamp, id(index), id(reranker), clock],
        sort_keys=True,
        default=str,
    )


class AnswerCache:
    """At most ``size`` answers, least recently used dropped first (0 = keep none);
    safe to share between threads."""

    def __init__(self, size: int) -> None:
        self._cache: OrderedDict[str, SearchResponse] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: str) -> SearchResponse | None:
        """A copy of the answer kept under ``key``, marked as a cache hit, or None."""
        if not self._size:
            return None
        with self._lock:
            hit = self._cache.get(key)
            if hit is None:
                return None
            self._cache.move_to_end(key)
        # Deep copies, in and out: a caller who edits its answer (a result's channels, a
        # phase's stats, the fit) must not edit what the next caller is served.
        answer = copy.deepcopy(hit)
        return replace(answer, stats={**answer.stats, "cache": {"hit": True}})

    def put(self, key: str, response: SearchResponse) -> None:
        """Keep a copy of ``response`` under ``key``."""
        if not self._size:
            return
        kept = copy.deepcopy(response)
        with self._lock:
            self._cache[key] = kept
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
