"""plan_query: pin the query's view, validate the query, find entities, typed hops and a
time window, pick the route, and embed the query once for every channel."""

from __future__ import annotations

import math

from skill_retriever.advice import Placeholder, command
from skill_retriever.algorithms.day_hours import zone_name_note
from skill_retriever.algorithms.query_terms import (
    NameMatcher,
    classify_complexity,
    named_entities,
    query_components,
)
from skill_retriever.algorithms.relations import CUES, asked_kind, relation_hops
from skill_retriever.algorithms.temporal import unread_time_phrase
from skill_retriever.calibration import calibration_of
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.context import QueryView
from skill_retriever.dated_items import carries_dates
from skill_retriever.day_dated import widen_to_dated_day
from skill_retriever.exceptions import QueryError
from skill_retriever.graph_input import NO_QUERY_IN_STATE
from skill_retriever.phases._helpers import embedded_text, relation_ends
from skill_retriever.phases._phase import Update, phase
from skill_retriever.querytext import (
    clean_query,
    long_query_note,
    search_text_of,
    without_names,
)
from skill_retriever.route_why import ROUTE_BY_COMPLEXITY, choose_route, default_route
from skill_retriever.state import QueryPlan, RelationHop, RetrievalState, fresh_run
from skill_retriever.stores import run_marks
from skill_retriever.stores.kind_counts import kind_counts
from skill_retriever.stores.passage_views import relation_kinds
from skill_retriever.stores.snapshot import IndexSnapshot

#: Edge kinds a typed hop follows (``algorithms.relations.CUES``).
HOP_KINDS = frozenset(kind for _, kind, _ in CUES)


def visible_names(view: QueryView, text: str) -> NameMatcher:
    """The item names found in ``text`` that name at least one item the caller may see.

    The matcher holds every name; a private item's name must not become an entity (nor
    change the route or the PPR alpha) for a caller who cannot see the item.
    """
    snap = view.snapshot
    found = snap.name_matcher.find(text)
    if not found or view.filters.is_trivial:
        return NameMatcher(found)
    return NameMatcher(name for name in found if any(view.filters.can_see(n) for n in snap.nodes_named({name.casefold()})))


def empty_index_note(snapshot: IndexSnapshot) -> str | None:
    """What to do when the index holds no items at all (never filled, or every item
    deleted): a bare "0 results" reads as "nothing matched", and the user rewords the
    query instead of filling the index. None when it holds anything."""
    if len(snapshot):
        return None
    if any(run_marks.run_state(m) == "running" for m in snapshot.unfinished_runs.values()):
        return f"the index at {snapshot.path} holds no items yet: an index run is filling it; ask again when it ends"
    return (
        f"the index at {snapshot.path} holds no items, so no query can find anything; add some with "
        f"`{command(['index', Placeholder('<folder>')], snapshot.path)}` (Python: Index.upsert)"
    )


def fact_seeds_note(snapshot: IndexSnapshot, fact_seeds: int) -> str | None:
    """Why facts cannot seed the walk when the settings ask them to (``fact_seeds`` > 0:
    the 'multihop' profile) on an index that holds no fact item: the walk then starts from
    the nodes nearest the query, under settings chosen for facts, and may rank worse than
    the index's own defaults with nothing saying so. None when facts are not asked for, or
    the index holds some."""
    if fact_seeds <= 0:
        return None
    counts = kind_counts(snapshot)
    if counts.get("fact"):
        return None
    if counts.get("passage"):
        again = command(["index", Placeholder("<set>/corpus.json")], snapshot.path)
        fix = (f"its passages have none: a corpus.json indexed before facts existed, or by a run that did not finish, "
               f"gets them from `{again}`; passages from a JSON graph or the Python API get none (only a "
               "corpus.json's passages are read for facts), so leave the profile out there")
    else:  # an index of its own: passages beside these items would take the passage settings off them
        own = command(["index", Placeholder("<set>/corpus.json"), "--index-dir", Placeholder("<new folder>")])
        fix = f"the profile is for a passage corpus indexed from a corpus.json (`{own}`); leave it out here"
    return (f"fact_seeds={fact_seeds} (the 'multihop' profile's setting) asks facts to seed the walk, but this "
            "index holds no fact items: the walk starts from the items nearest the query instead, and the "
            f"profile's other settings may rank worse than the index's own defaults; {fix}")


@phase(optional=False, pins=True)
def plan_query(state: RetrievalState, view: QueryView) -> Update:
    config = view.config
    if state.get("query") is None:  # a parent's state or a Send's payload: no check ran before
        raise QueryError(NO_QUERY_IN_STATE)
    query = clean_query(state.get("query"), config.max_query_chars)
    dated = carries_dates(view.snapshot, view.filters)  # a day of a month is a window only where items carry dates
    search_text, window = search_text_of(query, config, dated)
    # "at 2pm on Nov 3" over items dated by their day alone: that day (`day_dated`)
    widened = widen_to_dated_day(window, view.snapshot, view.filters) if window is not None and dated else None
    window = widened[0] if widened else window
    head = search_text[: config.plan_query_chars]
    names = visible_names(view, head)
    entities = named_entities(head, names)
    # A typed hop needs an edge of its kind between items; a passage corpus has none.
    hops = relation_hops(head, names.find(head)) if relation_kinds(view.snapshot) & HOP_KINDS else []
    # A typed hop is a multi-hop question by definition: the PPR route walks from its far end.
    complexity = "complex" if hops else classify_complexity(head, entities)
    calibration = calibration_of(view.snapshot) if config.use_calibration else None
    chosen = choose_route(config, complexity, hop=hops[0].phrase if hops else None,
                          calibrated=calibration.route if calibration else None,
                          suggested=index_defaults(view.snapshot, view.filters))
    route = chosen.route
    plan: QueryPlan = {
        "query": query,
        "search_text": search_text,
        "entities": entities,
        "complexity": complexity,
        "route": route,
        "components": query_components(head, config.component_min_length),
    }
    if hops:
        plan["relations"] = [
            RelationHop(name=h.name, kind=h.kind.value, direction=h.direction, phrase=h.phrase) for h in hops
        ]
    if window is not None:
        plan["time_window"] = window.to_spec()  # type: ignore[typeddict-item]
    snap = view.snapshot
    given = state.get("query_vector")
    usable = (
        isinstance(given, (list, tuple))
        and snap.dim > 0
        and len(given) == snap.dim
        and all(isinstance(x, (int, float)) and math.isfinite(x) and abs(x) <= 1e6 for x in given)
    )  # anything else (wrong size, NaN, huge, not a list) is ignored: the query is embedded here
    ignored = given is not None and not usable
    # What the keyword and semantic channels search: a typed hop that leads somewhere names
    # what its answers hang from, not what they say. One that leads nowhere is no such
    # constraint: in "I need the historical prices chart" (a cue for "what needs X"), the
    # name is the very thing asked for (a stabletoolbench request lost its tool without it).
    if hops and relation_ends(snap, plan["relations"], view.visible):
        plan["content_text"] = without_names(search_text, [h.name for h in hops])
        if kind := asked_kind(without_names(head, [h.name for h in hops])):
            plan["answer_kind"] = kind
        usable = False  # a batch embedded the search text, names and all (`Retriever.search_many`)
    # The embedding stays in the view, out of the state (`QueryView.embedding` says why).
    if usable and given is not None:
        view.keep_embedding(embedded_text(plan), given)
    else:
        view.embedding(embedded_text(plan))  # here, once: this phase's time is where it shows
    update: Update = {
        **fresh_run(),  # nothing of an earlier run in this thread reaches this one
        "plan": plan,
        "route_taken": route,  # what the router reads, and the graph answers
        "stats": {
            "route": route,
            "route_by": chosen.by,  # what chose it (`route_why`): a forced route never reads as the index's
            "route_reason": chosen.reason,
            "default_route": config.default_route,  # as it applied: the index's suggestion, or the caller's
            "complexity": complexity,
            "entities": len(entities),
            "relations": len(hops),
            "answer_kind": plan.get("answer_kind"),
            "components": len(plan["components"]),
            "time_window": window.phrase if window else None,
            "snapshot": snap.version_for(view.filters),  # the last write the caller could see
        },
    }
    if view.configured:  # the settings the run's config["configurable"] gave (`run_configurable`)
        update["stats"]["configurable"] = dict(view.configured)
    # the script note is said by apply_token_budget, with what it says of the "nothing fits" flag
    notes = [empty_index_note(snap), long_query_note(query, config), *view.configurable_misses]
    if ignored and snap.dim:
        notes.append(f"query_vector was not used: it must be a list of {snap.dim} finite numbers (the index's "
                     "embedding of the query); the query was embedded here")
    # An index where no item carries a date (a QA passage corpus) reads "in 1986" as words
    # of the question: no window could apply there, so nothing is worth a warning.
    if window is None and config.channel_on("temporal") and (phrase := unread_time_phrase(head)) and dated:
        notes.append(
            f"{phrase!r} looks like a time but names no window this search reads; the query text is "
            "kept whole and no time filter applies (write e.g. 'since 2026-03-01', 'in March', "
            "'last 3 days')"
        )
    if window is not None and dated:
        notes.append(zone_name_note(head))  # "on Nov 3 at 2pm PST": the day was read, not the hour
    notes.append(widened and widened[1])
    notes.append(fact_seeds_note(snap, config.fact_seeds or 0))
    if any(notes):
        update["warnings"] = [n for n in notes if n]
    return update


#: `ROUTE_BY_COMPLEXITY` and `default_route` live in `route_why` with the rest of the route's
#: choice; they stay importable from here, where they were.
__all__ = ["HOP_KINDS", "ROUTE_BY_COMPLEXITY", "default_route", "empty_index_note", "fact_seeds_note", "plan_query",
           "visible_names"]
