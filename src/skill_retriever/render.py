"""A search answer for people: what ``skill-retriever query`` prints.

Near-duplicates (the same component hosted in several repositories) are shown once, with
their other sources; each result shows the one score the list is ordered by and a reason
in one line: the query's words it contains, what it requires and what requires it (and,
on the graph route, the path that reached it, never through its own name: "reached via X"
for an item only the walk found; one a search found directly says so first, "found by
semantic #1, keyword #3", and the path after it, "also reached via X", as does an item the
walk could reach only from its own name, without the path; channels always in one order,
`CHANNEL_ORDER`); its snippet reads as text (`snippet_display`). "Nothing fits" comes
first when it applies. `explain` makes that reason once, for the text and for ``--json``.
Every value from the index passes through ``safety.terminal.printable`` before printing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skill_retriever.components.dedup import collapse_ranked
from skill_retriever.components.owning_skill import owning_skill
from skill_retriever.components.view import CallerView
from skill_retriever.components.word_matches import word_matches
from skill_retriever.fit_words import nothing_fits_words
from skill_retriever.item_dates import dated_line
from skill_retriever.item_location import file_location
from skill_retriever.model import EdgeKind, NodeKind
from skill_retriever.reached_via import hop_text, own_title_entity
from skill_retriever.responses import (
    SearchResponse,
    SearchResult,
    is_nothing_fits,
    nothing_fits_warning,
    renamed_closest,
)
from skill_retriever.route_why import route_label
from skill_retriever.safety.terminal import printable
from skill_retriever.score_text import score_text
from skill_retriever.snippet_display import readable_snippet

__all__ = [
    "CHANNEL_ORDER",
    "Explanation",
    "Shown",
    "explain",
    "fold",
    "found_by_words",
    "has_edges",
    "in_channel_order",
    "named_channels",
    "path_steps",
    "reached_words",
    "reason",
    "render",
]

#: Names listed in one reason before "and N more" (N of 2 or more: one more is named).
SHOWN_NAMES = 3
#: The order a reason line names the channels that found an item in (its ranks follow a
#: "found by" channel; the score orders the results).
CHANNEL_ORDER = ("semantic", "keyword", "graph", "temporal", "named", "clauses")
_ORDER = {c: i for i, c in enumerate(CHANNEL_ORDER)}


@dataclass(frozen=True)
class Shown:
    """One line of the answer: a result and the other sources of the same component."""

    result: SearchResult
    also_at: tuple[str, ...]


def fold(response: SearchResponse, view: CallerView) -> list[Shown]:
    """Results in order, each near-duplicate folded into the best-ranked copy."""
    by_id = {r.id: r for r in response.results}
    collapsed = collapse_ranked(view, list(by_id))
    return [Shown(by_id[i], tuple(collapsed.folded.get(i, ()))) for i in collapsed.ids]


def _names(view: CallerView, ids: Iterable[str]) -> str:
    names = [view.name_of(i) for i in dict.fromkeys(ids) if view.sees(i)]
    if len(names) <= SHOWN_NAMES + 1:  # "and 1 more" hid a name in about as many characters
        return ", ".join(names)
    return ", ".join(names[:SHOWN_NAMES]) + f" and {len(names) - SHOWN_NAMES} more"


@dataclass(frozen=True)
class Explanation:
    """Why one result is in the answer: the text's reason line and the parts of it a
    program reads (``query --json`` gives both, so the two outputs cannot disagree).

    Attributes:
        matches: Every query word the item contains (the line names the first six).
        requires: ``(id, name)`` of each item it requires that the caller may see.
        required_by: ``(id, name)`` of each item requiring it that the caller may see.
        line: The reason line ``query`` prints under the result.
        part_of: ``(id, name)`` of the skill whose folder holds it, the one to install to
            have it (`owning_skill`: a template file, a SKILL.md nested in another's
            folder); None for an item part of no skill the caller may see.
    """

    matches: tuple[str, ...]
    requires: tuple[tuple[str, str], ...]
    required_by: tuple[tuple[str, str], ...]
    line: str
    part_of: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The keys ``query --json`` adds to each result (``reason``, ``matches``,
        ``requires``, ``required_by``, each relation an object with ``id`` and ``name``;
        ``part_of``, such an object or null)."""
        return {
            "reason": self.line,
            "matches": list(self.matches),
            "requires": [{"id": i, "name": n} for i, n in self.requires],
            "required_by": [{"id": i, "name": n} for i, n in self.required_by],
            "part_of": None if self.part_of is None else {"id": self.part_of[0], "name": self.part_of[1]},
        }


def _named(view: CallerView, ids: Iterable[str]) -> tuple[tuple[str, str], ...]:
    # The edges come from the view, so both ends are visible; `sees` again keeps a private
    # item out even if a caller passes other ids.
    return tuple((i, view.name_of(i)) for i in dict.fromkeys(ids) if view.sees(i))


def explain(query: str, shown: Shown, view: CallerView) -> Explanation:
    """The reason for ``shown``: what found it directly (where the graph also reached it),
    matched words, what it requires, what requires it, then the graph path, as data and as
    the line printed."""
    r = shown.result
    node = view.get(r.id)
    parts = []
    graph = reached_words(r.channels, path_steps(r, view), node.name)
    # An item the walk reached that a search also found directly says that first: a line
    # of "reached via Teutberga" alone read as if the item were found only through another
    # (2wikimultihopqa: the answer was semantic #1, keyword #3). A passage the walk reached
    # from its own title (or started at) shows no hop, only what found it.
    found = found_by_words(r.channels)
    if found and (graph or ("graph" in r.channels and own_title_entity(
        node, (view.get(e.target) for e in view.out_edges(r.id, EdgeKind.MENTIONS))
    ))):
        parts.append(found)
    held = word_matches(query, node, view.snapshot)  # as the keyword search reads words: "bake (as baked)"
    words = [m.word for m in held]
    if held:
        parts.append("matches " + ", ".join(m.text() for m in held[:6]))
    requires = _named(view, (e.target for e in view.out_edges(r.id, EdgeKind.DEPENDS_ON)))
    if requires:
        parts.append("requires " + _names(view, (i for i, _ in requires)))
    required_by = _named(view, (e.source for e in view.in_edges(r.id, EdgeKind.DEPENDS_ON)))
    if required_by:
        parts.append("required by " + _names(view, (i for i, _ in required_by)))
    if graph:
        parts.append(graph)
    # The temporal channel lists what the query's time window holds, latest first: that is
    # when the item happened, not what it means ("close in meaning (semantic, temporal)").
    meaning = [c for c in in_channel_order(named_channels(r, view)) if c not in ("temporal", "named")]
    # The named list holds what the query writes out by name or id, not what it means; an
    # id ("inc:4812") matches no word of the item's text, so nothing above said it.
    if not parts and "named" in r.channels:
        parts.append("named in the query")
    if not parts and meaning:
        parts.append("close in meaning (" + ", ".join(meaning) + ")")
    if "temporal" in r.channels:
        parts.append("dated inside the query's time window")
    # First, before the evidence (the brief MCP answer cuts a line's end): "python-fastapi
    # [other]" alone did not say it is a file of app-builder, the skill that brings it
    skill = owning_skill(view, r.id)
    if skill is None:
        return Explanation(tuple(words), requires, required_by, "; ".join(parts))
    line = "; ".join([f"part of skill {skill.name}", *parts])
    return Explanation(tuple(words), requires, required_by, line, (skill.id, skill.name))


def path_steps(result: SearchResult, view: CallerView) -> list[str]:
    """The names along ``result``'s graph path before the item itself, or none when the
    caller may not see every step (a hidden step would be said as its id: the path is
    left out, never shown in part)."""
    if not all(view.sees(i) for i in result.path):
        return []
    return [view.name_of(i) for i in result.path[:-1]]


def found_by_words(channels: Mapping[str, int]) -> str:
    """"found by semantic #1, keyword #3": the searches that found an item by itself (every
    channel but the graph walk, which reaches it from other items), in `CHANNEL_ORDER`;
    "" when only the walk did."""
    direct = [c for c in in_channel_order(channels) if c != "graph"]
    return "found by " + ", ".join(f"{c} #{channels[c]}" for c in direct) if direct else ""


def reached_words(channels: Mapping[str, int], steps: Sequence[str], item_name: str) -> str:
    """What the graph path adds, in words: "reached via X" for an item only the walk found,
    "also reached via X" beside a search that found it directly (`found_by_words`); ""
    when the path holds no step but the item's own name (`reached_via.hop_text`).

    Args:
        channels: The result's channels and ranks.
        steps: The names along its path, seed first, the item itself left out.
        item_name: The item's name.
    """
    hop = hop_text(steps, item_name)
    if not hop:
        return ""
    return ("also reached via " if found_by_words(channels) else "reached via ") + hop


def in_channel_order(channels: Iterable[str]) -> list[str]:
    """``channels`` in the one order every reason line names them (`CHANNEL_ORDER`; one
    it does not know after those, by name), whatever their ranks: two lines never read
    "(graph, semantic)" and "(semantic, graph)" for the same pair."""
    return sorted(channels, key=lambda c: (_ORDER.get(c, len(_ORDER)), c))


def reason(query: str, shown: Shown, view: CallerView) -> str:
    """One line: what found it, matched words, what it requires, what requires it, the
    graph path (`explain`)."""
    return explain(query, shown, view).line


def named_channels(result: SearchResult, view: CallerView) -> list[str]:
    """The channels an explanation names for ``result``, best rank first.

    "graph" is left out for an item it reached by no path when the caller's view holds
    no edge: a walk over no edges only hands its seeds back, so naming it would claim a
    relation there is none of (metatool: 0 edges, every item "graph #1"); it stays when
    it is the only one, so the line names something. Display only: the ranking keeps the
    channel, which still reorders the seeds there."""
    ranked = sorted(result.channels, key=lambda c: result.channels[c])
    if "graph" in ranked and len(ranked) > 1 and not result.path and not has_edges(view):
        ranked.remove("graph")
    return ranked


def has_edges(view: CallerView) -> bool:
    """Whether the caller sees an edge (both its ends), kept per snapshot and principals."""
    snap = view.snapshot
    if not snap.edges:
        return False
    return snap.memo(
        "caller-has-edges",
        view.principals,
        lambda: any(view.sees(e.source) and view.sees(e.target) for e in snap.edges.values()),
        8,
    )


def render(
    query: str,
    response: SearchResponse,
    view: CallerView,
    k: int | None = None,
    *,
    shown: Sequence[Shown] | None = None,
) -> list[str]:
    """The lines ``skill-retriever query`` prints: ``shown``, the entries the command chose
    (`query_cli.folded_answer`), or else ``response`` folded, at most ``k`` entries (None: all)."""
    shown = list(shown) if shown is not None else fold(response, view)[:k]
    ranked = "reranked by " + response.reranker if response.reranker != "none" else "no reranking"
    confidence = f", confidence {response.confidence:.2f}" if response.confidence is not None else ""
    counted = f"{len(shown)} result" + ("" if len(shown) == 1 else "s")
    why = route_label(response.stats.get("plan_query"))  # forced, the index's defaults, complexity...
    lines = [f"{counted} (route {response.route}{f': {why}' if why else ''}, {ranked}{confidence})"]
    if response.nothing_fits:
        closest = [(s.result.name, s.result.kind, s.result.id) for s in shown[:3]]
        # the search's own words (they follow what it could answer: its kinds, the index's
        # sorts), naming what is shown; the budget held none: its own names of the closest
        said = next((w for w in response.warnings if is_nothing_fits(w)), None)
        if said is None:  # flagged but not worded: in the words of the whole index
            said = nothing_fits_warning(nothing_fits_words(view.snapshot, None, view.filters), closest)
        elif closest:
            said = renamed_closest(said, closest)
        # a last name that ends a sentence itself ("Butenschøn Sr.") takes no second stop
        lines.append(f"{said[0].upper()}{said[1:]}{'' if said.endswith(('.', '!', '?')) else '.'}")
    for w in response.warnings:
        if not is_nothing_fits(w):  # said above, in its own words
            lines.append(f"note: {w}")
    for rank, s in enumerate(shown, 1):
        r = s.result
        lines.append(f"{rank:>2}. {r.name} [{r.kind}]  score {score_text(r.score)}  {r.token_count} tokens")
        lines.append(f"    {reason(query, s, view)}")
        if s.also_at:
            more = f" (+{len(s.also_at) - 2} more)" if len(s.also_at) > 2 else ""
            lines.append("    also at: " + ", ".join(s.also_at[:2]) + more)
        if snippet := readable_snippet(r.snippet):  # no written-out \n or <example> of a description
            lines.append(f"    {snippet}")
        for flag in r.flags:  # instruction-like text: read it as data, not as orders
            lines.append(f"    flagged: {flag}")
        lines.append(f"    id: {r.id}")
        node = view.snapshot.nodes.get(r.id)
        if node is not None and (dated := dated_line(node)):  # when it happened: inside the window or not
            lines.append(f"    {dated}")
        if r.kind == NodeKind.DOCUMENT.value and node is not None and node.source:
            # A document is read where it is; a section of one, from its line (path:line,
            # what an editor opens).
            lines.append(f"    file: {file_location(node)}")
    return [printable(line) for line in lines]
