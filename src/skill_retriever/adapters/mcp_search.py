"""The MCP ``search`` tool: the index's default search over every kind it holds.

``search_components`` answers with components only (and adds what they require); an agent
also needs the runbook, the ADR, the past incident, the deploy, the service or the tool
the index holds. ``search`` is ``skill-retriever query`` over MCP: `Retriever.search` over
every answer kind (or the ``kinds`` asked for), the copies of one component folded into
its best-ranked entry and cut to ``budget`` as the CLI does (`query_cli.folded_answer`),
each result explained in one line as the CLI explains it (`render.reason`).

The caller's principals apply as in every other tool: the search runs with them over the
snapshot the answer is read from (one `CallerView`), so an item the caller may not see is
never named or counted, and a graph path through one is left out rather than shown in part.

An item read from a file carries its ``source`` (a document's absolute path): the agent
opens it there, or reads it whole with ``get_component``. ``detail="brief"`` keeps a
result's other fields to about `BRIEF_TOKENS` tokens (the snippet, then the reason, are cut),
its ``source``, dates and flags added whole;
``"full"`` gives every field and the item's text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema

from skill_retriever.adapters.mcp_arguments import MAX_K, Budget, Count, ToolError, one_or_more
from skill_retriever.adapters.tool_default_k import configured_k
from skill_retriever.adapters.visible_attrs import visible_attrs
from skill_retriever.components.install import UnknownComponentError, resolve_id
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.components.owning_skill import part_of
from skill_retriever.components.results import BRIEF_TOKENS, fit
from skill_retriever.components.service import ComponentService
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import (
    ConfigError,
    IndexLockedError,
    IndexOpenError,
    QueryTooLongError,
    SkillRetrieverError,
)
from skill_retriever.filters import Filters, ReversedWindowError, kinds_named
from skill_retriever.fit_words import nothing_fits_words
from skill_retriever.item_dates import dates_of
from skill_retriever.item_location import read_from
from skill_retriever.model import NodeKind
from skill_retriever.query_cli import folded_answer
from skill_retriever.render import Shown, reason
from skill_retriever.responses import (
    SearchResponse,
    is_nothing_fits,
    nothing_fits_warning,
)
from skill_retriever.shown_value import shown
from skill_retriever.snippet_display import readable_snippet

__all__ = [
    "Detail", "ItemKinds", "caller_view", "checked_counts", "item_id", "nothing_fits_note", "search_answer",
    "search_tool",
]  # fmt: skip

Detail = Literal["brief", "full"]
#: Every item kind by name: the schema's enum and the tool's description list these.
_ITEM_KIND_NAMES = sorted(k.value for k in NodeKind)
#: Any item kind, checked by `Filters` (its words for an unknown kind); the schema lists them.
ItemKinds = Annotated[
    list[str],
    BeforeValidator(lambda v: [v] if isinstance(v, str) else v),  # one kind alone is a list of one
    Field(min_length=1),
    WithJsonSchema(one_or_more(_ITEM_KIND_NAMES)),
]
#: A full answer's item fields besides the result's own (``access`` is left out: it names
#: principals the caller may not hold).
_ITEM_FIELDS = ("description", "text", "tags", "created", "updated", "attrs")
#: The budget note's advice in this tool's terms: it takes no ``budget_fill`` (one would be
#: refused as an unknown argument).
_FILL_ADVICE = "a larger budget holds more"


def caller_view(service: ComponentService) -> CallerView:
    """The caller's view of the index now, for one tool call; the index's own failure
    (its files deleted or replaced since the server opened it, a write holding it) said in
    words. The SDK passes on only what a tool raises as ToolError and hides anything else
    behind a bare "Error executing tool <name>", so the agent could not tell that the
    server must be restarted."""
    try:
        return service.view()
    except (IndexOpenError, IndexLockedError) as exc:
        raise ToolError(str(exc)) from exc


def search_tool(service: ComponentService, count: Callable[[str], int]) -> Callable[..., dict[str, Any]]:
    """The ``search`` tool function for `mcp_server.build_server` to register."""

    def search(
        query: str,
        kinds: ItemKinds | None = None,
        k: Count = 5,
        budget: Budget | None = None,
        detail: Detail = "brief",
        since: str | None = None,
        until: str | None = None,
    ) -> dict[str, Any]:
        """Search everything the index holds (runbooks and other documents, incidents,
        deploys, services, tools, passages, components), best first, each with a one-line
        reason and its created / updated dates; an item read from a file gives its source
        path to open.

        Args:
            query: What you need in plain words, e.g. "how do I roll back a bad deploy".
            kinds: Item kinds to search (default: all; one may be given alone), any of:
                {kinds}.
            k: How many results, 1 to {max_k}.
            budget: Token budget for all returned items (their full texts); what it drops is counted.
            detail: "brief" (about 150 tokens a result) or "full" (every field and the item's text).
            since: Only items created or updated at or after this time (ISO 8601, e.g.
                2026-11-01; UTC unless a zone is given). A time in the query's words
                ("last week") ranks by it instead of filtering.
            until: Only items created or updated at or before this time; a date alone takes its whole day in.
        """
        return search_answer(service, count, query, kinds, k, budget, detail, since, until)

    # the kinds said as the schema's enum lists them: a hand-written list fell behind it
    search.__doc__ = (search.__doc__ or "").replace("{kinds}", ", ".join(_ITEM_KIND_NAMES))
    search.__doc__ = search.__doc__.replace("{max_k}", str(MAX_K))
    return configured_k(service.retriever.config)(search)  # a k the server's retriever sets, else 5


def checked_counts(k: int, budget: int | None) -> None:
    """Refuse a ``k`` under 1 or over `MAX_K`, or a negative ``budget``, in the tools' own
    words (the schema says their bounds; a client need not check them).

    Raises:
        ToolError: Either is out of range.
    """
    if k <= 0:
        raise ToolError(f"k must be an integer > 0, got {shown(k)}")
    if k > MAX_K:
        raise ToolError(
            f"k must be at most {MAX_K} (every result goes into your context), got {shown(k)}; "
            "narrow the query or kinds to reach the others"
        )
    if budget is not None and budget < 0:
        raise ToolError(f"budget must be >= 0 (leave it out for no limit), got {shown(budget)}")


def search_answer(
    service: ComponentService,
    count: Callable[[str], int],
    query: str,
    kinds: list[str] | None,
    k: int,
    budget: int | None,
    detail: Detail,
    since: str | None = None,
    until: str | None = None,
) -> dict[str, Any]:
    """The ``search`` tool's answer (see the module docstring).

    Raises:
        ToolError: A bad kind, time, ``k`` or ``budget``, a query over the length limit,
            or any other refusal of the search, in words an agent can act on.
    """
    times = {name: v for name, v in (("since", since), ("until", until)) if v is not None}
    try:  # an unknown kind or a bad time fails here, as everywhere
        asked = Filters.from_spec({**times, **({} if kinds is None else {"kinds": frozenset(kinds)})})
    except ReversedWindowError as exc:
        raise ToolError(exc.worded("since", "until")) from exc
    except ConfigError as exc:
        raise ToolError(str(exc).removeprefix("filters.")) from exc  # the arguments are `kinds`, `since`, `until`
    kinds = None if asked.kinds is None else sorted(asked.kinds)  # as stored: "Agent" is agent
    checked_counts(k, budget)
    view = caller_view(service)
    principals = service.principals if service.principals is not None else []  # None: public only

    def run(fetch: int) -> SearchResponse:
        return service.retriever.search(
            query, snapshot=view.snapshot, k=fetch, kinds=kinds, principals=principals, filters=times
        )

    try:
        fill = service.retriever.config.budget_fill
        response, shown = folded_answer(run, view, k, budget, fill, _FILL_ADVICE)
    except QueryTooLongError as exc:  # the limit is the server's: the model can only shorten
        raise ToolError(exc.to_agent) from exc
    except SkillRetrieverError as exc:
        raise ToolError(str(exc)) from exc
    shown = [_visible_path(s, view) for s in shown]
    out: dict[str, Any] = {}
    if response.nothing_fits:  # first, so an agent reads it before the list
        out["nothing_fits"] = True
        out["note"] = nothing_fits_note(response.warnings, [(s.result.name, s.result.kind, s.result.id) for s in shown[:3]], view, kinds)
    elif detail == "full":
        out["nothing_fits"] = False
    results = [_result(query, s, view, detail, count) for s in shown]
    out["results"] = results
    out["total_tokens"] = sum(s.result.token_count for s in shown)
    if response.confidence is not None:
        out["confidence"] = round(response.confidence, 4)
    if budget is not None:
        out["dropped"] = int(response.stats.get("apply_token_budget", {}).get("dropped", 0))
    # "nothing fits" is said in `note`, not twice; an agent cannot run `stats`, so a kind
    # the index lacks is answered with the kinds the caller may ask for
    nodes = view.snapshot.nodes.values()
    warnings = [kinds_named(w, view.filters, nodes) for w in response.warnings if not is_nothing_fits(w)]
    if warnings:
        out["warnings"] = warnings
    if detail == "full":
        out.update(query=query, budget=budget, route=response.route, reranker=response.reranker,
                   fit=dict(response.fit) if response.fit else None, snapshot_version=view.version)
    return out


def item_id(view: CallerView, ref: str) -> str:
    """The visible item ``ref`` names: an id of any kind, the one component or plugin of
    that name, or else the one item of any kind of that name (``get_component`` reads a
    document ``search`` found by its name too).

    Raises:
        UnknownComponentError: Nothing the caller may see answers to ``ref``, or several
            components do, or several items of other kinds do (``candidates`` lists them).
    """
    try:
        return resolve_id(view, ref)
    except NotInstallableError as exc:
        if len(exc.found) == 1:  # one item of that name, of a kind install has no place for
            return exc.found[0]
        raise UnknownComponentError(ref, tuple(sorted(exc.found))) from exc


def _visible_path(shown: Shown, view: CallerView) -> Shown:
    """``shown`` without its graph path unless the caller may see every step of it (a
    step's name would otherwise be said as its id): left out, never shown in part."""
    path = shown.result.path
    if all(view.sees(i) for i in path):
        return shown
    return replace(shown, result=replace(shown.result, path=(), path_reliability=None))


def nothing_fits_note(
    warnings: list[str], closest: list[tuple[str, str, str]], view: CallerView, kinds: Iterable[str] | None = None
) -> str:
    """The plain-words "nothing fits" warning among ``warnings``, as the CLI says it: in the
    words of what the search could answer (``kinds``, None: any), naming the closest results shown (``search``: renamed so by
    `query_cli.folded_answer`; ``search_components``: by `ComponentService.search`, which
    keeps its own names when the budget held none); worded from ``closest`` (name, kind, id)
    when the fit was judged but not worded."""
    said = next((w for w in warnings if is_nothing_fits(w)), None)
    if said is None:  # the fit was judged but not worded: word it as the CLI does
        said = nothing_fits_warning(nothing_fits_words(view.snapshot, None if kinds is None else frozenset(kinds), view.filters), closest)
    return said


def _result(query: str, shown: Shown, view: CallerView, detail: Detail, count: Callable[[str], int]) -> dict[str, Any]:
    r = shown.result
    node = view.get(r.id)
    out: dict[str, Any] = {
        "id": r.id,
        "kind": r.kind,
        "name": r.name,
        "score": round(r.score, 4),
        "token_count": r.token_count,
        "reason": reason(query, shown, view),
        # as a person reads it (`readable_snippet`); detail "full" keeps the searched one
        "snippet": readable_snippet(r.snippet),
    }
    whole: dict[str, Any] = {}  # never cut: where to open it, when it happened, its flags
    if node.source:  # where it was read from: a document (or its section) is opened there
        whole.update(read_from(node))
    whole.update(dates_of(node))  # an incident or a postmortem is judged by when it happened
    if r.flags:  # instruction-like text: read it as data, not as orders
        whole["flags"] = list(r.flags)
    if detail == "brief":
        if shown.also_at:  # the other hosts of one component, counted (as search_components)
            out["other_sources"] = len(shown.also_at)
        # The budget bounds the text it can cut; counted in, an absolute path and two dates
        # left a dated skill no snippet at all.
        return {**fit(out, count, BRIEF_TOKENS, ("snippet", "reason")), **whole}
    out.update(whole)
    full = node.to_dict()
    out.update(r.fields_dict(), also_at=list(shown.also_at), **{key: full[key] for key in _ITEM_FIELDS})
    out["part_of"] = part_of(view, r.id)  # the reason's "part of skill", as `query --json` gives it
    out["attrs"] = visible_attrs(view, node.attrs, node.id)  # its frontmatter may name a hidden item
    return out
