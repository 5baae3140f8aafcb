"""A token budget that keeps dependency sets whole.

The plain budget (`pack_to_budget`) drops the lowest-ranked ids one by one, so it can keep
a component while dropping a component it requires. Here each selected component and
everything it requires form one unit (`Closure.units`); units are kept or dropped whole,
the lowest-ranked unit first (`pack_units_to_budget`). A requirement shared by several
units is counted once and stays while any kept unit needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from skill_retriever.algorithms.budget import BudgetCut, pack_units_to_budget
from skill_retriever.components.closure import Closure
from skill_retriever.components.results import Dropped

__all__ = ["UnitCut", "budget_dropped", "pack_closure_to_budget"]


@dataclass(frozen=True)
class UnitCut:
    """Which selected components (and so which units) fit the budget.

    Attributes:
        kept_components: Selected ids kept, in rank order.
        dropped_components: Selected ids dropped, in rank order.
        cut: The id-level cut (``kept`` holds requirements too).
    """

    kept_components: tuple[str, ...]
    dropped_components: tuple[str, ...]
    cut: BudgetCut

    @property
    def kept(self) -> tuple[str, ...]:
        return self.cut.kept

    @property
    def total_tokens(self) -> int:
        return self.cut.total_tokens


def pack_closure_to_budget(
    closure: Closure,
    token_counts: Mapping[str, int] | Callable[[str], int],
    budget: int | None,
    *,
    fill: bool = False,
) -> UnitCut:
    """Keep whole units of ``closure`` within ``budget`` tokens, best first; the first
    unit that does not fit ends the answer unless ``fill`` (then it is skipped and the
    lower-ranked units that fit are kept), as `pack_units_to_budget` does.

    Args:
        closure: Selected components and what they require.
        token_counts: Id -> token count, or a function giving it.
        budget: The most tokens to keep; None keeps everything.
        fill: Skip a unit that does not fit and go on with the next.

    Returns:
        The :class:`UnitCut`.
    """
    units = closure.ranked_units()
    if callable(token_counts):
        count = token_counts
        counts = {i: count(i) for unit in units for i in unit}
    else:
        counts = dict(token_counts)
    cut = pack_units_to_budget(units, counts, budget, fill=fill)
    kept = set(cut.kept)
    kept_components = tuple(s for s in closure.selected if all(i in kept for i in closure.units[s]))
    dropped = tuple(s for s in closure.selected if s not in kept_components)
    return UnitCut(kept_components, dropped, cut)


def budget_dropped(
    closure: Closure,
    cut: UnitCut,
    counts: Mapping[str, int],
    budget: int | None,
    fill: bool,
    name_of: Callable[[str], str],
) -> list[Dropped]:
    """Each selected component the budget dropped, with why: what it and its requirements
    would add; or, below the first that did not fit (without ``fill``), that the answer
    ends there although it would fit."""
    out: list[Dropped] = []
    first_cut: str | None = None
    for s in cut.dropped_components:
        size = sum(counts[i] for i in closure.units[s] if i not in cut.kept)
        if first_cut is None or fill or cut.total_tokens + size > (budget or 0):
            detail = f"with what it requires ({len(closure.units[s])} component(s)) it adds {size} tokens; budget {budget}"
            first_cut = first_cut or s
        else:  # it would fit, but the answer ends at the better one that did not
            detail = (
                f"ranked below {name_of(first_cut)}, which did not fit the budget; "
                "budget_fill=True fills it with lower-ranked components that fit"
            )
        out.append(Dropped(s, name_of(s), "budget", detail))
    return out
