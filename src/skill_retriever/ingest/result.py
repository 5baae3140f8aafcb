"""What every ingestion source returns: items plus the per-file problems it met."""

from __future__ import annotations

from dataclasses import dataclass, field

from skill_retriever.model import Edge, Node


class Note(str):
    """A record's warning about a file it read whole: advice to the author (frontmatter
    only lenient reading could use), not a part of the file left out."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a source could not read, or (``read_whole``) a note on a file it read
    whole; the run goes on either way.

    Re-indexing keeps the items and relations of a file with a problem that is no note:
    what could not be read today is not gone. A note does not hold them: a relation
    taken out of a file whose frontmatter only lenient reading could use must go too.
    """

    path: str
    message: str
    read_whole: bool = False

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
