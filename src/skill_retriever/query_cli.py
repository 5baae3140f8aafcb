"""``skill-retriever query``: one answer, printed as text or ``--json``, copies folded.

The same component hosted by several sources (six repositories holding one skill) is one
entry: its best-ranked copy, naming the others ("also at" in the text, ``also_at`` in the
JSON). Both outputs hold the same entries: ``-k`` distinct components when the index has
that many matches (`components.refill.fold_to_k` searches again, asking for more, when
copies took places), then cut to ``--budget``, which counts the entries shown and not
their folded copies (the search itself runs without a budget for that reason).

The Python `Retriever.search` is left as it is: it lists every copy (the benchmark reads
its ranking), and only this command and `ComponentService` fold.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from skill_retriever.algorithms.budget import pack_to_budget
from skill_retriever.components.dedup import duplicates_of
from skill_retriever.components.refill import first_fetch, fold_to_k
from skill_retriever.components.view import CallerView
from skill_retriever.item_dates import dates_of
from skill_retriever.item_location import read_from
from skill_retriever.phases.apply_token_budget import FILL_ADVICE, budget_note, budget_stats
from skill_retriever.principals_arg import parse_principals
from skill_retriever.render import Shown, explain, render
from skill_retriever.responses import SearchResponse, renamed_closest
from skill_retriever.safety.terminal import printable, printable_json

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

__all__ = ["folded_answer", "json_results", "run_query"]

#: The phases' logger (``phases._phase``): ``-v`` shows its lines, this module's cut among them.
log = logging.getLogger("skill_retriever")

#: The first search asks for this many times ``-k`` (`first_fetch`).
FIRST_FETCH_TIMES_K = 2


def run_query(index: Index, args: argparse.Namespace) -> int:
    """Search ``args.query`` and print the folded answer (text, or JSON with ``--json``)."""
    from skill_retriever.json_text import dumps
    from skill_retriever.retriever import Retriever

    retriever = Retriever(index, getattr(args, "settings", None))  # --profile and --set (`query_settings`)
    asked_for = parse_principals(args.principals)
    principals = asked_for.names
    if asked_for.note:  # "$UNSET" or " , ": said on stderr whichever output is chosen
        print(printable(f"note: {asked_for.note}"), file=sys.stderr)
    snapshot = index.snapshot()  # what is printed comes from the version the search read
    extra: dict[str, Any] = {}
    if args.max_query_chars is not None:
        extra["max_query_chars"] = args.max_query_chars
    if args.clause_coverage is not None:
        extra["clause_coverage"] = args.clause_coverage
    if args.feedback_docs is not None:
        extra["feedback_docs"] = args.feedback_docs
    if args.multifactor_ranking is not None:
        extra["multifactor_ranking"] = args.multifactor_ranking

    asked = {"tags": args.tags, "since": args.since, "until": args.until}  # checked by argparse
    filters = {name: value for name, value in asked.items() if value is not None}

    def search(fetch: int) -> SearchResponse:
        return retriever.search(
            args.query,
            snapshot=snapshot,
            filters=filters or None,
            k=fetch,
            route=args.route,
            kinds=args.kinds,  # checked by argparse (kind_list): a list with no empty names, or None
            principals=principals,
            rerank=not args.no_rerank,
            **extra,
        )

    view = CallerView(snapshot, principals)
    response, shown = folded_answer(search, view, args.k, args.budget, args.budget_fill, _CLI_FILL_ADVICE)
    if args.json:
        warnings = [*response.warnings, *([asked_for.note] if asked_for.note else [])]
        print(printable_json(dumps({**replace(response, results=[]).to_dict(), "results": json_results(args.query, shown, view),
                                    "warnings": warnings})))
    else:
        # A kind the index does not hold (or any filter that admits nothing) is a warning
        # of the answer itself (Retriever), so --json and the Python API say it too.
        print("\n".join(render(args.query, response, view, shown=shown)))
    return 0


def json_results(query: str, shown: list[Shown], view: CallerView) -> list[dict[str, Any]]:
    """Each entry of ``query --json``: the result's fields, ``also_at``, where it was read
    (``source``; ``line`` for a document's section), its ``created`` / ``updated`` when
    it has them (`item_dates`) and the text's reason as data
    (`render.explain`: ``reason``, ``matches``, ``requires``, ``required_by``)."""
    nodes = view.snapshot.nodes
    return [{**s.result.fields_dict(), "also_at": list(s.also_at),
             **(read_from(node) if (node := nodes.get(s.result.id)) is not None else {"source": ""}),
             **(dates_of(node) if node is not None else {}),
             **explain(query, s, view).to_dict()}
            for s in shown]


#: The budget note's advice in the CLI's own terms (the library's names the Python argument).
_CLI_FILL_ADVICE = "pass --budget-fill to fill the budget with lower-ranked results that fit"


def folded_answer(
    search: Callable[[int], SearchResponse],
    view: CallerView,
    k: int,
    budget: int | None,
    fill: bool,
    fill_advice: str = FILL_ADVICE,
) -> tuple[SearchResponse, list[Shown]]:
    """The answer both outputs print: ``k`` distinct entries (fewer when the index holds
    fewer), cut to ``budget``, each with the other hosts of its component; and the last
    search's response holding just those results, its warnings and budget stats saying so.

    Args:
        search: ``search(fetch)`` runs the query asking for ``fetch`` results, no budget.
        view: What the caller may see.
        k: Distinct entries wanted.
        budget: Token budget of the entries; None = no limit.
        fill: Skip an entry that does not fit and go on (``--budget-fill``).
        fill_advice: What the budget's note advises when filling would help (a caller
            without ``--budget-fill`` says it in its own terms).
    """
    filled = fold_to_k(search, view, k, first=first_fetch(k, FIRST_FETCH_TIMES_K))
    ranked = [
        Shown(filled.hits[i], _also_at(view, i, filled.collapsed.folded.get(i, ())))
        for i in filled.collapsed.ids[:k]
    ]
    tokens = {s.result.id: s.result.token_count for s in ranked}
    cut = pack_to_budget(list(tokens), tokens, budget, fill=fill)
    kept = set(cut.kept)
    shown = [s for s in ranked if s.result.id in kept]
    last = filled.response
    # It named the closest of its own, unfolded list (copies of one name, perhaps); a
    # budget that held none leaves the best ranked, as the search's own warning does.
    closest = [(s.result.name, s.result.kind, s.result.id) for s in (shown or ranked)[:3]]
    warnings = [renamed_closest(w, closest) if closest else w for w in last.warnings]
    if cut.dropped:
        warnings.append(budget_note(cut, tokens, len(ranked), fill, view.snapshot.nodes, fill_advice))
    stats = dict(last.stats)
    cut_stats = budget_stats(cut, tokens, flagged=sum(1 for s in shown if s.result.flags))
    stats["apply_token_budget"] = {**stats.get("apply_token_budget", {}), **cut_stats}
    if budget is not None:  # -v showed the search's own budget phase at budget=None: say where it went
        log.info("[skill_retriever][apply_token_budget] %s (the budget applies here, to the %d entries left "
                 "after folding copies; the search above ran without one)",
                 " ".join(f"{k}={v}" for k, v in cut_stats.items() if not isinstance(v, list)), len(ranked))
    stats["fold"] = filled.stats()
    response = replace(last, results=[s.result for s in shown], warnings=warnings, stats=stats)
    return response, shown


def _also_at(view: CallerView, node_id: str, folded: tuple[str, ...]) -> tuple[str, ...]:
    """The other hosts of ``node_id``: the copies folded into it, then the ones the search
    did not reach (as `ComponentService` lists them)."""
    return tuple(dict.fromkeys(folded + duplicates_of(view, node_id)))
