"""Channel weights and the route, learned per index and stored with its calibration.

Nothing is learned here yet: every factor 1 and the router's choice. How much each channel
counts is decided elsewhere today: per query, from each channel's own score distribution
(``fusion="scores"``, `algorithms.score_fusion`, which a catalogue suggests), and per
corpus kind (`calibration.defaults`). What this slot is for, and why it is empty: on the
benchmark's catalogue sets the forced smart route beats the router's choice on seven of
eight (nDCG@10 +0.4 to +3.9) and loses 5.6 on ultratool, where the ppr route wins; a
per-index choice needs a label-free signal that predicts which. Single-item pseudo-queries
(an item's own description) cannot see ultratool's gain, which comes from multi-tool
requests. Most of the smart route's lead is its gap filling (the benchmark's row "route
smart, no gap filling"), which costs 13-35 ms of embedding a query on 2 cores, about one
dense search: a default that fills gaps needs them cheaper first. The contract (see the package doc): channel factors and an optional route, with
the evidence that chose them.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["channel_calibration"]


def channel_calibration(snapshot: IndexSnapshot) -> tuple[dict[str, float], str | None, dict[str, Any]]:
    """``(channel factors, route, evidence)`` for this snapshot."""
    return {}, None, {}
