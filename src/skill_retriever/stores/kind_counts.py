"""`kind_counts`: how many nodes of each kind a snapshot holds, cached on it.

Its own module, not one of `passage_views` (which imports SciPy for the walk's views):
``calibration.defaults`` decides from these counts, and ``stats`` reports that decision
without importing SciPy (tests/test_cold_start.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["kind_counts"]


def kind_counts(snap: IndexSnapshot) -> Mapping[str, int]:
    """How many nodes of each kind the snapshot holds (kind value -> count)."""
    return snap.memo("kind_counts", None, lambda: dict(Counter(n.kind.value for n in snap.nodes.values())))
