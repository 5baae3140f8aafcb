"""The relations a toolret set's ``edges.jsonl`` lost at ingestion, said with the set's figures.

A line that is no JSON object, names a tool that does not exist, is a self edge or
repeats an edge is rejected by `ingest.toolret` as an ingest problem. The benchmark showed
those in the build log only (its first three problems; nothing when the cached index was
reused), as it once did a dropped tool (`dropped_tools`). Now the set's result
(``dropped_edges``) and its notes in report.md say how many lines were dropped and why.

Why no share past which the set fails, as `dropped_tools` has: a dropped relation leaves
the catalogue whole. Every tool is still a candidate and every judged tool can still be
found, so the dense, BM25 and fused rows measure the set itself; only the graph channel
reads relations, and it is measured on those kept, which the note counts. The shipped
ultratool set itself rejects 5 of its 611 lines (self edges): they are no relation to lose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.bench.dropped_tools import SHOWN, count_said, nonblank_lines, why_said

__all__ = ["dropped_edges", "dropped_edges_note", "set_edges_file"]


def set_edges_file(family: str, sources: Sequence[Path]) -> Path | None:
    """The ``edges.jsonl`` of a toolret set (its first source is its folder), absolute as
    ingestion names it; None for another family or a set without one."""
    if family != "toolret" or not sources:
        return None
    edges = sources[0].absolute() / "edges.jsonl"
    return edges if edges.is_file() else None


def dropped_edges(
    edges: Path, problems: Sequence[str] | None, counts: Mapping[str, int] | None
) -> dict[str, Any] | None:
    """How many lines of ``edges`` (its absolute path) the ingestion rejected, and why; None
    when none was (or there is no such file).

    ``problems``: the build's (``"<file>: <message>"``, the first of each file);
    ``counts``: how many problems each file had. Either is None for a cached index built
    before it was kept: then ``dropped`` (and ``share``) are None, not known.
    """
    if not edges.is_file():
        return None
    lines = nonblank_lines(edges)
    prefix = f"{edges}: "
    mine = None if problems is None else [p[len(prefix):] for p in problems if p.startswith(prefix)]
    found: dict[str, Any] = {"file": str(edges), "lines": lines, "dropped": None, "share": None,
                             "reasons": None if mine is None else mine[:SHOWN]}
    if counts is None or mine is None:
        return found
    # A problem that names no line is the file's own (unreadable, one JSON document): none was read.
    dropped = lines if any(not m.startswith("line ") for m in mine) else counts.get(str(edges), 0)
    if dropped <= 0 or not lines:
        return None
    found.update(dropped=dropped, share=round(dropped / lines, 4))
    return found


def dropped_edges_note(found: dict[str, Any]) -> str:
    """The set's note on its dropped relations (``dropped_edges``' answer)."""
    if found["dropped"] is None:
        return (f"whether lines of {Path(found['file']).name} were dropped is not known: the cached index was built "
                "before they were counted; delete its cache entry to see them")
    return (f"{count_said(found)}: the graph holds the set's other relations, its tools are whole (the set is "
            f"measured, only the graph channel reads relations){why_said(found)}")
