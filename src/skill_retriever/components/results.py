"""What `ComponentService` answers: typed results, and their JSON forms.

Two forms: ``to_dict()`` holds everything (``detail="full"`` over MCP); ``brief()`` is what
an agent reads by default, about `BRIEF_TOKENS` tokens a component: id, kind, name, role,
score, a cut description and a one-line reason. Nothing is said twice: a conflict's reason
is given once, in the answer's ``conflicts`` list, and the results only name the other
side.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from skill_retriever.components.conflicts import Conflict
from skill_retriever.components.rationale import Rationale
from skill_retriever.responses import is_nothing_fits

__all__ = ["BRIEF_TOKENS", "ComponentResponse", "ComponentResult", "Dropped", "Role"]

Role = Literal["match", "dependency"]
#: The most tiktoken tokens one component takes in a brief answer (its JSON form).
BRIEF_TOKENS = 150
_ABOUT_CHARS = 160
_WHY_CHARS = 220
_BRIEF_NAMES = 4  # related components named in a brief result (the rest counted)


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
        names: Id -> name of every component this result mentions.
        part_of: ``(id, name)`` of the skill whose folder holds it (`owning_skill`: a
            SKILL.md nested in another skill's folder), None for none the caller sees.
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
    names: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    part_of: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Everything, ids in full (``detail="full"``)."""
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
            "conflicts_with": [c.other(self.id) for c in self.conflicts],
            "reason": self.rationale.text,
            "rationale": self.rationale.to_dict(),
            "source": self.source,
            "installed": self.installed,
            # as `skill-retriever query --json` says it: an object, or null
            "part_of": None if self.part_of is None else {"id": self.part_of[0], "name": self.part_of[1]},
        }

    def brief(self, count: Callable[[str], int], limit: int = BRIEF_TOKENS) -> dict[str, Any]:
        """The short form: related components by name, the reason in one line, the
        description cut; shortened further until its JSON takes at most ``limit`` tokens
        (by ``count``) or nothing is left to cut."""

        def named(ids: tuple[str, ...]) -> list[str]:
            shown = [self.names.get(i, i) for i in ids[:_BRIEF_NAMES]]
            return shown + ([f"+{len(ids) - _BRIEF_NAMES} more"] if len(ids) > _BRIEF_NAMES else [])

        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            # by name, as requires are; its own key, not the why's first clause, which
            # `fit` halves away first when the result runs over the budget
            **({"part_of": self.part_of[1]} if self.part_of else {}),
            "rank": self.rank,
            "role": self.role,
            "score": None if self.fusion_score is None else round(self.fusion_score, 4),
            "tokens": self.token_count,
            "about": _cut(self.description, _ABOUT_CHARS),
            "why": _cut(self.rationale.short(), _WHY_CHARS),
        }
        if self.requires:
            out["requires"] = named(self.requires)
        if self.required_by:
            out["required_by"] = named(self.required_by)
        if self.conflicts:
            out["conflicts_with"] = named(tuple(c.other(self.id) for c in self.conflicts))
        if self.installed:
            out["installed"] = self.installed
        if self.also_at:
            out["other_sources"] = len(self.also_at)
        return fit(out, count, limit, ("why", "about"))


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
    """The answer with everything a caller may want to show or act on.

    ``snapshot_version`` names the one index state every part of it was read from.
    """

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
    snapshot_version: int = 0
    fit: Mapping[str, Any] | None = None  # confidence, nothing_fits (see calibration.Fit)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.results]

    @property
    def nothing_fits(self) -> bool:
        """Nothing in the catalogue fits the task well: the results are the closest, and
        nothing they require was added."""
        return bool(self.fit and self.fit["nothing_fits"])

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
            "snapshot_version": self.snapshot_version,
            "fit": dict(self.fit) if self.fit else None,
            "nothing_fits": self.nothing_fits,
        }

    def brief(self, count: Callable[[str], int]) -> dict[str, Any]:
        """The short form (see `ComponentResult.brief`); empty lists are left out."""
        out: dict[str, Any] = {}
        if self.nothing_fits:  # first, so an agent reads it before the list
            out["nothing_fits"] = True
            # a component search answers components only: a catalogue's words (`fit_words`)
            out["note"] = "nothing in the catalogue fits this task well; these are the closest, nothing they need was added"
        out["results"] = [r.brief(count) for r in self.results]
        out["total_tokens"] = self.total_tokens
        if self.fit:
            out["confidence"] = self.fit["confidence"]
        if self.conflicts:
            out["conflicts"] = [c.to_dict() for c in self.conflicts]
        if self.cycles:
            out["cycles"] = [list(c) for c in self.cycles]
        if self.dropped:
            out["dropped"] = [{"id": d.id, "why": d.why, "detail": d.detail} for d in self.dropped]
        # the "nothing fits" warning is the note above, in the agent's terms: not twice
        warnings = [w for w in self.warnings if not (self.nothing_fits and is_nothing_fits(w))]
        if warnings:
            out["warnings"] = warnings
        return out


def fit(
    out: dict[str, Any], count: Callable[[str], int], limit: int, cuttable: tuple[str, ...]
) -> dict[str, Any]:
    """Halve the ``cuttable`` text fields, in order, until ``out`` as JSON takes at most
    ``limit`` tokens (or they are gone)."""
    for key in cuttable:
        while count(json.dumps(out, ensure_ascii=False)) > limit and out.get(key):
            text = str(out[key])
            out[key] = _cut(text, len(text) // 2) if len(text) > 24 else ""
        if count(json.dumps(out, ensure_ascii=False)) <= limit:
            break
    return out


def _cut(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters: cut at the last word that fits
    (not mid-word: "keyword #…" reads as a number lost), unless that loses over half."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = flat[: limit - 1]
    space = head.rfind(" ")
    if flat[limit - 1] not in " ,;:" and space >= limit // 2:  # the cut falls inside a word
        head = head[:space]
    # A clause of a word or two after the last "; " says nothing ("...; 1…"): end before it.
    clause = head.rfind("; ")
    if clause >= limit // 2 and len(head) - clause <= _STUB:
        head = head[:clause]
    return head.rstrip(" ,;:") + "…"


#: A clause this short (counting its "; ") left at the end of a cut text is dropped.
_STUB = 12
