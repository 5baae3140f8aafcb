"""`ComponentService`: what a coding agent asks for, end to end.

``search(query, kinds, k, budget)`` runs retrieval restricted to component kinds, shows
each near-duplicate group once (best-ranked member, other sources listed), adds what the
chosen components require (closure), reports conflicts (within the answer and against
what ``target`` already holds, one the caller may not see included, as the install plan
finds it: `unseen_conflicts`; optionally drops the losing side, `settle_conflicts`),
cuts to the token budget by whole units (a component never without what it requires),
and explains each component.

Every request reads one `CallerView`: one pinned snapshot, seen with the caller's
principals. Retrieval pins its own snapshot; a hit that is not in the view (deleted since,
or not visible) is left out, so a concurrent write can never make a request fail, and
nothing the caller may not see is named, counted or hinted at.

Retrieval runs without its own budget, at ``overfetch`` times ``k``, so the budget and
duplicate folding here decide what is cut; when folding (or ``drop_conflicts``) leaves
fewer than ``k`` it searches again, asking for more (`refill.fold_to_k`). Requirements are added whatever their kind
(a skill that needs an MCP server gets it even when only skills were asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.components.closure import Closure, dependency_closure
from skill_retriever.components.conflict_words import answer_name, conflict_line, conflict_note
from skill_retriever.components.conflicts import Conflict, find_conflicts, settle_conflicts
from skill_retriever.components.dedup import Collapsed, DedupConfig, duplicates_of
from skill_retriever.components.dependency_check import dependency_report
from skill_retriever.components.install import match_installed
from skill_retriever.components.install.target import existing_folder
from skill_retriever.components.install.unseen import unseen_conflicts
from skill_retriever.components.owning_skill import owning_skill
from skill_retriever.components.rationale import build_rationale
from skill_retriever.components.refill import first_fetch, fold_to_k
from skill_retriever.components.results import ComponentResponse, ComponentResult, Dropped, Role
from skill_retriever.components.units import budget_dropped, pack_closure_to_budget
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import names_of
from skill_retriever.kind_names import kind_in_case
from skill_retriever.model import COMPONENT_KINDS
from skill_retriever.responses import SearchResponse, renamed_closest
from skill_retriever.retriever import Retriever, SearchResult
from skill_retriever.stores.index import Index

__all__ = [
    "ComponentResponse",
    "ComponentResult",
    "ComponentService",
    "Dropped",
    "component_kinds",
]


def component_kinds(kinds: Iterable[str] | str | None) -> list[str]:
    """Validated component kinds (all of them for None).

    Raises:
        ConfigError: A kind is not a component kind.
    """
    allowed = sorted(k.value for k in COMPONENT_KINDS)
    if kinds is None:
        return allowed
    wanted = [kind_in_case(k) if isinstance(k, str) else k for k in ([kinds] if isinstance(kinds, str) else kinds)]
    bad = [k for k in wanted if k not in allowed]
    if bad or not wanted:
        raise ConfigError(f"kinds {bad or wanted} are not component kinds; use any of {allowed}")
    return sorted(dict.fromkeys(wanted))


class ComponentService:
    """Component search, dependency checks and their explanations over one index.

    Args:
        index: The index.
        retriever: The retriever to use; a default one over ``index`` when None (the
            caller's principals are passed on every search, whatever its own are).
        principals: Access principals of the caller (``("*",)`` sees everything; None
            and ``[]`` see public items only).
        dedup: Near-duplicate thresholds.
        overfetch: Retrieve this many times ``k`` (at most 100) before folding duplicates;
            more, up to 10 times ``k``, when folding leaves fewer than ``k``.
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
        chosen = names_of(principals, "principals")  # one string is one principal
        self.principals = sorted(chosen) if chosen is not None else None
        self.dedup = dedup or DedupConfig()
        self.overfetch = max(1, overfetch)

    def view(self) -> CallerView:
        """The current snapshot as this caller sees it (pin one per request)."""
        return CallerView(self.index.snapshot(), self.principals)

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
        target: str | Path | None = None,
        drop_conflicts: bool = False,
        view: CallerView | None = None,
        **overrides: Any,
    ) -> ComponentResponse:
        """Search, fold duplicates, add requirements, check conflicts, budget, explain.

        Args:
            query: What the agent needs.
            kinds: Component kinds to retrieve (default: all component kinds).
            k: How many matches (requirements come on top of them).
            budget: Token budget for matches and requirements together; None = no limit.
            target: A project folder; conflicts with what it holds are reported.
                Checked first: one that is not an existing folder raises InstallError.
            drop_conflicts: Drop the losing side of each conflict with the matches that
                need it (the next move up): one ``target`` holds wins, else the lower-ranked
                side loses; never for a side itself dropped (`settle_conflicts`).
            view: The view to read (default: a new one of the current snapshot).
            overrides: RetrievalConfig fields for this call (e.g. ``rerank=False``).
        """
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            raise ConfigError(f"k must be an integer > 0, got {k!r}")
        chosen_kinds = component_kinds(kinds)
        # before the search: a typo must cost no retrieval
        root = existing_folder(target) if target is not None else None
        view = view or self.view()
        principals = self.principals if self.principals is not None else []

        def search(fetch: int) -> SearchResponse:
            return self.retriever.search(query, k=fetch, kinds=chosen_kinds, principals=principals, **overrides)

        installed = match_installed(view, root) if root is not None else {}

        def open_conflicts(ids: Sequence[str]) -> list[Conflict]:
            """Among ``ids`` and with what ``root`` holds, the caller's view or not."""
            found = find_conflicts(view, ids, installed)
            return found + (unseen_conflicts(view, ids, root, installed) if root is not None else [])
        picked: list[tuple[Closure, list[Conflict], list[Dropped]]] = []  # the last pass's

        def shown(found: SearchResponse, collapsed: Collapsed) -> int:
            picked[:] = [self._select(view, found, collapsed.ids, k, installed, drop_conflicts, open_conflicts)]
            return len(picked[0][0].selected)

        # Copies fold, drop_conflicts drops losers: search again while fewer than k are left.
        filled = fold_to_k(search, view, k, first=first_fetch(k, self.overfetch), config=self.dedup, shown=shown)
        resp, hits, collapsed = filled.response, filled.hits, filled.collapsed
        closure, conflicts, dropped = picked[0]
        encoding = self.retriever.config.encoding
        counts = {i: hits[i].token_count if i in hits else view.token_count(i, encoding) for i in closure.ids}
        fill = bool(overrides.get("budget_fill", self.retriever.config.budget_fill))
        cut = pack_closure_to_budget(closure, counts, budget, fill=fill)
        lost = budget_dropped(closure, cut, counts, budget, fill, view.name_of)
        dropped += lost
        if cut.dropped_components:
            closure = (
                Closure.alone(cut.kept_components, closure.requires)
                if resp.nothing_fits
                else dependency_closure(view, cut.kept_components)
            )
            # A conflict is about what the answer holds: one whose side the budget dropped
            # is no longer open. The ones drop_conflicts settled stay, saying what went.
            settled = [c for c in conflicts if c.dropped is not None]
            conflicts = settled + ([] if resp.nothing_fits else open_conflicts(closure.ids))
        results = self._results(
            view, query, closure, hits, collapsed.folded, conflicts, counts, installed
        )
        # it named the closest of its own, longer list (the search asks for more than k);
        # a budget that held none leaves its names
        closest = [(r.name, r.kind, r.id) for r in results[:3]]
        warnings = [renamed_closest(w, closest) if closest else w for w in resp.warnings]
        if not results and lost:  # the budget took every match: say so, not just in dropped
            warnings.append(f"the budget holds none of the matches (the best, {lost[0].name}: {lost[0].detail}); raise it")
        warnings += [
            f"dependency cycle: {' -> '.join(view.name_of(i) for i in c)}" for c in closure.cycles
        ]
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
            snapshot_version=view.version,
            fit=dict(resp.fit) if resp.fit else None,
        )

    def check_dependencies(
        self,
        ids: Sequence[str],
        *,
        target: str | Path | None = None,
        view: CallerView | None = None,
    ) -> dict[str, Any]:
        """Closure, cycles and conflicts of a chosen set of components (no retrieval).

        A plugin stands for its members (the installable components with a PART_OF edge
        to it), as in `install.plan_install`: ``plugins`` maps it to them, and they are
        ``selected``. Ids the caller cannot see are listed under ``missing``, like ids that
        do not exist. What the index cannot bring (``missing_requirements``) and conflicts
        with what ``target`` holds are said as the install plan says them
        (`dependency_check`). A plugin with no installable member in the view (one a
        marketplace only lists) is said under ``not_installable``, with what to do.

        Raises:
            InstallError: ``target`` is not an existing folder.
        """
        return dependency_report(view or self.view(), ids, target)

    # -- helpers ----------------------------------------------------------------------
    def _select(
        self,
        view: CallerView,
        found: SearchResponse,
        ranked: Sequence[str],
        k: int,
        installed: Mapping[str, str],
        drop_conflicts: bool,
        open_conflicts: Callable[[Sequence[str]], list[Conflict]],
    ) -> tuple[Closure, list[Conflict], list[Dropped]]:
        """The top ``k`` with their closure and conflicts (``open_conflicts`` of its ids);
        with ``drop_conflicts``, a match whose unit holds a losing side (`settle_conflicts`)
        is dropped and the next candidate moves up."""
        if found.nothing_fits:  # the closest matches, shown for what they are: nothing added
            return Closure.alone(ranked[:k], dependency_closure(view, ranked[:k]).requires), [], []
        dropped: list[Dropped] = []
        settled: dict[frozenset[str], Conflict] = {}  # one per pair, as first settled
        excluded: set[str] = set()
        while True:  # every pass that goes on excludes one candidate more, so this ends
            selected = [i for i in ranked if i not in excluded][:k]
            closure = dependency_closure(view, selected)
            conflicts = open_conflicts(closure.ids)
            asked = conflicts if drop_conflicts else []
            outcome = settle_conflicts(asked, closure.ranked_units(), installed)
            if not outcome.excluded:  # none to settle, or both sides installed
                return closure, [*settled.values(), *conflicts], dropped
            for s, lost in outcome.excluded.items():
                excluded.add(s)
                note = conflict_note(view, s, lost, closure.units[s])
                dropped.append(Dropped(s, answer_name(view, s), "conflict", note))
            for c in outcome.conflicts:
                if c.dropped is not None:
                    settled.setdefault(frozenset(c.sides), c)

    def _results(
        self,
        view: CallerView,
        query: str,
        closure: Closure,
        hits: Mapping[str, SearchResult],
        folded: Mapping[str, tuple[str, ...]],
        conflicts: Sequence[Conflict],
        counts: Mapping[str, int],
        installed: Mapping[str, str],
    ) -> list[ComponentResult]:
        order: dict[str, None] = {}
        for s in closure.selected:
            order.setdefault(s, None)
            for dep in closure.units[s]:
                order.setdefault(dep, None)
        out: list[ComponentResult] = []
        for rank, node_id in enumerate(order, 1):
            node = view.get(node_id)
            hit = hits.get(node_id)
            role: Role = "match" if node_id in closure.selected else "dependency"
            brings = closure.units.get(node_id, (node_id,))[1:] if role == "match" else ()
            requires = closure.requires.get(node_id, ())
            required_by = closure.required_by.get(node_id, ())
            chain = closure.chains.get(node_id, ()) if role == "dependency" else ()
            also = tuple(
                dict.fromkeys(
                    folded.get(node_id, ()) + duplicates_of(view, node_id, config=self.dedup)
                )
            )
            mine = tuple(c for c in conflicts if node_id in c.sides)
            lines = [conflict_line(view, node_id, c) for c in mine]
            # The graph path comes from retrieval's snapshot: shown only when every step
            # is visible in this view (else it is left out, never shown in part).
            path = hit.path if hit and all(view.sees(i) for i in hit.path) else ()
            # (a chain may pass through a required plugin, which is no id of the closure)
            mentioned = {*closure.ids, *requires, *chain, *path, *also, *(c.other(node_id) for c in mine)}
            names = {i: answer_name(view, i) for i in mentioned}
            owner = owning_skill(view, node_id)  # the outermost skill this caller sees
            rationale = build_rationale(
                query,
                node,
                names,
                channels=hit.channels if hit else None,
                path=path,
                path_reliability=hit.path_reliability if hit and path else None,
                requires=requires,
                brings=brings,
                required_by=required_by,
                chain=chain,
                also_at=also,
                conflicts=lines,
                installed=installed.get(node_id, ""),
                snapshot=view.snapshot,
                part_of=owner.name if owner else "",
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
                    names=names,
                    part_of=(owner.id, owner.name) if owner else None,
                )
            )
        return out


def _snippet(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
