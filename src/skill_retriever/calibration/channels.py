"""Channel weights and the route, learned per index from pseudo-queries (issue 14).

Placeholder: every weight 1 and the router's choice, until the pseudo-query calibration
lands here (see the package doc for the contract: a mapping of channel factors and an
optional route, with the evidence that chose them).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["channel_calibration"]


def channel_calibration(snapshot: IndexSnapshot) -> tuple[dict[str, float], str | None, dict[str, Any]]:
    """``(channel factors, route, evidence)`` for this snapshot."""
    return {}, None, {}
