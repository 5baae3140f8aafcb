"""What every ingestion source returns: items plus the per-file problems it met."""

from __future__ import annotations

from dataclasses import dataclass, field

from skill_retriever.model import Edge, Node


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a source could not read; the run goes on without it."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(slots=True)
class IngestResult:
    """Nodes and edges read from one source, and what went wrong per file."""

    source: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    def extend(self, other: IngestResult) -> None:
        self.nodes.extend(other.nodes)
        self.edges.extend(other.edges)
        self.problems.extend(other.problems)
        self.seconds += other.seconds

    def summary(self) -> str:
        return (
            f"{self.source}: {len(self.nodes)} nodes, {len(self.edges)} edges, "
            f"{len(self.problems)} problems, {self.seconds:.1f} s"
        )
