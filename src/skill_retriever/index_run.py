"""What one ``index`` run did (`IndexRun`), and taking out what a source no longer has
with every relation that goes with it counted (`delete_stale`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.ingest.document_reach import removed_alone_notes
from skill_retriever.ingest.result import problem_text

if TYPE_CHECKING:
    from skill_retriever.cross_source import CrossSourceReport
    from skill_retriever.ingest.result import IngestResult
    from skill_retriever.stores.index import Index, WriteReport

__all__ = ["IndexRun", "delete_stale"]


@dataclass(repr=False)
class IndexRun:
    """What indexing one or more sources did. Its ``repr`` is counts and sources, in one
    line (every item's text made ``print(index_sources(...))`` 170 KB for 14 skills); the
    fields hold the rest, `to_dict` the data the CLI's ``--json`` prints."""

    sources: list[IngestResult] = field(default_factory=list)
    writes: list[WriteReport] = field(default_factory=list)
    calibration: dict[str, Any] | None = None
    #: Source -> ids the index held from it that the source no longer has (removed).
    removed: dict[str, list[str]] = field(default_factory=dict)
    #: Source -> ids the index holds from it whose file is gone, kept by ``prune=False``
    #: (``--keep-missing``): what the same run with pruning would have removed.
    kept: dict[str, list[str]] = field(default_factory=dict)
    #: Source -> how many relations between items that stay it no longer states (removed).
    edges_removed: dict[str, int] = field(default_factory=dict)
    #: Source -> how many relations went with its removed items (every one touching them,
    #: other sources' included: `Index.delete`).
    edges_removed_with_items: dict[str, int] = field(default_factory=dict)
    #: Source -> the mark of its earlier run that did not finish, which this run completed
    #: (``stores.run_marks``).
    completed: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Names resolved in other sources of the index after the run (`cross_source`).
    cross_source: CrossSourceReport | None = None
    #: Source -> the source it moved here, its folder gone (`source_moves.move_held`):
    #: ``{"from": [old folders], "to": this folder, "items": how many it held}``.
    moved: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Source -> the reports of writing its items (not removals, nor links across sources).
    source_writes: dict[str, list[WriteReport]] = field(default_factory=dict)

    @property
    def read_nothing(self) -> list[str]:
        """The sources that yielded no item and lost none (a wrong or empty folder, files of
        a kind no reader takes, a file with no items): nothing of them was written or
        removed. ``skill-retriever index`` exits 1 for them; a caller of `index_sources`
        reads it here (and each source's ``problems`` for why), or in ``print(run)``."""
        return [s.source for s in self.sources if not s.nodes and s.source not in self.removed]

    @property
    def embedded(self) -> int:
        return sum(w.embedded for w in self.writes)

    @property
    def embedded_edges(self) -> int:
        """Of the texts embedded, relations' sentences (the rest are items' texts)."""
        return sum(w.embedded_edges for w in self.writes)

    def __repr__(self) -> str:
        sources = ", ".join(f"{s.source!r} ({len(s.nodes)} nodes, {len(s.edges)} edges)" for s in self.sources)
        w = self.writes
        return (
            f"IndexRun(sources: {sources or 'none'}; nodes_added={sum(r.nodes_added for r in w)}, "
            f"nodes_updated={sum(r.nodes_updated for r in w)}, nodes_unchanged={sum(r.nodes_unchanged for r in w)}, "
            f"nodes_removed={sum(map(len, self.removed.values()))}, nodes_kept={sum(map(len, self.kept.values()))}, "
            f"embedded={self.embedded}, problems={sum(len(s.skips) for s in self.sources)}, "
            f"notes={sum(len(s.notes) for s in self.sources)}"
            # A run that read nothing printed the counts of one that found nothing to change.
            + (f"; read no item from {', '.join(map(repr, nothing))}" if (nothing := self.read_nothing) else "")
            + ")"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "sources": [
                {
                    "source": s.source,
                    "nodes": len(s.nodes),
                    "edges": len(s.edges),
                    "problems": [problem_text(p) for p in s.skips],  # as the text's lines say them
                    "notes": [str(p) for p in s.notes],  # on files read whole
                    "seconds": round(s.seconds, 3),
                }
                for s in self.sources
            ],
            "embedded": self.embedded,
            "embedded_edges": self.embedded_edges,
            "nodes_added": sum(w.nodes_added for w in self.writes),
            "nodes_updated": sum(w.nodes_updated for w in self.writes),
            "nodes_unchanged": sum(w.nodes_unchanged for w in self.writes),
            "nodes_removed": {source: len(ids) for source, ids in self.removed.items()},
            "nodes_kept": {source: len(ids) for source, ids in self.kept.items()},
            "edges_removed": dict(self.edges_removed),
            "edges_removed_with_items": dict(self.edges_removed_with_items),
            "calibration": self.calibration,
            "completed_unfinished_runs": dict(self.completed),
            "moved": dict(self.moved),
            "cross_source": self.cross_source.to_dict() if self.cross_source else None,
        }


def delete_stale(index: Index, run: IndexRun, source: str, gone: Sequence[str], cut: Sequence[str] = ()) -> None:
    """Delete the items ``gone`` (with every relation touching them) and the relations
    ``cut`` of ``source``, and record both in ``run``. A relation cut that touches an item
    removed counts with the items: each relation deleted is counted once, so the two counts
    add up to what the index lost."""
    if not gone and not cut:
        return
    ids = set(gone)
    if Path(source).is_dir():  # a document indexed alone that the folder's read leaves out: said
        nodes = index.snapshot().nodes
        read = next((s for s in run.sources if s.source == source), None)
        if read is not None:
            read.problems += removed_alone_notes(nodes[i] for i in gone if i in nodes)
    touching = {e_id for e_id, e in index.snapshot().edges.items() if e.source in ids or e.target in ids} if ids else set()
    report = index.delete(gone, cut)
    run.writes.append(report)
    # edges_deleted counts each edge the index held once, whichever list named it
    between = len(set(cut) - touching)
    if gone:
        run.removed[source] = list(gone)
    if with_items := report.edges_deleted - between:
        run.edges_removed_with_items[source] = with_items
    if between:
        run.edges_removed[source] = between
