"""The prompt of the example coding agent (``graphs/coding_agent.py``, which re-exports
these): the task, what the retrieval found in words (nothing fits, items the token budget
dropped), then each retrieved item's full text, best first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skill_retriever.responses import NOTHING_FITS, nothing_fits_phrase_in
from skill_retriever.state import FitInfo

__all__ = ["DEFAULT_BUDGET", "assemble_prompt", "budget_dropped_note", "budget_stats_of"]

#: The agent's default token budget: five real skills fit (graphs/coding_agent.py's
#: docstring has the figures, ``python -m skill_retriever.bench.agent_budget`` measures them).
DEFAULT_BUDGET = 16000


def assemble_prompt(
    task: str,
    skills: Sequence[Mapping[str, Any]],
    *,
    fit: FitInfo | None = None,
    budget: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
) -> str:
    """The context a coding model gets: the task, what the retrieval found in words, then
    each item's full text, best first.

    Args:
        task: the user's coding task.
        skills: the retrieved items, best first.
        fit: the retrieval's ``fit``: when it says nothing fits, the items are offered as
            the closest only, so the model does not follow an off-topic skill as if it were
            meant for the task.
        budget: the ``apply_token_budget`` phase's stats (``budget``, ``dropped``,
            ``dropped_ids``): items that matched but did not fit are counted, so an empty
            answer never reads as "nothing matched".
        warnings: the retrieval's warnings: "nothing fits" is said in their words (a folder
            of runbooks is no catalogue); a catalogue's when none says it.
    """
    nothing_fits = fit is not None and fit["nothing_fits"]
    # When nothing fits, the items the budget dropped are off-topic too: say they did not
    # fit, never urge a larger budget to include them.
    note = budget_dropped_note(budget, kept=len(skills), advise=not nothing_fits)
    # "nothing in the catalogue fits this well" -> "Nothing in the catalogue fits this task well"
    phrase = nothing_fits_phrase_in(warnings or []) or NOTHING_FITS
    verdict = phrase[0].upper() + phrase[1:].removesuffix(" this well") + " this task well"
    if nothing_fits and skills:
        closest = (
            "The closest item is shown below only in case it helps; follow it only where it clearly applies"
            if len(skills) == 1
            else f"The {len(skills)} closest items are shown below only in case they help; "
            "follow them only where they clearly apply"
        )
        head = f"{verdict}. {closest}, and otherwise work from general knowledge."
    elif nothing_fits:
        head = f"{verdict}; work from general knowledge."
    elif skills:
        head = ("Apply this item" if len(skills) == 1 else f"Apply these {len(skills)} items") + (
            " (ranked by skill-retriever):")
    elif note:
        head = f"No items are shown: {note} Work from general knowledge."
    else:
        head = "No skills matched this task; work from general knowledge."
    parts = [f"Task: {task}", "", head]
    if note and (skills or nothing_fits):
        parts += ["", f"({note})"]
    for rank, s in enumerate(skills, 1):
        parts += ["", f"## {rank}. {s['name']} [{s['kind']}] (id: {s['id']})", s["text"].strip()]
    return "\n".join(parts)


def budget_dropped_note(budget: dict[str, Any] | None, kept: int, *, advise: bool = True) -> str | None:
    """The sentence saying how many items matched but did not fit the token budget, and
    how to raise it; None when the budget dropped none. (The retrieval's warning says so
    too, but a caller reading only the prompt took an empty answer for "nothing matched".)

    Args:
        budget: the ``apply_token_budget`` phase's stats.
        kept: how many items the budget kept (the dropped ones are "more" than those).
        advise: say how to include them; False when nothing fits the task, where they
            are only the closest items, which no budget makes fit the task.
    """
    dropped = int((budget or {}).get("dropped") or 0)
    if budget is None or not dropped:
        return None
    what = f"{dropped} {'more ' if kept else ''}{'item' if dropped == 1 else 'items'}"
    if not advise:
        alone = "The closest item" if dropped == 1 else f"The {dropped} closest items"
        closest = f"{dropped} more of the closest items" if kept else alone
        return f"{closest} did not fit the token budget of {budget.get('budget')} tokens."
    note = f"{what} matched this task but did not fit the token budget of {budget.get('budget')} tokens"
    sizes = [int(d["tokens"]) for d in budget.get("dropped_ids") or [] if "tokens" in d]
    if not kept and sizes:  # the cut keeps best first, so the best one is what must fit
        note += f" (the best of them needs {sizes[0]} tokens)"
    return (f"{note}; raise the agent's token_budget input (default {DEFAULT_BUDGET}), "
            f"or set it to null for no budget, to include {'it' if dropped == 1 else 'them'}.")


def budget_stats_of(state: dict[str, Any]) -> dict[str, Any] | None:
    """The ``apply_token_budget`` stats of the retrieval this run made: the wrapper agent
    keeps the retrieval's stats under ``retrieval``, the shared-state agent as ``stats``."""
    stats = state.get("stats") or (state.get("retrieval") or {}).get("stats") or {}
    found = stats.get("apply_token_budget")
    return found if isinstance(found, dict) else None
