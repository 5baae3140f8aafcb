"""An item's dates as a result shows them. An incident, a postmortem or a runbook found
for "since last Monday" or "the outage in October" is judged by when it happened: the
answers said nothing of it, so an SRE could not tell which results lay inside the window,
nor why the temporal channel ranked one first. ``query`` prints one ``dated:`` line (UTC,
to the minute, as the time-window warnings speak); ``--json`` and the MCP ``search`` tool
give ``created`` / ``updated`` as the item holds them (ISO 8601, its own zone kept)."""

from __future__ import annotations

from datetime import UTC

from skill_retriever.model import Node

__all__ = ["dated_line", "dates_of"]


def dates_of(node: Node) -> dict[str, str]:
    """``{"created": ..., "updated": ...}`` in ISO 8601, each only when the item has it."""
    return {name: t.isoformat() for name in ("created", "updated") if (t := getattr(node, name)) is not None}


def dated_line(node: Node) -> str | None:
    """``dated: created 2026-11-24 09:15 UTC, updated 2026-11-25 15:00 UTC`` (the times
    it has), or None for an undated item."""
    said = [f"{name} {t.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
            for name in ("created", "updated") if (t := getattr(node, name)) is not None]
    return "dated: " + ", ".join(said) if said else None
