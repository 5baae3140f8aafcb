"""apply_token_budget: cut to k, then keep the best-ranked items while the sum of their
tiktoken counts fits the budget (``algorithms.budget``: the first that does not fit ends
the answer unless ``budget_fill``); say what was dropped; build the explained results.

Each result carries ``flags``: why its text looks like an instruction to the model
(`skill_retriever.safety.injection`), empty when it does not. With ``drop_flagged`` the
flagged items are dropped before the cut to k, so clean items take their places."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skill_retriever.algorithms.budget import BudgetCut, pack_to_budget, token_counter
from skill_retriever.calibration import calibration_of, redraw_advice
from skill_retriever.calibration.access_fit import (
    english_share_seen_by,
    fit_seen_by,
    sees_every_answer,
)
from skill_retriever.calibration.fit import keywords_back, keywords_can_agree
from skill_retriever.calibration.language import catalogue_note, language_note
from skill_retriever.calibration.model import FitModel
from skill_retriever.context import QueryView
from skill_retriever.filters import nothing_admitted_note
from skill_retriever.fit_words import nothing_fits_words, visible_count
from skill_retriever.model import SCAFFOLD_KINDS
from skill_retriever.named_query import names_an_answer
from skill_retriever.phases._phase import Update, phase
from skill_retriever.querytext import keyword_text, script_note
from skill_retriever.responses import nothing_fits_warning
from skill_retriever.safety.injection import visible_text
from skill_retriever.state import FitInfo, Fused, Result, RetrievalState
from skill_retriever.stores.embedder import DEFAULT_MODEL
from skill_retriever.time_only import window_answers
from skill_retriever.undated_left_out import undated_left_out_note


def snippet(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text`` on one line, without invisible characters.

    Only a window of the text is read, so a megabyte-long item costs what a short one does.
    A ``limit`` of 0 is no snippet (it gave the window's first 60-odd characters).
    """
    if limit <= 0:
        return ""
    window = visible_text(text[: max(limit, 1) * 8 + 64])
    flat = " ".join(window.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@phase(optional=False, releases=True)
def apply_token_budget(state: RetrievalState, view: QueryView) -> Update:
    config, snap = view.config, view.snapshot
    nodes = snap.nodes
    token_counter(config.encoding)  # a bad encoding name fails here, clearly
    flags: dict[str, tuple[str, ...]] = {}
    top: list[Fused] = []
    dropped_flagged: list[str] = []
    for f in state.get("fused", []):
        found = snap.flags(nodes[f["id"]])
        if found and config.drop_flagged:
            dropped_flagged.append(f["id"])
            continue
        flags[f["id"]] = found
        top.append(f)
        if len(top) >= config.k:
            break
    tokens = {f["id"]: snap.token_count(nodes[f["id"]], config.encoding) for f in top}
    cut = pack_to_budget([f["id"] for f in top], tokens, config.token_budget, fill=config.budget_fill)
    kept = set(cut.kept)
    paths = state.get("paths", {})
    results: list[Result] = []
    for f in top:
        if f["id"] not in kept:
            continue
        node = nodes[f["id"]]
        result: Result = {
            "id": node.id,
            "kind": node.kind.value,
            "name": node.name,
            "snippet": snippet(node.description or node.text, config.snippet_chars),
            "score": float(f.get("order_score", f["score"])),
            "fusion_score": float(f["score"]),
            "rerank_score": f.get("rerank_score"),
            "token_count": tokens[node.id],
            "channels": dict(f["ranks"]),
            "flags": list(flags[node.id]),
        }
        if node.id in paths:
            result["path"] = paths[node.id]
        results.append(result)
    update: Update = {
        "results": results,
        "stats": {
            **budget_stats(cut, tokens, flagged=sum(1 for r in results if r["flags"])),
            "dropped_flagged": len(dropped_flagged),
        },
    }
    warnings = []
    if dropped_flagged:  # an answer short of k must say why, not look like all there is
        left_out = ", ".join(dropped_flagged[:3]) + (f" and {len(dropped_flagged) - 3} more" if len(dropped_flagged) > 3 else "")
        warnings.append(f"drop_flagged left out {len(dropped_flagged)} flagged result(s) ({left_out}): "
                        "their text reads like an instruction to the model or hides characters")
    if cut.dropped:
        warnings.append(budget_note(cut, tokens, len(top), config.budget_fill, nodes))
    fit = assess_fit(state, view, top)
    plan = state["plan"]
    script = script_note(plan["search_text"][: config.plan_query_chars], snap.embedder.name, judged=fit is not None)
    warnings += [script] if script else []
    if fit is None and not config.channel_on("semantic") and _stored_fit(view) is not None:
        warnings.append("no 'nothing fits' judgement: it reads the semantic channel, which is off")
    if fit is not None:
        update["fit"] = fit
        update["stats"]["fit"] = dict(fit)
        warnings += [note] if (note := _stale_fit_note(view)) else []
        warnings += [said] if (said := _language_note(view, plan["query"], script is not None)) else []
        if fit["nothing_fits"]:
            # what the answer holds; when the budget held none, the best it ranked
            shown = [(r["name"], r["kind"], r["id"]) for r in results[:3]]
            closest = shown or [(nodes[f["id"]].name, nodes[f["id"]].kind.value, f["id"]) for f in top[:3]]
            # in the words of what the search could answer: a folder of runbooks is no catalogue
            warnings.append(nothing_fits_warning(nothing_fits_words(snap, view.filters.kinds, view.filters), closest))
    warnings += [undated] if (undated := undated_left_out_note(view.filters, snap)) else []
    if not results and len(snap):  # the filters, not the query, may be why: say which
        admitted = nothing_admitted_note(view.filters, nodes.values())
        warnings += [admitted] if admitted else []
    if warnings:
        update["warnings"] = warnings
    return update


def assess_fit(state: RetrievalState, view: QueryView, top: Sequence[Fused] = ()) -> FitInfo | None:
    """How well the catalogue answers the query (``calibration.fit``), from the semantic
    channel's best score and whether the keyword channel agrees on that item; None when
    the index was never calibrated or the semantic channel is off. ``top`` is the answer
    ranked: a query that asks only for a time window fits when it holds items of it."""
    model = _fit_model(view)
    rankings = state.get("channel_rankings") or {}
    # The search against the query alone (feedback moves the channel's own list).
    semantic = state.get("semantic_before_feedback") or rankings.get("semantic") or []
    nodes = view.snapshot.nodes
    # The best match that can be an answer, as the calibration measured it (calibration.fit).
    best = next((h for h in semantic if h["id"] in nodes and nodes[h["id"]].kind not in SCAFFOLD_KINDS), None)
    if model is None or best is None:
        return None
    plan = state["plan"]
    keyword = [h["id"] for h in rankings.get("keyword") or []]
    searched = keyword_text(plan.get("content_text", plan["search_text"]), view.config)  # as search_keywords did
    backed = keywords_can_agree(plan["search_text"]) and keywords_back(view.snapshot, searched, best["id"], keyword,
                                                                       view.filters)
    fit = model.assess(float(best["score"]), backed)
    if (state.get("relational") or ("time_window" in plan and window_answers(plan["search_text"], top, nodes))
            or names_an_answer(plan["query"], (f["id"] for f in top), nodes)):
        # A typed hop that leads to items the caller may see is answered by the index's own
        # edges ("dependants of ledger-db"); its words without the name ("dependants of")
        # match nothing, so the similarity line would flag a right answer. So does a query
        # that asks only for a time window ("incidents since March"): `time_only`; and one
        # that is an item's name ("status"), whose item is what it asks for: `named_query`.
        return FitInfo(confidence=1.0, nothing_fits=False, top_similarity=fit.top_similarity, agree=fit.agree)
    return FitInfo(
        confidence=fit.confidence, nothing_fits=fit.nothing_fits, top_similarity=fit.top_similarity, agree=fit.agree
    )


#: The "nothing fits" line was drawn on another catalogue when the item count moved by
#: more than this share (and `STALE_MIN_ITEMS`) since, or as many items were written
#: (added or rewritten) since: writes through the Python API (``Index.upsert``) do not
#: calibrate again, as ``skill-retriever index`` does, and rewriting every item's text
#: keeps the count. The floor is small: the line moves most while an index is small (the
#: best of a few items is what a probe gets). At 10 a line drawn on 3 items said nothing on
#: 12, where it flagged 5 of 10 off-topic requests and a fresh one 10 (bundled MiniLM).
STALE_SHARE = 0.2
STALE_MIN_ITEMS = 2


def _stale_fit_note(view: QueryView) -> str | None:
    """A note when the calibration behind ``fit`` is of a much smaller or larger index, or
    of one whose items were much rewritten since (the count of each item's last write)."""
    calibration = calibration_of(view.snapshot)
    if calibration is None or not sees_every_answer(view.snapshot, view.filters):
        return None  # one who may not see every answer is judged by a line drawn now (`access_fit`)
    then, now = calibration.items, len(view.snapshot)
    limit = max(STALE_MIN_ITEMS, STALE_SHARE * then)
    # the counts are of every item: to a caller who may not see them all, they told how many were private
    everyone = visible_count(view.snapshot, view.filters) == now
    if abs(now - then) > limit:
        held = f"when the index held {then:,} items; it holds {now:,} now" if everyone else "on an index of a much different size"
    elif (written := view.snapshot.written_since(calibration.version)) > limit:
        held = (f"before {written:,} of the index's {now:,} items were added or rewritten" if everyone
                else "before many of the index's items were added or rewritten")
    else:
        return None
    return f"the 'nothing fits' line was calibrated {held}: {redraw_advice(view.snapshot)}"  # a run under way redraws it


def _language_note(view: QueryView, query: str, script_said: bool) -> str | None:
    """The warning of a judged answer on a catalogue, or for a query, that does not read
    as English, which the "nothing fits" line and the bundled model are tuned for (of a
    query in another script, the script note said it: only the catalogue's is left)."""
    calibration = calibration_of(view.snapshot)
    stored = calibration.english_share if calibration is not None else None
    share = english_share_seen_by(view.snapshot, view.filters, stored)
    bundled = view.snapshot.embedder.name == DEFAULT_MODEL
    return catalogue_note(share, bundled) if script_said else language_note(query, share, bundled)


def _stored_fit(view: QueryView) -> FitModel | None:
    """The index's "nothing fits" line, when it has one and the settings use it."""
    calibration = calibration_of(view.snapshot) if view.config.use_calibration else None
    return calibration.fit if calibration is not None else None


def _fit_model(view: QueryView) -> FitModel | None:
    """The "nothing fits" line that judges this caller's answer: the index's, or one drawn
    over what the caller may see (`calibration.access_fit`)."""
    return fit_seen_by(view.snapshot, view.filters, _stored_fit(view))


def budget_stats(cut: BudgetCut, tokens: dict[str, int], flagged: int) -> dict[str, Any]:
    """What the cut did, as the phase's stats say it (and the query CLI's, which cuts its
    folded list again): the budget, the tokens kept, and each dropped id with its size."""
    return {
        "budget": cut.budget,
        "total_tokens": cut.total_tokens,
        "kept": len(cut.kept),
        "dropped": len(cut.dropped),
        "dropped_ids": [{"id": i, "tokens": tokens[i]} for i in cut.dropped],
        "flagged": flagged,
    }


#: What `budget_note` advises when a dropped result would fit in what the kept ones left.
FILL_ADVICE = "pass budget_fill=True (CLI --budget-fill) to fill the budget with lower-ranked results that fit"


def budget_note(
    cut: BudgetCut, tokens: dict[str, int], considered: int, fill: bool, nodes: Any, fill_advice: str = FILL_ADVICE
) -> str:
    """What the budget left out, in words: how many, the first one with its size, and what
    would help (filling helps only when a dropped result fits in what the kept ones left)."""
    first = cut.dropped[0]
    what = f"{nodes[first].name} ({first}), {tokens[first]} tokens"
    budget = cut.budget
    room = (budget or 0) - cut.total_tokens
    if fill:
        how = "skipped what did not fit"
    elif any(tokens[i] <= room for i in cut.dropped):
        how = f"kept results best first until one did not fit; {fill_advice}"
    else:
        how = f"kept results best first until one did not fit (none of the others fits in the {room} tokens left)"
    note = f"the token budget of {budget} dropped {len(cut.dropped)} of {considered} results, first {what}; it {how}"
    if not cut.kept:  # nothing came back: the budget that returns the best result, and the least any needs
        note += (f"; nothing came back: the first alone needs {tokens[first]} tokens (a budget of {tokens[first]} "
                 f"or more returns it), the smallest of them {min(tokens[i] for i in cut.dropped)}")
    return note
