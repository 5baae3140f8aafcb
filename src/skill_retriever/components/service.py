"""`ComponentService`: what a coding agent asks for, end to end.

``search_components(query, kinds, k, budget)`` runs retrieval restricted to component
kinds, shows each near-duplicate group once (best-ranked member, other sources listed),
adds what the chosen components require (closure), reports conflicts (within the answer
and against what ``target`` already holds; optionally drops the lower-ranked side), cuts
to the token budget by whole units (a component never without what it requires), and
explains each component.

Retrieval runs without its own budget, at ``overfetch`` times ``k``, so the budget and
duplicate folding here decide what is cut. Requirements are added whatever their kind
(a skill that needs an MCP server gets it even when only skills were asked for), but
only those the caller may see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from skill_retriever.algorithms.budget import token_counter
from skill_retriever.components.closure import Closure, dependency_closure
from skill_retriever.components.conflicts import Conflict, drop_lower_ranked, find_conflicts
from skill_retriever.components.dedup import DedupConfig, collapse_ranked, duplicates_of
from skill_retriever.components.install import match_installed
from skill_retriever.components.rationale import Rationale, build_rationale
from skill_retriever.components.units import pack_closure_to_budget
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.model import COMPONENT_KINDS
from skill_retriever.retriever import Retriever, SearchResult
from skill_retriever.stores.index import Index

__all__ = ["ComponentResponse", "ComponentResult", "ComponentService", "Dropped"]

Role = Literal["match", "dependency"]


@dataclass(frozen=True)
class ComponentResult:
    """One component of the answer.

    Attributes:
        rank: Position in the answer, from 1.
        role: ``match`` (retrieved for the query) or ``dependency`` (added because a
            match requires it; ``required_by`` says which).
        fusion_score / rerank_score: From retrieval; None for an added dependency.
        token_count: tiktoken count of the component's text.
        channels: Channel -> rank that retrieved it.
        requires: Ids it requires directly; ``brings``: everything it requires.
        also_at: Ids of the same component hosted elsewhere (near-duplicates).
        conflicts: Conflicts it is a side of.
    """

    id: str
    kind: str
    name: str
    description: str
    rank: int
    role: Role
    fusion_score: float | None
    rerank_score: float | None
    token_count: int
    channels: Mapping[str, int]
    requires: tuple[str, ...]
    brings: tuple[str, ...]
    required_by: tuple[str, ...]
    also_at: tuple[str, ...]
    conflicts: tuple[Conflict, ...]
    rationale: Rationale
    source: str = ""
    installed: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "description": self.description,
            "rank": self.rank,
            "role": self.role,
            "fusion_score": self.fusion_score,
            "rerank_score": self.rerank_score,
            "token_count": self.token_count,
            "channels": dict(self.channels),
            "requires": list(self.requires),
            "brings": list(self.brings),
            "required_by": list(self.required_by),
            "also_at": list(self.also_at),
            "conflicts": [c.to_dict() for c in self.conflicts],
            "reason": self.rationale.text,
            "rationale": self.rationale.to_dict(),
            "source": self.source,
            "installed": self.installed,
        }


@dataclass(frozen=True)
class Dropped:
    """A retrieved component left out, and why (``budget`` or ``conflict``)."""

    id: str
    name: str
    why: Literal["budget", "conflict"]
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "why": self.why, "detail": self.detail}


@dataclass(frozen=True)
class ComponentResponse:
    """The answer with everything a caller may want to show or act on."""

    query: str
    results: list[ComponentResult]
    conflicts: list[Conflict] = field(default_factory=list)
    cycles: list[tuple[str, ...]] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    total_tokens: int = 0
    budget: int | None = None
    route: str = ""
    reranker: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.results]

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "results": [r.to_dict() for r in self.results],
            "conflicts": [c.to_dict() for c in self.conflicts],
            "cycles": [list(c) for c in self.cycles],
            "dropped": [d.to_dict() for d in self.dropped],
            "total_tokens": self.total_tokens,
            "budget": self.budget,
            "route": self.route,
            "reranker": self.reranker,
            "warnings": list(self.warnings),
        }


def component_kinds(kinds: Iterable[str] | str | None) -> list[str]:
    """Validated component kinds (all of them for None).

    Raises:
        ConfigError: A kind is not a component kind.
    """
    allowed = sorted(k.value for k in COMPONENT_KINDS)
    if kinds is None:
        return allowed
    wanted = [kinds] if isinstance(kinds, str) else list(kinds)
    bad = [k for k in wanted if k not in allowed]
    if bad or not wanted:
        raise ConfigError(f"kinds {bad or wanted} are not component kinds; use any of {allowed}")
    return sorted(dict.fromkeys(wanted))


class ComponentService:
    """Component search, dependency checks and their explanations over one index.

    Args:
        index: The index.
        retriever: The retriever to use; a default one over ``index`` when None.
        principals: Access principals of the caller (``("*",)`` sees everything).
        dedup: Near-duplicate thresholds.
        overfetch: Retrieve this many times ``k`` before folding duplicates.
    """

    def __init__(
        self,
        index: Index,
        retriever: Retriever | None = None,
        *,
        principals: Sequence[str] | None = None,
        dedup: DedupConfig | None = None,
        overfetch: int = 3,
    ) -> None:
        self.index = index
        self.retriever = retriever or Retriever(index)
        self.principals = list(principals) if principals is not None else None
        self._principal_set = frozenset(self.principals) if self.principals is not None else None
        self.dedup = dedup or DedupConfig()
        self.overfetch = max(1, overfetch)
        self._count = token_counter(self.retriever.config.encoding)

    # -- public -----------------------------------------------------------------------
    def search_components(
        self,
        query: str,
        kinds: Iterable[str] | None = None,
        k: int = 5,
        budget: int | None = None,
        **options: Any,
    ) -> list[ComponentResult]:
        """The ranked components for ``query`` (see :meth:`search` for ``options``)."""
        return self.search(query, kinds, k, budget, **options).results

    def search(
        self,
        query: str,
        kinds: Iterable[str] | None = None,
        k: int = 5,
        budget: int | None = None,
        *,
        target: str | None = None,
        drop_conflicts: bool = False,
        **overrides: Any,
    ) -> ComponentResponse:
        """Search, fold duplicates, add requirements, check conflicts, budget, explain.

        Args:
            query: What the agent needs.
            kinds: Component kinds to retrieve (default: all component kinds).
            k: How many matches (requirements come on top of them).
            budget: Token budget for matches and requirements together; None = no limit.
            target: A project folder; conflicts with what it holds are reported.
            drop_conflicts: Drop the lower-ranked side of every conflict.
            overrides: RetrievalConfig fields for this call (e.g. ``rerank=False``).
        """
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            raise ConfigError(f"k must be an integer > 0, got {k!r}")
        chosen_kinds = component_kinds(kinds)
        resp = self.retriever.search(
            query,
            k=min(k * self.overfetch, 100),
            kinds=chosen_kinds,
            principals=self.principals,
            **overrides,
        )
        hits = {r.id: r for r in resp.results}
        collapsed = collapse_ranked(self.index, [r.id for r in resp.results], config=self.dedup)
        installed = match_installed(self.index, target) if target else {}
        closure, conflicts, dropped = self._select(collapsed.ids, k, installed, drop_conflicts)
        counts = {i: hits[i].token_count if i in hits else self._tokens(i) for i in closure.ids}
        cut = pack_closure_to_budget(closure, counts, budget)
        for s in cut.dropped_components:
            size = sum(counts[i] for i in closure.units[s])
            detail = f"with what it requires ({len(closure.units[s])} component(s)) it takes {size} tokens"
            dropped.append(Dropped(s, self._name(s), "budget", f"{detail}; budget {budget}"))
        if cut.dropped_components:
            closure = self._closure(cut.kept_components)
        results = self._results(
            query, closure, hits, collapsed.folded, conflicts, counts, installed
        )
        warnings = list(resp.warnings)
        warnings += [
            f"dependency cycle: {' -> '.join(self._name(i) for i in c)}" for c in closure.cycles
        ]
        if closure.hidden:
            warnings.append(
                f"{len(closure.hidden)} required component(s) are not visible to this caller"
            )
        return ComponentResponse(
            query=query,
            results=results,
            conflicts=conflicts,
            cycles=list(closure.cycles),
            dropped=dropped,
            total_tokens=sum(r.token_count for r in results),
            budget=budget,
            route=resp.route,
            reranker=resp.reranker,
            warnings=warnings,
        )

    def check_dependencies(
        self, ids: Sequence[str], *, target: str | None = None
    ) -> dict[str, Any]:
        """Closure, cycles and conflicts of a chosen set of components (no retrieval)."""
        missing = [i for i in ids if i not in self.index]
        present = [i for i in ids if i in self.index]
        closure = self._closure(present)
        installed = match_installed(self.index, target) if target else {}
        conflicts = find_conflicts(self.index.graph, closure.ids, installed)
        return {
            "selected": list(closure.selected),
            "added": [
                {
                    "id": i,
                    "name": self._name(i),
                    "kind": self.index.get(i).kind.value,
                    "required_by": list(closure.required_by.get(i, ())),
                    "chain": list(closure.chains.get(i, ())),
                }
                for i in closure.added
            ],
            "requires": {i: list(closure.requires.get(i, ())) for i in closure.ids},
            "cycles": [list(c) for c in closure.cycles],
            "conflicts": [c.to_dict() for c in conflicts],
            "installed": installed,
            "missing": missing,
            "hidden": len(closure.hidden),
        }

    # -- helpers ----------------------------------------------------------------------
    def _closure(self, selected: Sequence[str]) -> Closure:
        allowed = self.index.allowed(Filters(principals=self._principal_set))
        return dependency_closure(self.index.graph, selected, allowed=allowed)

    def _tokens(self, node_id: str) -> int:
        return self._count(self.index.get(node_id).embedding_text())

    def _select(
        self, ranked: Sequence[str], k: int, installed: Mapping[str, str], drop_conflicts: bool
    ) -> tuple[Closure, list[Conflict], list[Dropped]]:
        """The top ``k`` with their closure and conflicts; with ``drop_conflicts``, a match
        whose unit holds a losing side is dropped and the next candidate moves up."""
        dropped: list[Dropped] = []
        settled: list[Conflict] = []
        excluded: set[str] = set()
        while True:  # every pass that goes on excludes one candidate more, so this ends
            selected = [i for i in ranked if i not in excluded][:k]
            closure = self._closure(selected)
            conflicts = find_conflicts(self.index.graph, closure.ids, installed)
            if not (drop_conflicts and conflicts):
                return closure, settled + conflicts, dropped
            conflicts, _ = drop_lower_ranked(conflicts, _unit_ranks(closure))
            losing = [c for c in conflicts if c.dropped is not None]
            settled += losing
            before = len(excluded)
            for s in selected:
                lost = next((c for c in losing if c.dropped in closure.units[s]), None)
                if lost is not None:
                    excluded.add(s)
                    dropped.append(
                        Dropped(s, self._name(s), "conflict", self._conflict_note(s, lost))
                    )
            if len(excluded) == before:  # pragma: no cover - a loser always sits in a unit
                return closure, settled + [c for c in conflicts if c.dropped is None], dropped

    def _conflict_note(self, component: str, c: Conflict) -> str:
        assert c.dropped is not None
        winner = c.other(c.dropped)
        lead = (
            "conflicts"
            if component == c.dropped
            else f"requires {self._name(c.dropped)}, which conflicts"
        )
        where = " (installed)" if winner == c.installed_id else " (ranked higher)"
        return f"{lead} with {self._name(winner)}{where}{_because(c.reason)}"

    def _name(self, node_id: str) -> str:
        node = self.index.nodes.get(node_id)
        return node.name if node is not None else node_id

    def _results(
        self,
        query: str,
        closure: Closure,
        hits: Mapping[str, SearchResult],
        folded: Mapping[str, tuple[str, ...]],
        conflicts: Sequence[Conflict],
        counts: Mapping[str, int],
        installed: Mapping[str, str],
    ) -> list[ComponentResult]:
        nodes = self.index.nodes
        names = {i: self._name(i) for i in closure.ids}
        order: dict[str, None] = {}
        for s in closure.selected:
            order.setdefault(s, None)
            for dep in closure.units[s]:
                order.setdefault(dep, None)
        allowed = self.index.allowed(Filters(principals=self._principal_set))
        out: list[ComponentResult] = []
        for rank, node_id in enumerate(order, 1):
            node = nodes[node_id]
            hit = hits.get(node_id)
            role: Role = "match" if node_id in closure.selected else "dependency"
            brings = closure.units.get(node_id, (node_id,))[1:] if role == "match" else ()
            requires = closure.requires.get(node_id, ())
            required_by = closure.required_by.get(node_id, ())
            also = tuple(
                dict.fromkeys(
                    folded.get(node_id, ())
                    + duplicates_of(self.index, node_id, allowed=allowed, config=self.dedup)
                )
            )
            mine = tuple(c for c in conflicts if node_id in c.sides)
            lines = []
            for c in mine:
                other = c.other(node_id)
                where = f" (installed at {c.installed})" if other == c.installed_id else ""
                fate = f"; {self._name(c.dropped)} dropped" if c.dropped else ""
                lines.append(
                    f"Conflicts with {self._name(other)}{where}{_because(c.reason)}{fate}."
                )
            if node_id in installed:
                lines.append(f"Already installed at {installed[node_id]}.")
            rationale = build_rationale(
                query,
                node,
                names,
                channels=hit.channels if hit else None,
                path=hit.path if hit else (),
                path_reliability=hit.path_reliability if hit else None,
                requires=requires,
                brings=brings,
                required_by=required_by,
                chain=closure.chains.get(node_id, ()) if role == "dependency" else (),
                also_at=also,
                conflicts=lines,
            )
            out.append(
                ComponentResult(
                    id=node_id,
                    kind=node.kind.value,
                    name=node.name,
                    description=hit.snippet if hit else _snippet(node.description or node.text),
                    rank=rank,
                    role=role,
                    fusion_score=hit.fusion_score if hit else None,
                    rerank_score=hit.rerank_score if hit else None,
                    token_count=counts[node_id],
                    channels=dict(hit.channels) if hit else {},
                    requires=requires,
                    brings=brings,
                    required_by=required_by,
                    also_at=also,
                    conflicts=mine,
                    rationale=rationale,
                    source=node.source,
                    installed=installed.get(node_id),
                )
            )
        return out


def _unit_ranks(closure: Closure) -> dict[str, float]:
    """Id -> rank (from 1) of the best selected component whose unit holds it."""
    ranks: dict[str, float] = {}
    for pos, s in enumerate(closure.selected, 1):
        for i in closure.units[s]:
            ranks.setdefault(i, float(pos))
    return ranks


def _because(reason: str) -> str:
    """``": reason"`` without its final full stop (the sentence adds its own), or ''."""
    reason = reason.strip().rstrip(".")
    return f": {reason}" if reason else ""


def _snippet(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
