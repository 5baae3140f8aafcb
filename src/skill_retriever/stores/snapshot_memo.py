"""Bounded memo tables for a snapshot's per-query shortcuts (a write makes a new snapshot)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")


class Memo:
    """Bounded, thread-safe memo tables of one snapshot, one table per purpose."""

    def __init__(self) -> None:
        self._tables: dict[str, OrderedDict[Hashable, Any]] = {}
        self._lock = threading.Lock()

    def get(self, table: str, key: Hashable, build: Callable[[], V], size: int) -> V:
        with self._lock:
            found = self._tables.setdefault(table, OrderedDict())
            if key in found:
                found.move_to_end(key)
                return found[key]  # type: ignore[no-any-return]
        value = build()  # outside the lock: two threads may both build; one value wins
        with self._lock:
            found[key] = value
            while len(found) > size:
                found.popitem(last=False)
        return value
