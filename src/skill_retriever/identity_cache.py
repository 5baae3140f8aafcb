"""A small thread-safe LRU whose entries hold only for the very objects they were built from.

Several per-query shortcuts cache something derived from immutable snapshots: a node's
word set (from the Node object), a filter's row mask (from the matrix and node snapshots),
the masked matrices (from the matrix snapshot and the mask), a resolved config (from the
base config). Each entry keeps those source objects as *guards* and is served only when
the caller's are the same objects (``is``), so a new snapshot, an updated node or a new
config never reads a stale entry, and an ``id()`` reused after garbage collection cannot
match by accident.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityLRU(Generic[V]):
    """At most ``size`` entries, least recently used evicted first.

    Args:
        size: Most entries kept (>= 1).
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be >= 1, got {size}")
        self.size = size
        self._items: OrderedDict[Hashable, tuple[tuple[object, ...], V]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get_or_build(self, key: Hashable, guards: tuple[object, ...], build: Callable[[], V]) -> V:
        """The cached value for ``key`` if it was built from these very ``guards``, else
        ``build()`` (run outside the lock: two threads may both build, one value wins)."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and len(hit[0]) == len(guards) and all(a is b for a, b in zip(hit[0], guards)):
                self._items.move_to_end(key)
                return hit[1]
        value = build()
        with self._lock:
            self._items[key] = (guards, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value
