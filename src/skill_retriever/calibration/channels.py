"""Channel weights and the route, learned per index and stored with its calibration.

Nothing is learned here yet: every factor 1 and the router's choice. How much each channel
counts is decided elsewhere today: per query, from each channel's own score distribution
(``fusion="scores"``, `algorithms.score_fusion`, which a catalogue suggests), and per
corpus kind (`calibration.defaults`).

Why it is empty (README, "Skills, tools and incidents"): on the benchmark's catalogue
sets the forced smart route beats the router's choice on seven of eight and loses 5.6
nDCG@10 on ultratool, where the ppr route wins, and no label-free signal tried so far
predicts which; most of the smart route's lead is its gap filling (the row "route smart,
no gap filling"), which embeds the query's uncovered parts: the forced smart route costs
1.6-3.3x the dense search (the latency row "route smart"), against 1.25-1.7x for the
default.

What fills it must return channel factors and an optional route, with the evidence that
chose them (the package docstring's contract, :mod:`skill_retriever.calibration`).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["channel_calibration"]


def channel_calibration(snapshot: IndexSnapshot) -> tuple[dict[str, float], str | None, dict[str, Any]]:
    """``(channel factors, route, evidence)`` for this snapshot."""
    return {}, None, {}
