"""Why a component is in the answer, in words a person reads in a few seconds.

A rationale says which skill's folder holds it (a SKILL.md nested in another's: `owning_skill`),
which channels found it and at what rank, which words of the query it contains, the graph path that led to it from the query's seeds (PPR route), what it
brings with it (its requirements), who required it (for an added dependency), where
else the same component is hosted, and what it conflicts with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skill_retriever.components.word_matches import word_matches
from skill_retriever.model import Node

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["CHANNEL_WORDS", "Rationale", "matched_terms"]

CHANNEL_WORDS = {
    "semantic": "meaning (embedding search)",
    "keyword": "keywords (BM25)",
    "graph": "the graph (related to other matches)",
    "temporal": "recency",
    "named": "its name, written in the query",
    "clauses": "one of the request's asks (keywords)",
}


def matched_terms(query: str, node: Node, snapshot: IndexSnapshot | None = None) -> tuple[str, ...]:
    """Words of the query (no stop words, >= 2 characters) the node's text holds as written
    or by their stem, as the keyword search reads them (`word_matches`); of a stack trace,
    the words the search read (`condense_stack_traces`), not its boilerplate."""
    return tuple(m.word for m in word_matches(query, node, snapshot))


@dataclass(frozen=True)
class Rationale:
    """The evidence for one component; ``text`` renders it.

    Attributes:
        channels: ``(channel, rank)`` pairs, best rank first.
        matched_terms: Query words the component contains.
        path: Names along the graph path from a seed of the query (PPR route), if any.
        path_reliability: That path's reliability (mean PPR score of its nodes).
        requires: Names it requires directly.
        brings: Names of everything it brings with it (transitive requirements).
        required_by: Names of the selected components that required it (dependencies).
        chain: For a dependency, the names from the selected component down to it.
        also_at: Other sources of the same component (near-duplicates).
        conflicts: One line per conflict it is part of.
        installed: Where the target already holds it ("" when it does not, or no
            target was given): not a conflict, and not counted as one.
        part_of: The name of the skill whose folder holds it (`owning_skill`), "" for
            none: said first in `text`, as the ``search`` tool's reason says it; `short`
            leaves it to the brief result's own ``part_of`` key, which is never cut.
    """

    channels: tuple[tuple[str, int], ...] = ()
    matched_terms: tuple[str, ...] = ()
    path: tuple[str, ...] = ()
    path_reliability: float | None = None
    requires: tuple[str, ...] = ()
    brings: tuple[str, ...] = ()
    required_by: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()
    also_at: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    installed: str = ""
    part_of: str = ""

    def lines(self) -> list[str]:
        out: list[str] = [f"Part of skill {self.part_of}."] if self.part_of else []
        if self.channels:
            found = ", ".join(f"{CHANNEL_WORDS.get(c, c)} #{r}" for c, r in self.channels)
            out.append(f"Matched by {found}.")
        elif self.required_by:
            out.append("Not matched by the query itself; added because it is required.")
        if self.matched_terms:
            out.append("Query words it contains: " + ", ".join(self.matched_terms) + ".")
        if len(self.path) > 1:
            rel = (
                f" (reliability {self.path_reliability:.3f})"
                if self.path_reliability is not None
                else ""
            )
            out.append("Reached from the query's seeds along " + " -> ".join(self.path) + rel + ".")
        if self.required_by:
            chain = f" (via {' -> '.join(self.chain)})" if len(self.chain) > 2 else ""
            out.append("Required by " + ", ".join(self.required_by) + chain + ".")
        if self.brings:
            direct = set(self.requires)
            parts = [n if n in direct else f"{n} (indirectly)" for n in self.brings]
            out.append("Brings with it: " + ", ".join(parts) + ".")
        if self.also_at:
            shown = ", ".join(self.also_at[:5]) + (
                f" and {len(self.also_at) - 5} more" if len(self.also_at) > 5 else ""
            )
            out.append("Same component also hosted at: " + shown + ".")
        out.extend(self.conflicts)
        if self.installed:
            out.append(f"Already installed at {self.installed}.")
        return out

    @property
    def text(self) -> str:
        return " ".join(self.lines())

    def short(self) -> str:
        """The evidence in one short line (MCP ``brief`` answers): channels and ranks,
        query words, the graph path, who required it, what it brings, what it conflicts
        with (by name: the reason is given once, with the conflict itself)."""
        parts: list[str] = []
        if self.channels:
            parts.append("found by " + ", ".join(f"{c} #{r}" for c, r in self.channels))
        if self.matched_terms:
            parts.append("words: " + ", ".join(self.matched_terms[:5]))
        if len(self.path) > 1:
            parts.append("path: " + " -> ".join(self.path))
        if self.required_by:
            via = f" via {' -> '.join(self.chain)}" if len(self.chain) > 2 else ""
            parts.append("required by " + ", ".join(self.required_by) + via)
        if self.brings:
            more = f" +{len(self.brings) - 4} more" if len(self.brings) > 4 else ""
            parts.append("brings " + ", ".join(self.brings[:4]) + more)
        if self.conflicts:
            parts.append(f"{len(self.conflicts)} conflict(s), see conflicts")
        if self.installed:
            parts.append(f"installed at {self.installed}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The evidence, field by field (`text` renders it; it is not repeated here)."""
        return {
            "channels": dict(self.channels),
            "matched_terms": list(self.matched_terms),
            "path": list(self.path),
            "path_reliability": self.path_reliability,
            "requires": list(self.requires),
            "brings": list(self.brings),
            "required_by": list(self.required_by),
            "chain": list(self.chain),
            "also_at": list(self.also_at),
            "conflicts": list(self.conflicts),
            **({"installed": self.installed} if self.installed else {}),
        }


def build_rationale(
    query: str,
    node: Node,
    names: Mapping[str, str],
    *,
    channels: Mapping[str, int] | None = None,
    path: Sequence[str] = (),
    path_reliability: float | None = None,
    requires: Sequence[str] = (),
    brings: Sequence[str] = (),
    required_by: Sequence[str] = (),
    chain: Sequence[str] = (),
    also_at: Sequence[str] = (),
    conflicts: Sequence[str] = (),
    installed: str = "",
    snapshot: IndexSnapshot | None = None,
    part_of: str = "",
) -> Rationale:
    """Assemble a :class:`Rationale`; ids are turned into names with ``names``; ``snapshot``:
    the one ``node`` was read from, whose stored keyword terms say which words it holds."""

    def named(ids: Sequence[str]) -> tuple[str, ...]:
        return tuple(names.get(i, i) for i in ids)

    return Rationale(
        channels=tuple(sorted((channels or {}).items(), key=lambda p: (p[1], p[0]))),
        matched_terms=matched_terms(query, node, snapshot),
        path=named(path),
        path_reliability=path_reliability,
        requires=named(requires),
        brings=named(brings),
        required_by=named(required_by),
        chain=named(chain),
        also_at=tuple(also_at),
        conflicts=tuple(conflicts),
        installed=installed,
        part_of=part_of,
    )
